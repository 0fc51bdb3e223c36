"""The error of "how many drives for this throughput?", measured that way round on the sweep."""

import pytest

from portal.analysis.drive_scaling import DriveCountFigure
from portal.analysis.drives_error import drives_left_out


def sweep(*pairs):
    return [DriveCountFigure(n, t) for n, t in pairs]


def test_a_sweep_proportional_to_drives_gives_back_each_left_out_count():
    # 150 IOPS a drive from 10 to 50 drives: 4,500 IOPS take 30 drives, from the others alone.
    error = drives_left_out(sweep((10, 1500), (20, 3000), (30, 4500), (40, 6000), (50, 7500)))
    assert [x.drive_count for x in error.left_out] == [20, 30, 40]
    for x in error.left_out:
        assert x.predicted == pytest.approx(x.drive_count, rel=1e-6)
    assert error.worst_pct == pytest.approx(0, abs=1e-4)


def test_counts_where_the_sweep_has_levelled_off_are_not_asked():
    # 100 and 140 drives: under 5 % more than the count before, or the count after under 5 % more.
    error = drives_left_out(sweep((20, 3000), (60, 8880), (100, 14320), (140, 15025), (180, 15040)))
    assert [x.drive_count for x in error.left_out] == [60]


def test_a_sweep_with_no_rising_interior_count_has_no_error():
    error = drives_left_out(sweep((20, 3000), (60, 3010), (100, 3020)))
    assert error.left_out == ()
    assert error.median_pct is None and error.worst_pct is None


def test_a_count_that_gains_under_half_its_throughput_per_drive_is_not_clearly_rising():
    # Seed 000 (000_f52f16ce4c762121.txt) Table 7, RAID-10 File Server, all caches disabled: 52, 155, 173, 188,
    # 189 MB/s at 20 to 180 drives. 60 drives gained (155 - 52) / 40 = 2.575 MB/s a drive against 155 / 60 =
    # 2.58 a drive of its own; 100 drives gained (173 - 155) / 40 = 0.45 against 1.73 a drive, a share of 0.26.
    error = drives_left_out(sweep((20, 52), (60, 155), (100, 173), (140, 188), (180, 189)))
    assert [x.drive_count for x in error.left_out] == [60, 100]
    assert [x.gain for x in error.left_out] == pytest.approx([2.575 / (155 / 60), 0.45 / 1.73])
    assert [x.clearly_rising for x in error.left_out] == [True, False]
