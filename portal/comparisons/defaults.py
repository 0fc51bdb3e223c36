"""The threshold and latency figure a page reads at when its address states none: the reader's own
default, else their team's (set by the team's admin), else the papers' 20 ms average response time."""

from dataclasses import dataclass

from django.contrib.auth.models import User

from portal.models import Team, ThresholdDefault
from portal.results.selectors import LATENCIES
from portal.teams.selectors import teams_of

from .filters import Viewer

PAPERS_THRESHOLD_MS = 20.0


@dataclass(frozen=True)
class ThresholdChoice:
    threshold_ms: float
    latency: str
    # Whose default it is, in words: "your default", "the default of team Storage lab", "the papers' default".
    source: str

    @property
    def sentence(self) -> str:
        return (
            f"The address states no threshold: {self.source} applies, "
            f"{self.threshold_ms:g} ms at the {LATENCIES[self.latency]} response time."
        )


def threshold_default(*, viewer: Viewer) -> ThresholdChoice:
    """The default ``viewer`` reads at: their own, else that of the first of their teams (by name) with one."""
    if isinstance(viewer, User) and viewer.is_authenticated:
        own = ThresholdDefault.objects.filter(user=viewer).first()
        if own is not None:
            return ThresholdChoice(own.threshold_ms, own.latency, "your default")
        team = (
            ThresholdDefault.objects.filter(team__in=teams_of(viewer)).select_related("team").order_by("team__name")
        ).first()
        if team is not None and team.team is not None:
            return ThresholdChoice(team.threshold_ms, team.latency, f"the default of team {team.team.name}")
    return ThresholdChoice(PAPERS_THRESHOLD_MS, "avg", "the papers' default")


def threshold_default_set(
    *, user: User | None = None, team: Team | None = None, threshold_ms: float | None, latency: str = "avg"
) -> ThresholdDefault | None:
    """Store the default of ``user`` or of ``team`` (one of them); a threshold of None removes it."""
    owner = {"user": user} if team is None else {"team": team}
    if threshold_ms is None:
        ThresholdDefault.objects.filter(**owner).delete()
        return None
    found, _ = ThresholdDefault.objects.update_or_create(
        **owner, defaults={"threshold_ms": threshold_ms, "latency": latency}
    )
    return found
