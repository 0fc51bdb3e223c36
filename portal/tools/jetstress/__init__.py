"""Microsoft Exchange Jetstress: the mailboxes a run's achieved IOPS support and its latencies against the
goals (the run page), seed 001's Exchange table (the ``jetstress`` preset)."""

from collections.abc import Callable, Mapping
from functools import partial

from ingest.formats.jetstress import TOOL
from portal.charts import AnyChart
from portal.models import Run

from ..base import ToolTable
from .sizing import IOPS_PER_MAILBOX
from .tables import jetstress_table
from .view import TEMPLATE, run_view

__all__ = ["CHARTS", "TABLES", "TEMPLATE", "TOOL", "run_view"]

CHARTS: Mapping[str, Callable[[Run], AnyChart]] = {}
TABLES: Mapping[str, ToolTable] = {
    "jetstress": ToolTable("Jetstress", partial(jetstress_table, iops_per_mailbox=IOPS_PER_MAILBOX))
}
