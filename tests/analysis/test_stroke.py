"""Disk-stroke multipliers and the paper's estimator (seed 000_f52f16ce4c762121.txt, Tables 1, 2 and 6)."""

import pytest

from portal.analysis.stroke import StrokeRun, estimate_throughput, stroke_multipliers

# Seed 000 Table 2: RAID-5 OLTP 4K, 8K and 16K multipliers at 15 % ... 90 % stroke.
TABLE_2 = {15: 0.88, 30: 0.80, 45: 0.74, 60: 0.72, 75: 0.66, 90: 0.65}
# Seed 000 Table 6: RAID-10 OLTP 4K, 8K and 16K.
TABLE_6 = {15: 0.95, 30: 0.82, 45: 0.80, 60: 0.72, 75: 0.72, 90: 0.67}
# Seed 000 Table 1: RAID-5 OLTP 8K, 100 drives, all caches disabled, 8 % stroke.
OLTP_8K_100_DRIVES = 14_320


def synthetic_runs(baseline, multipliers):
    return [StrokeRun(8, baseline)] + [StrokeRun(stroke, baseline * m) for stroke, m in multipliers.items()]


@pytest.mark.parametrize("table", [TABLE_2, TABLE_6])
def test_multipliers_built_from_runs_give_back_the_multipliers_that_produced_them(table):
    result = stroke_multipliers(synthetic_runs(OLTP_8K_100_DRIVES, table))
    assert result.baseline_pct == 8
    assert result.baseline_throughput == OLTP_8K_100_DRIVES
    assert result.strokes_pct == (15, 30, 45, 60, 75, 90)
    for stroke, multiplier in table.items():
        assert result.multiplier_at(stroke) == pytest.approx(multiplier, rel=1e-12)
    assert result.multiplier_at(8) == 1.0


def test_runs_in_any_order_come_out_in_stroke_order():
    runs = list(reversed(synthetic_runs(1000, TABLE_2)))
    assert stroke_multipliers(runs).strokes_pct == (15, 30, 45, 60, 75, 90)


def test_the_paper_estimate_at_45_percent_stroke():
    # Seed 000, text under Table 2: 14,320 I/Os x 0.74 "equals 10,595 I/Os"; the product is 10,596.8.
    assert round(estimate_throughput(OLTP_8K_100_DRIVES, 0.74)) == 10_597
    result = stroke_multipliers(synthetic_runs(OLTP_8K_100_DRIVES, TABLE_2))
    assert round(estimate_throughput(OLTP_8K_100_DRIVES, result.multiplier_at(45))) == 10_597


def test_the_baseline_is_configurable():
    result = stroke_multipliers([StrokeRun(15, 800), StrokeRun(45, 600)], baseline_pct=15)
    assert result.multipliers == ((45, 0.75),)


def test_a_missing_baseline_says_which_strokes_were_found():
    with pytest.raises(ValueError, match=r"no run at the 8 % baseline stroke \(strokes found: 15 %, 45 %\)"):
        stroke_multipliers([StrokeRun(45, 600), StrokeRun(15, 800)])


def test_two_figures_at_one_stroke_are_refused():
    with pytest.raises(ValueError, match="two figures at 45 % stroke"):
        stroke_multipliers([StrokeRun(8, 1000), StrokeRun(45, 600), StrokeRun(45, 610)])


def test_a_zero_baseline_is_refused():
    with pytest.raises(ValueError, match="baseline throughput at 8 % stroke must be positive"):
        stroke_multipliers([StrokeRun(8, 0), StrokeRun(45, 600)])


def test_an_unknown_stroke_lists_the_known_ones():
    result = stroke_multipliers([StrokeRun(8, 1000), StrokeRun(45, 740)])
    with pytest.raises(KeyError, match="no multiplier for 50 % stroke; the table has 8 %, 45 %"):
        result.multiplier_at(50)
