"""``python -m tests.changepoints``: the change detector's figures on simulated firmware histories, as users
receive its alerts (detection after every version, alerts kept as the portal keeps them) and on finished
histories.

Each history has ``versions`` firmware versions with ``replicates`` runs each; a run's throughput is 1,000
IOPS times (1 - step from the step's version on) times (1 - drift x version) times (1 + noise): Gaussian
of 3 % standard deviation; Student's t with 3 degrees of freedom scaled to the same standard deviation; or
Gaussian with, for one run in 50, a run 20 % slow. Seeds 0 to ``seeds - 1`` make the runs the same every
time.
"""

import argparse
import math
import random
import time
from dataclasses import dataclass, field

from portal.analysis import alert_life
from portal.analysis.alert_life import Known
from portal.analysis.changepoints import DRIFT, STEP, changes
from tests.otava_method import otava_changes

GAUSSIAN, STUDENT, OUTLIERS = "Gaussian", "Student-t (3 df)", "outliers"


@dataclass(frozen=True)
class Scenario:
    versions: int = 30
    replicates: int = 3
    noise: float = 0.03
    kind: str = GAUSSIAN
    step: float = 0.0
    step_at: int = 15
    drift: float = 0.0

    def history(self, seed: int) -> list[list[float]]:
        rnd = random.Random(seed)
        return [
            [1000 * (1 - (self.step if version >= self.step_at else 0)) * (1 - self.drift * version)
             * (1 + self._noise(rnd)) for _ in range(self.replicates)]
            for version in range(self.versions)
        ]  # fmt: skip

    def _noise(self, rnd: random.Random) -> float:
        if self.kind == STUDENT:
            # t = Z / sqrt(chi2_3 / 3), whose variance is 3: scaled to the stated standard deviation.
            chi2 = sum(rnd.gauss(0, 1) ** 2 for _ in range(3))
            return self.noise * rnd.gauss(0, 1) / math.sqrt(chi2 / 3) / math.sqrt(3)
        slow = self.kind == OUTLIERS and rnd.random() < 1 / 50
        return rnd.gauss(0, self.noise) - (0.2 if slow else 0.0)


@dataclass
class Stored:
    """An alert as the portal keeps it: kind, first version, the size last told of it, state, tentative."""

    kind: str
    index: int
    change_pct: float
    state: str
    tentative: bool


@dataclass
class Incremental:
    """One history judged after every version: the alerts as stored, and every notification sent."""

    alerts: list[Stored] = field(default_factory=list)
    notified: list[tuple[int, str, str, int]] = field(default_factory=list)  # (after version, state, kind, index)
    early: bool = False

    def judge(self, history: list[list[float]]) -> None:
        known = [Known(key, a.kind, a.index, a.change_pct, a.state, a.tentative) for key, a in enumerate(self.alerts)]
        for transition in alert_life.transitions(known, changes(history)):
            change = transition.change
            if transition.state == alert_life.KEPT:
                continue
            if transition.key is None and change is not None:
                alert = Stored(change.kind, change.index, change.change_pct, transition.state, change.tentative)
                self.alerts.append(alert)
            else:
                alert = self.alerts[transition.key or 0]
                alert.state = transition.state
                if change is not None:
                    alert.index, alert.change_pct, alert.tentative = change.index, change.change_pct, change.tentative
            self.notified.append((len(history) - 1, transition.state, alert.kind, alert.index))

    def open(self, kind: str | None = None) -> list[Stored]:
        return [a for a in self.alerts if a.state != alert_life.WITHDRAWN and kind in (None, a.kind)]


@dataclass
class Counts:
    notified: int = 0
    open_at_end: int = 0
    near: int = 0
    exact: int = 0
    early: int = 0
    elsewhere: int = 0
    drift: int = 0
    step_notified: int = 0
    notifications: int = 0
    finished_any: int = 0
    finished_near: int = 0
    finished_exact: int = 0
    finished_drift: int = 0
    otava_any: int = 0
    otava_near: int = 0
    otava_exact: int = 0


def evaluate(scenario: Scenario, seeds: int, *, early_after: int | None = None) -> Counts:
    """Counts over ``seeds`` histories. ``early_after``: also count the histories whose alert stood at the
    step's version once that many versions after it were stored."""
    counts = Counts()
    for seed in range(seeds):
        history = scenario.history(seed)
        run = Incremental()
        for end in range(2, len(history) + 1):
            run.judge(history[:end])
            if early_after is not None and end == scenario.step_at + early_after + 1:
                run.early = any(a.index == scenario.step_at and a.kind == STEP for a in run.open())
        _count(counts, scenario, run, changes(history))
        otava = otava_changes(history)
        counts.otava_any += bool(otava)
        counts.otava_near += any(abs(i - scenario.step_at) <= 1 for i in otava)
        counts.otava_exact += scenario.step_at in otava
    return counts


