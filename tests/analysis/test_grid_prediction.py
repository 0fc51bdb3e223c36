"""Predicting untested combinations of two load parameters from the sweeps through a focal point
(seed 003's product of ratios; total outstanding I/O on fio-plot's iodepth x numjobs grids)."""

import pytest

from ingest import parse_paths
from portal.analysis.grid_prediction import (
    Model,
    default_focal,
    little_response_ms,
    percentile,
    predict_grid,
    quarter_up,
)
from portal.analysis.prediction_bands import Kind
from tests.samples import sample

DEPTHS = (1, 2, 4, 8, 16, 32)


def grid(throughput):
    return {(d, j): throughput(d, j) for d in DEPTHS for j in DEPTHS}


def sweeps(cells, focal=(8, 8)):
    return {c: v for c, v in cells.items() if c[0] == focal[0] or c[1] == focal[1]}


def test_a_separable_grid_is_predicted_by_the_product_of_ratios():
    # Throughput that is one factor of the first parameter times one of the second (parameters that are not
    # queue depth and jobs: no total outstanding I/O).
    cells = grid(lambda d, j: (100 + 10 * d) * (3 + j**0.5))
    result = predict_grid(cells, focal=(8, 8), outstanding=False)
    assert result.model is Model.PRODUCT
    assert len(result.cells) == 25
    for cell in result.cells:
        assert cell.predicted == pytest.approx(cell.measured, rel=1e-9)
    assert result.checked_on == "25 measured cells off the two sweeps"


def test_a_device_bound_by_outstanding_io_is_predicted_by_its_total():
    # Throughput of total outstanding I/O alone, saturating at 50,000 IOPS.
    cells = grid(lambda d, j: 50_000 * d * j / (d * j + 20))
    product = predict_grid(sweeps(cells), focal=(8, 8), outstanding=False, known=cells)
    chosen = predict_grid(sweeps(cells), focal=(8, 8), outstanding=True, known=cells)
    assert product.model is Model.PRODUCT
    assert chosen.model is Model.OUTSTANDING
    # 32 x 32 = 1,024 outstanding: past the largest total measured (256), read flat at 256's figure.
    corner = next(c for c in chosen.cells if (c.x1, c.x2) == (32, 32))
    assert corner.predicted == pytest.approx(50_000 * 256 / 276)
    # 2 x 4 = 8 outstanding was measured on the sweeps (1 x 8 and 8 x 1): the cell reads it exactly.
    eight = next(c for c in chosen.cells if (c.x1, c.x2) == (2, 4))
    assert eight.predicted == pytest.approx(eight.measured)
    chosen_errors = [c.error_pct for c in chosen.cells]
    product_errors = [c.error_pct for c in product.cells]
    assert percentile(chosen_errors, 50) < 5 < percentile(product_errors, 50)


def test_each_cell_says_whether_its_total_outstanding_io_lies_within_the_sweeps():
    # The sweeps through (8, 8) span 8 x 1 = 8 to 8 x 32 = 256 outstanding I/Os.
    cells = grid(lambda d, j: 50_000 * d * j / (d * j + 20))
    result = predict_grid(sweeps(cells), focal=(8, 8), outstanding=True)
    assert result.model is Model.OUTSTANDING
    assert result.outstanding_range == (8, 256)
    assert result.checked_on == "no measured cell off the two sweeps"
    assert result.median_error_pct is None
    by_cell = {(c.x1, c.x2): (c.kind, c.beyond_factor) for c in result.cells}
    assert by_cell[(1, 1)] == (Kind.BELOW, 8)
    assert by_cell[(2, 2)] == (Kind.BELOW, 2)
    assert by_cell[(2, 4)] == (Kind.INTERPOLATED, 1)
    assert by_cell[(16, 16)] == (Kind.INTERPOLATED, 1)
    assert by_cell[(32, 32)] == (Kind.ABOVE, 4)
    assert [kind for kind, _ in by_cell.values()].count(Kind.BELOW) == 6  # 1x1, 1x2, 1x4, 2x1, 2x2, 4x1


def test_the_focal_point_must_be_measured():
    cells = grid(lambda d, j: d * j)
    del cells[(8, 8)]
    with pytest.raises(ValueError, match=r"focal point \(8, 8\) was not measured"):
        predict_grid(cells, focal=(8, 8), outstanding=True)


