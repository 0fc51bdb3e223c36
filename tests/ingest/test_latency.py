"""The mean response time of several workers, targets, jobs or directions: each weighted by its IOPS."""

from pathlib import Path

import pytest

from ingest.latency import iops_weighted_ms


def test_a_single_part_is_its_own_mean():
    assert iops_weighted_ms([(2.5, 400.0)]) == 2.5


def test_parts_are_weighted_by_their_iops():
    # (1 ms x 100 + 4 ms x 300) / 400 IOPS = 1300 / 400 = 3.25 ms; an unweighted mean would say 2.5.
    assert iops_weighted_ms([(1.0, 100.0), (4.0, 300.0)]) == pytest.approx(3.25)
    # Three parts: (0.5 x 1000 + 2 x 500 + 10 x 100) / 1600 = 2500 / 1600 = 1.5625 ms.
    assert iops_weighted_ms([(0.5, 1000), (2.0, 500), (10.0, 100)]) == pytest.approx(1.5625)


def test_a_part_without_io_or_without_a_mean_does_not_count():
    # A target that did no I/O reports a mean of 0 ms (or none): it would pull the mean down.
    assert iops_weighted_ms([(3.0, 200.0), (0.0, 0.0)]) == 3.0
    assert iops_weighted_ms([(3.0, 200.0), (9.0, None)]) == 3.0
    assert iops_weighted_ms([(None, 500.0), (6.0, 100.0)]) == 6.0


def test_no_io_at_all_has_no_mean():
    assert iops_weighted_ms([(1.0, 0.0), (2.0, 0)]) is None
    assert iops_weighted_ms([(None, 100.0)]) is None
    assert iops_weighted_ms([]) is None


def test_parts_may_be_given_as_a_generator():
    rows = [{"ms": 2.0, "iops": 50.0}, {"ms": 8.0, "iops": 150.0}]
    # (2 x 50 + 8 x 150) / 200 = 1300 / 200 = 6.5 ms.
    assert iops_weighted_ms((row["ms"], row["iops"]) for row in rows) == pytest.approx(6.5)


def test_fio_leaves_a_direction_without_a_latency_out_of_the_mean(tmp_path):
    from ingest import parse_paths

    oltp = Path(__file__).parent / "data" / "fio" / "oltp_randrw_jsonplus.json"
    lines = oltp.read_text().splitlines(keepends=True)
    # Line 65 is the write direction's lat_ns (mean 10 ms, 750 IOPS); the reads' is 4 ms at 1750 IOPS.
    assert '"lat_ns"' in lines[64] and '"mean" : 10000000.000000' in lines[64]
    copy = tmp_path / "oltp_no_write_latency.json"
    copy.write_text("".join(lines[:64] + lines[65:]))
    point = parse_paths([copy])[0]["runs"][0]["points"][0]
    assert (point["read_iops"], point["write_iops"]) == (1750.0, 750.0)
    assert point["avg_write_response_ms"] is None
    # The writes' latency is unknown, not 0 ms: the mean is the reads' 4 ms, not 4 x 1750 / 2500 = 2.8 ms.
    assert point["avg_response_ms"] == pytest.approx(4.0)