def _count(counts: Counts, scenario: Scenario, run: Incremental, finished: list) -> None:
    steps = [a.index for a in run.open(STEP)]
    counts.notified += bool(run.notified)
    counts.open_at_end += bool(run.open())
    counts.near += any(abs(i - scenario.step_at) <= 1 for i in steps)
    counts.exact += scenario.step_at in steps
    counts.early += run.early
    counts.elsewhere += any(abs(index - scenario.step_at) > 1 for _t, _s, kind, index in run.notified if kind == STEP)
    counts.drift += bool(run.open(DRIFT)) and not steps
    counts.step_notified += any(kind == STEP for _t, _s, kind, _i in run.notified)
    counts.notifications += len(run.notified)
    finished_steps = [c.index for c in finished if c.kind == STEP]
    counts.finished_any += bool(finished)
    counts.finished_near += any(abs(i - scenario.step_at) <= 1 for i in finished_steps)
    counts.finished_exact += scenario.step_at in finished_steps
    counts.finished_drift += any(c.kind == DRIFT for c in finished) and not finished_steps


def scenarios() -> list[tuple[str, Scenario, int | None]]:
    """(label, scenario, versions after the step by which an alert must stand at it, if asked)."""
    rows: list[tuple[str, Scenario, int | None]] = []
    for kind in (GAUSSIAN, STUDENT, OUTLIERS):
        rows.append((f"no change; {kind}", Scenario(kind=kind), None))
    rows.append(("no change; Gaussian, 2 replicates", Scenario(replicates=2), None))
    rows.append(("no change; Gaussian, 1 run a version", Scenario(replicates=1), None))
    for kind in (GAUSSIAN, STUDENT, OUTLIERS):
        rows.append((f"5 % step at version 15; {kind}", Scenario(kind=kind, step=0.05), None))
    rows.append(("10 % step at version 15; Gaussian", Scenario(step=0.10), None))
    rows.append(("10 % step at version 2, 2 versions before; Gaussian", Scenario(step=0.10, step_at=2), 1))
    rows.append(("10 % step at version 2; Gaussian, 2 replicates", Scenario(step=0.10, step_at=2, replicates=2), 1))
    rows.append(("5 % step at version 27, 3 after it; Gaussian", Scenario(step=0.05, step_at=27), None))
    rows.append(("drift of -0.2 % a version; Gaussian", Scenario(drift=0.002), None))
    return rows


HEAD = (
    f"{'history (30 versions x 3 runs, 3 % noise)':<54} {'notified':>9} {'open':>6} {'±1':>6} {'exact':>6}"
    f" {'early':>6} {'else':>6} {'drift':>6} {'sent':>5} | {'any':>6} {'±1':>6} {'exact':>6} {'drift':>6}"
    f" | {'Otava':>6} {'±1':>6} {'exact':>6}"
)


def line(label: str, counts: Counts, seeds: int, *, early: bool) -> str:
    def pct(count: int) -> str:
        return f"{100 * count / seeds:5.1f}%"

    return (
        f"{label:<54} {pct(counts.notified):>9} {pct(counts.open_at_end):>6} {pct(counts.near):>6}"
        f" {pct(counts.exact):>6} {pct(counts.early) if early else '–':>6} {pct(counts.elsewhere):>6}"
        f" {pct(counts.drift):>6} {counts.notifications / seeds:5.2f} | {pct(counts.finished_any):>6}"
        f" {pct(counts.finished_near):>6} {pct(counts.finished_exact):>6} {pct(counts.finished_drift):>6}"
        f" | {pct(counts.otava_any):>6} {pct(counts.otava_near):>6} {pct(counts.otava_exact):>6}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=300)
    seeds = parser.parse_args().seeds
    print(f"{seeds} histories a row. As stored, detection after every version: notified = any alert ever sent,")
    print("open = an alert open at the end, ±1 / exact = an open step alert within one version of the step /")
    print("at it, early = at the step once it and one more version were stored, else = a step alert ever sent")
    print("more than one version away, drift = an open drift alert and no open step, sent = notifications a")
    print("history. | Finished histories judged once: any change, a step at ±1 / exactly, a drift and no step.")
    print("| Otava's method (tests/otava_method.py) on the same finished histories: any change, at ±1, exactly.")
    print(HEAD)
    started = time.perf_counter()
    for label, scenario, early_after in scenarios():
        counts = evaluate(scenario, seeds, early_after=early_after)
        print(line(label, counts, seeds, early=early_after is not None), flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")
    long = Scenario(versions=200, replicates=5, step=0.05, step_at=120).history(0)
    started = time.perf_counter()
    found = changes(long)
    took_ms = (time.perf_counter() - started) * 1000
    starts = [(change.kind, change.index) for change in found]
    print(f"200 versions x 5 replicates (a 5 % step at version 120): {took_ms:.0f} ms, changes at {starts}")


if __name__ == "__main__":
    main()
