"""The normalised schema: systems, their tested configurations, runs, points, uploads, teams, what teams
said of workloads (curation.py), the alerts of histories (alerts.py) and tokens.

Units are fixed: MB/s means 10^6 bytes per second, times are milliseconds, sizes are bytes.
"""

from .alerts import (
    Alert,
    AlertKind,
    AlertNotice,
    AlertRevision,
    AlertState,
    AlertStatus,
    AlertSummary,
    AlertTriage,
    TeamWebhook,
    WebhookDelivery,
)
from .curation import RunStatement, WorkloadAlias
from .derived import RunCurve, SweepCell
from .preferences import ThresholdDefault
from .results import Point, Run, Workload, document_title
from .systems import Config, DriveType, PublishedStrokeMultipliers, System
from .teams import AuditEvent, Invitation, Membership, Role, Team
from .tokens import ApiToken
from .uploads import IngestJob, Upload

__all__ = [
    "Alert",
    "AlertNotice",
    "AlertStatus",
    "AlertSummary",
    "AlertKind",
    "AlertRevision",
    "AlertState",
    "AlertTriage",
    "ApiToken",
    "AuditEvent",
    "Config",
    "DriveType",
    "IngestJob",
    "Invitation",
    "Membership",
    "Point",
    "PublishedStrokeMultipliers",
    "Role",
    "Run",
    "RunCurve",
    "SweepCell",
    "RunStatement",
    "System",
    "Team",
    "TeamWebhook",
    "ThresholdDefault",
    "Upload",
    "WebhookDelivery",
    "Workload",
    "WorkloadAlias",
    "document_title",
]
