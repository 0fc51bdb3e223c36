"""``python -m tests.changepoints``: the change-point detector's figures on simulated firmware histories.

Each history has ``versions`` firmware versions with ``replicates`` runs each; every run's throughput is
1,000 IOPS times (1 + step where the step applies) times (1 + Gaussian noise of ``noise`` relative
standard deviation). Seeds 0 to ``seeds - 1`` make the runs the same every time.
"""

import argparse
import random
import time
from dataclasses import dataclass

from portal.analysis.changepoints import changes


@dataclass(frozen=True)
class Scenario:
    versions: int = 30
    replicates: int = 3
    noise: float = 0.03
    step: float = 0.0
    step_at: int = 15

    def history(self, seed: int) -> list[list[float]]:
        rnd = random.Random(seed)
        return [
            [1000 * (1 + (self.step if version >= self.step_at else 0)) * (1 + rnd.gauss(0, self.noise))
             for _ in range(self.replicates)]
            for version in range(self.versions)
        ]  # fmt: skip


@dataclass(frozen=True)
class Figures:
    any_alert_pct: float
    found_pct: float
    exact_pct: float


def evaluate(scenario: Scenario, seeds: int) -> Figures:
    """How many histories raise any alert, one at the step's version or within one version of it, and
    one at exactly its version (all in % of ``seeds`` histories)."""
    any_alert = found = exact = 0
    for seed in range(seeds):
        starts = {change.index for change in changes(scenario.history(seed))}
        any_alert += bool(starts)
        found += any(abs(start - scenario.step_at) <= 1 for start in starts)
        exact += scenario.step_at in starts
    return Figures(*(100 * count / seeds for count in (any_alert, found, exact)))


def scenarios() -> list[tuple[str, Scenario]]:
    rows = []
    for noise, replicates in ((0.03, 3), (0.03, 2), (0.05, 3)):
        base = Scenario(replicates=replicates, noise=noise)
        label = f"{replicates} replicates, {noise:.0%} noise"
        rows.append((f"no change; {label}", base))
        for step in (0.05, 0.10):
            rows.append(
                (f"{step:.0%} step in the middle; {label}", Scenario(replicates=replicates, noise=noise, step=-step))
            )
            rows.append(
                (f"{step:.0%} step, 3 versions after it; {label}",
                 Scenario(replicates=replicates, noise=noise, step=-step, step_at=27))
            )  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=300)
    seeds = parser.parse_args().seeds
    print(f"30 firmware versions, {seeds} histories each; p = 0.001, at least 3 versions per segment")
    print(f"{'history':<52} {'any alert':>10} {'found':>8} {'exact':>8}")
    started = time.perf_counter()
    for label, scenario in scenarios():
        figures = evaluate(scenario, seeds)
        print(f"{label:<52} {figures.any_alert_pct:>9.1f}% {figures.found_pct:>7.1f}% {figures.exact_pct:>7.1f}%")
    print(f"({time.perf_counter() - started:.1f} s)")
    long = Scenario(versions=200, replicates=5, noise=0.03, step=-0.05, step_at=120).history(0)
    started = time.perf_counter()
    found = changes(long)
    took_ms = (time.perf_counter() - started) * 1000
    starts = [change.index for change in found]
    print(f"200 versions x 5 replicates (a 5 % step at version 120): {took_ms:.0f} ms, changes at {starts}")


if __name__ == "__main__":
    main()
