"""An alert's life: what the changes found in a history as it now stands do to the alerts stored before.

A change found again near where an open alert of the same kind and direction stands is that alert (one
regression, one alert, however its figures and its first version move as versions arrive); an open alert
no change supports any more is withdrawn; a change that matches none is new. Pure: the portal applies the
transitions to its rows, the simulation of ``make changepoints`` to its own list.
"""

from dataclasses import dataclass

from portal.analysis.changepoints import Change

NEW = "new"
UPDATED = "updated"
CONFIRMED = "confirmed"
WITHDRAWN = "withdrawn"
STATES = (NEW, UPDATED, CONFIRMED, WITHDRAWN)
# The same alert, its figures refreshed by less than is told again: no new state.
KEPT = "kept"
# How far (in versions) a change may move and still be the same alert.
NEAR_VERSIONS = 2
# Figures that move by more than this share of the size last told (or by MATERIAL_PCT_POINTS, whichever
# is more) are told again as an update.
MATERIAL_SHARE = 0.25
MATERIAL_PCT_POINTS = 1.0


@dataclass(frozen=True)
class Known:
    """A stored alert: its id, kind, the position of its first version in the history (None when that
    version is no longer in it), the size last told of it, its state and whether it is still tentative."""

    key: int
    kind: str
    index: int | None
    change_pct: float
    state: str
    tentative: bool


@dataclass(frozen=True)
class Transition:
    """What happens to alert ``key`` (None: a new alert for ``change``): its new state (``KEPT``: none, its
    figures only refreshed), and the change whose figures it takes (None when withdrawn)."""

    key: int | None
    state: str
    change: Change | None


def _near(known: Known, change: Change) -> bool:
    same_way = (known.change_pct < 0) == (change.change_pct < 0)
    return (
        known.kind == change.kind
        and same_way
        and known.index is not None
        and abs(known.index - change.index) <= NEAR_VERSIONS
    )


def _material(known: Known, change: Change) -> bool:
    moved = abs(change.change_pct - known.change_pct)
    return known.index != change.index or moved > max(MATERIAL_PCT_POINTS, MATERIAL_SHARE * abs(known.change_pct))


def transitions(known: list[Known], found: list[Change]) -> list[Transition]:
    """The transitions taking the ``known`` alerts to the ``found`` changes: one for each change found and
    each open alert no change supports."""
    open_alerts = [alert for alert in known if alert.state != WITHDRAWN]
    withdrawn = [alert for alert in known if alert.state == WITHDRAWN]
    matched: set[int] = set()
    result: list[Transition] = []
    for change in found:
        candidates = [a for a in open_alerts if a.key not in matched and _near(a, change)]
        if not candidates:
            candidates = [
                a for a in withdrawn if a.key not in matched and a.kind == change.kind and a.index == change.index
            ]
        if not candidates:
            result.append(Transition(None, NEW, change))
            continue
        alert = min(candidates, key=lambda a: (abs((a.index or 0) - change.index), a.key))
        matched.add(alert.key)
        if alert.state == WITHDRAWN:
            result.append(Transition(alert.key, UPDATED, change))
        elif alert.tentative and not change.tentative:
            result.append(Transition(alert.key, CONFIRMED, change))
        else:
            result.append(Transition(alert.key, UPDATED if _material(alert, change) else KEPT, change))
    result.extend(Transition(a.key, WITHDRAWN, None) for a in open_alerts if a.key not in matched)
    return result
