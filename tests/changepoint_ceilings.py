"""``python -m tests.changepoint_ceilings [--seeds N] [--first SEED]``: what ``make changepoints``' Gaussian
histories (30 versions x 3 runs, 3 % noise) can tell whatever the detector, from oracles that know more than
it does: the noise (30 IOPS a run), and that a history holds one 5 % step at version 15 or one drift of
-0.2 % a version.

- Where the step starts: the split of the version means that leaves the least squared error (the best a
  detector can do that knows there is one step), and the same knowing both levels (1,000 and 950 IOPS).
- Step or drift: a history is called a step when a line through it leaves more than ``t`` (noise variance
  units) more squared error than its best split, a drift otherwise; for each ``t``, the steps called steps
  at their version or next to it and the drifts called drifts.
"""

import argparse
from statistics import fmean

from tests.changepoints import Scenario

RUN_NOISE = 30.0
STEP, STEP_AT, DRIFT = 0.05, 15, 0.002
THRESHOLDS = (3.0, 4.0, 4.5, 5.0, 6.0)


def _means(history: list[list[float]]) -> list[float]:
    """Version means in units of their own noise (a run's over the square root of the runs)."""
    return [fmean(values) / (RUN_NOISE / len(values) ** 0.5) for values in history]


def _squares(values: list[float]) -> float:
    centre = fmean(values)
    return sum((value - centre) ** 2 for value in values)


def best_split(means: list[float]) -> tuple[int, float]:
    """The version a step starts at that leaves the least squared error (two versions a side at least)."""
    return min(((k, _squares(means[:k]) + _squares(means[k:])) for k in range(2, len(means) - 1)), key=lambda s: s[1])


def known_levels_split(means: list[float], before: float, after: float) -> int:
    return min(
        range(1, len(means)),
        key=lambda k: sum((m - before) ** 2 for m in means[:k]) + sum((m - after) ** 2 for m in means[k:]),
    )


def line_error(means: list[float]) -> float:
    xs = range(len(means))
    x_mean, m_mean = fmean(xs), fmean(means)
    sxx = sum((x - x_mean) ** 2 for x in xs)
    sxm = sum((x - x_mean) * (m - m_mean) for x, m in zip(xs, means, strict=True))
    return _squares(means) - sxm * sxm / sxx


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.seeds)
    unit = RUN_NOISE / 3**0.5
    placed, known, margins, drift_margins = [], [], [], []
    for seed in seeds:
        means = _means(Scenario(step=STEP, step_at=STEP_AT).history(seed))
        split, error = best_split(means)
        placed.append(split)
        known.append(known_levels_split(means, 1000 / unit, 1000 * (1 - STEP) / unit))
        margins.append((line_error(means) - error, split))
        drift = _means(Scenario(drift=DRIFT).history(seed))
        drift_margins.append(line_error(drift) - best_split(drift)[1])

    def pct(count: int) -> str:
        return f"{100 * count / len(seeds):.1f} %"

    print(f"seeds {args.first} to {args.first + args.seeds - 1}: a 5 % step at version 15 placed")
    for label, found in (("by the best split", placed), ("knowing both levels", known)):
        exact, near = sum(i == STEP_AT for i in found), sum(abs(i - STEP_AT) <= 1 for i in found)
        print(f"  {label:<20} exactly {pct(exact)}, within one version {pct(near)}")
    print("step or drift by a line's extra squared error over the best split, threshold t:")
    for t in THRESHOLDS:
        steps = sum(margin > t and abs(split - STEP_AT) <= 1 for margin, split in margins)
        drifts = sum(margin <= t for margin in drift_margins)
        print(f"  t = {t:3.1f}: steps called steps within one version {pct(steps)}, drifts called drifts {pct(drifts)}")


if __name__ == "__main__":
    main()