def test_a_real_grid_the_samsung_860_pro_on_sata_300():
    # MANIFEST: every cell within 4 % of the plateau (~50.3k randwrite IOPS) except iodepth x numjobs <= 2.
    paths = sorted(sample("fio-grids", "fioplot_HPMICROSERVERG8-SATA300-SAMSUNG860PRO").glob("randwrite-*.json"))
    [result] = parse_paths(paths)
    cells = {}
    for point in result["runs"][0]["points"]:
        jobs = point["load"]["threads"]
        cells[(point["load"]["outstanding_io"] // jobs, jobs)] = point["iops"]
    assert len(cells) == 49
    prediction = predict_grid(sweeps(cells), focal=(8, 8), outstanding=True, known=cells)
    assert prediction.model is Model.OUTSTANDING
    corner = next(c for c in prediction.cells if (c.x1, c.x2) == (64, 64))
    assert corner.measured == pytest.approx(50_300, rel=0.04)
    assert corner.error_pct < 1
    assert percentile([c.error_pct for c in prediction.cells], 90) < 1


def test_little_law_response_time():
    # 64 outstanding I/Os at 50,000 IOPS wait 1.28 ms on average.
    assert little_response_ms(outstanding_ios=64, iops=50_000) == pytest.approx(1.28)


def test_where_jobs_and_queue_depth_are_not_interchangeable_the_cell_reads_both_sweeps_by_its_share_of_jobs():
    # HGST 7,200 rpm drive, randwrite: 180 IOPS at queue depth 8 with 1 job but 257 with 1 x 8 jobs. Through
    # (8, 8), 2 x 4 (8 outstanding I/Os, two thirds of them from jobs in log terms: log 4 / (log 2 + log 4))
    # reads the jobs sweep at 8 (8 x 1: 180) with weight 2/3 and the queue depth sweep at 8 (1 x 8: 257) with
    # 1/3, in log terms.
    paths = sorted(sample("fio-grids", "fioplot_HPDL380G8-H420i-HGST_100GB7K").glob("randwrite-*.json"))
    [result] = parse_paths(paths)
    cells = {}
    for point in result["runs"][0]["points"]:
        jobs = point["load"]["threads"]
        cells[(point["load"]["outstanding_io"] // jobs, jobs)] = point["iops"]
    assert round(cells[(8, 1)]) == 180 and round(cells[(1, 8)]) == 257
    prediction = predict_grid(sweeps(cells), focal=(8, 8), outstanding=True, known=cells)
    assert prediction.model is Model.OUTSTANDING
    two_by_four = next(c for c in prediction.cells if (c.x1, c.x2) == (2, 4))
    assert two_by_four.predicted == pytest.approx(cells[(8, 1)] ** (2 / 3) * cells[(1, 8)] ** (1 / 3))
    assert two_by_four.kind is Kind.INTERPOLATED


def test_the_focal_point_is_a_quarter_of_the_way_up_each_axis():
    assert quarter_up([1, 2, 4, 8, 16, 32, 64]) == 2
    assert quarter_up([64, 1, 4, 16, 1]) == 4  # each value once: 1, 4, 16, 64; index 4 // 4 = 1
    assert quarter_up([1, 2, 4]) == 1
    assert default_focal(grid(lambda d, j: d * j)) == (2, 2)


def test_on_a_partial_grid_the_focal_point_is_where_the_row_and_column_are_fullest():
    # Only the row and column through (8, 8) measured, and one cell off them: (2, 2) has a row and column of
    # one cell each, (8, 8) of six each.
    cells = {**sweeps(grid(lambda d, j: d * j)), (2, 2): 4}
    assert default_focal(cells) == (8, 8)
    # Two full rows and columns (through 4 and through 8): the one nearer a quarter of the way up.
    cells = {(d, j): 1 for d in DEPTHS for j in DEPTHS if 4 in (d, j) or 8 in (d, j)}
    assert default_focal(cells) == (4, 4)


def test_below_the_sweeps_throughput_follows_a_closed_queue_through_their_two_lowest_totals():
    # X(n) = 50,000 n / (n + 20): the sweeps through (8, 8) start at 8 and 16 outstanding I/Os; the closed
    # queue through those two is the same curve, so 1 x 1 reads 50,000 / 21.
    cells = grid(lambda d, j: 50_000 * d * j / (d * j + 20))
    by_cell = {(c.x1, c.x2): c for c in predict_grid(sweeps(cells), focal=(8, 8), outstanding=True).cells}
    assert by_cell[(1, 1)].predicted == pytest.approx(50_000 / 21)
    assert by_cell[(2, 2)].predicted == pytest.approx(50_000 * 4 / 24)
    # Rising in proportion to the load (or faster): held at the lowest total's latency, 8 / 800 IOPS = 10 ms.
    linear = predict_grid(sweeps(grid(lambda d, j: 100 * d * j)), focal=(8, 8), outstanding=True).cells
    assert next(c for c in linear if (c.x1, c.x2) == (1, 1)).predicted == pytest.approx(100)
    # Falling from 8 to 16 outstanding I/Os: held at the figure at 8, never raised.
    falling = predict_grid(sweeps(grid(lambda d, j: 1_000 / d / j)), focal=(8, 8), outstanding=True).cells
    assert next(c for c in falling if (c.x1, c.x2) == (1, 1)).predicted == pytest.approx(1_000 / 8)


def test_parameters_that_add_are_predicted_by_the_sum_of_differences():
    # Writes cost 2,000 IOPS at every outstanding I/O: 10,000 + 1,000 x n at 100 % reads, 2,000 fewer at 0 %.
    cells = {
        (float(n), pct): 10_000 + 1_000 * n - (0 if pct == 100 else 2_000) for n in (1, 2, 4, 8) for pct in (0, 100)
    }
    prediction = predict_grid(cells, focal=(4, 100), outstanding=False)
    assert prediction.model is Model.SUM
    assert {(c.x1, c.x2): c.predicted for c in prediction.cells} == {(1, 0): 9_000, (2, 0): 10_000, (8, 0): 16_000}
    assert prediction.median_error_pct == 0
