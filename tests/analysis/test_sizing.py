"""Per-drive figures, Jetstress sizing and the ORION summary (seed 001_22c77edb183857dc.txt, ESG Lab on the DS5020)."""

import pytest

from portal.analysis.sizing import (
    EXCHANGE_IOPS_PER_DRIVE,
    ORACLE_DSS_MBPS_PER_DRIVE,
    ORACLE_OLTP_IOPS_PER_DRIVE,
    per_drive,
)
from portal.tools.jetstress.sizing import jetstress_sizing
from portal.tools.orion.summary import OrionPoint, oracle_sizing_class, orion_summary


def test_jetstress_iops_per_drive_against_the_exchange_guideline():
    # Seed 001, Microsoft Exchange "What the Numbers Mean": "4,127 IOPS over 32 database drives,
    # delivered 129 IOPS per drive, well above the conservative IBM guideline of 100 IOPS per drive".
    result = per_drive(4127, 32, guideline=EXCHANGE_IOPS_PER_DRIVE)
    assert round(result.per_drive) == 129
    assert round(result.ratio, 2) == 1.29
    assert result.meets_guideline is True


def test_orion_small_iops_per_drive_against_the_oracle_guideline():
    # Seed 001, Oracle Orion "What the Numbers Mean": 3,580 small IOPS, "224 small IOPS per drive",
    # against "30 IOPS per disk for OLTP"; the four Oracle volumes are four-drive RAID-10 (Drive Layout).
    result = per_drive(3580, 16, guideline=ORACLE_OLTP_IOPS_PER_DRIVE)
    assert round(result.per_drive) == 224
    assert result.meets_guideline is True


def test_large_mbps_per_drive_against_the_dss_guideline():
    # Seed 001: 468 large MB/s over the same 16 drives, against "20 MB/sec per disk in DSS".
    result = per_drive(468, 16, guideline=ORACLE_DSS_MBPS_PER_DRIVE)
    assert result.per_drive == pytest.approx(29.25)
    assert result.meets_guideline is True
    assert per_drive(300, 16, guideline=ORACLE_DSS_MBPS_PER_DRIVE).meets_guideline is False


def test_per_drive_without_a_guideline():
    result = per_drive(1000, 4)
    assert (result.per_drive, result.ratio, result.meets_guideline) == (250, None, None)
    with pytest.raises(ValueError, match="drive count must be positive"):
        per_drive(1000, 0)


def test_jetstress_mailboxes_at_half_an_iops_each():
    # Seed 001: the four tile test's 4,127 IOPS at a 0.5 IOPS user profile: "8,254 users".
    assert jetstress_sizing(achieved_iops=4127).mailboxes == 8254


def test_jetstress_appendix_report_passes():
    # Seed 001 appendix report: Achieved I/O per Second 1101.114; Database (E:) Avg. Disk sec/Read
    # 0.015 (15 ms); "Volume F: has 0.0004 for Avg. Disk sec/Write" (0.4 ms log writes); Overall Test Result Pass.
    result = jetstress_sizing(achieved_iops=1101.114, db_read_ms=15.0, log_write_ms=0.4)
    assert result.mailboxes == 2202
    assert (result.db_read_pass, result.log_write_pass, result.passed) == (True, True, True)
    assert (result.db_read_goal_ms, result.log_write_goal_ms) == (20.0, 5.0)


def test_jetstress_fails_on_either_goal():
    assert jetstress_sizing(achieved_iops=1000, db_read_ms=21, log_write_ms=1).passed is False
    slow_log = jetstress_sizing(achieved_iops=1000, db_read_ms=15, log_write_ms=6)
    assert (slow_log.log_write_pass, slow_log.passed) == (False, False)
    assert jetstress_sizing(achieved_iops=1000, db_read_ms=15, log_write_ms=6, log_write_goal_ms=10).passed is True


def test_jetstress_verdict_is_unknown_without_latencies():
    result = jetstress_sizing(achieved_iops=1000, db_read_ms=15)
    assert (result.db_read_pass, result.log_write_pass, result.passed) == (True, None, None)
    assert jetstress_sizing(achieved_iops=1000, db_read_ms=25).passed is False


def test_mailboxes_are_whole_and_the_profile_is_configurable():
    assert jetstress_sizing(achieved_iops=1000.9).mailboxes == 2001
    assert jetstress_sizing(achieved_iops=1000, iops_per_mailbox=0.3).mailboxes == 3333
    with pytest.raises(ValueError, match="IOPS per mailbox must be positive"):
        jetstress_sizing(achieved_iops=1000, iops_per_mailbox=0)


def test_orion_summary_finds_the_three_figures_and_where_they_were_measured():
    # Seed 001 appendix ORION summary: "Maximum Large MBPS=108.27 @ Small=0 and Large=9",
    # "Maximum Small IOPS=882 @ Small=25 and Large=0", "Minimum Small Latency=5.42 @ Small=1 and Large=0".
    # The other matrix cells are made up around them.
    matrix = [
        OrionPoint(0, 1, large_mbps=40.5),
        OrionPoint(0, 9, large_mbps=108.27),
        OrionPoint(0, 10, large_mbps=107.9),
        OrionPoint(1, 0, small_iops=180, small_latency_ms=5.42),
        OrionPoint(5, 0, small_iops=610, small_latency_ms=8.2),
        OrionPoint(25, 0, small_iops=882, small_latency_ms=28.3),
        OrionPoint(25, 5, small_iops=700, large_mbps=60.0, small_latency_ms=35.7),
    ]
    summary = orion_summary(matrix)
    assert (summary.max_large_mbps.value, summary.max_large_mbps.small_outstanding) == (108.27, 0)
    assert summary.max_large_mbps.large_outstanding == 9
    assert (summary.max_small_iops.value, summary.max_small_iops.small_outstanding) == (882, 25)
    assert (summary.min_small_latency_ms.value, summary.min_small_latency_ms.small_outstanding) == (5.42, 1)
    assert summary.sizing_class.name == "below low"


def test_orion_summary_ignores_latency_where_no_small_io_was_outstanding():
    summary = orion_summary(
        [OrionPoint(0, 2, large_mbps=50, small_latency_ms=0.0), OrionPoint(2, 0, small_latency_ms=6.0)]
    )
    assert summary.min_small_latency_ms.value == 6.0
    assert summary.max_small_iops is None
    assert summary.sizing_class is None


def test_oracle_sizing_class_of_the_ds5020():
    # Seed 001: 3,580 small IOPS is "significantly higher than a typical low transaction system and
    # nearly represents a medium transaction system" (low 1,000, medium 5,000, high-end 10,000 IOPS).
    sizing = oracle_sizing_class(3580)
    assert (sizing.name, sizing.next_name, sizing.next_iops) == ("low", "medium", 5000)


@pytest.mark.parametrize(
    ("iops", "name", "next_name"),
    [(999, "below low", "low"), (1000, "low", "medium"), (5000, "medium", "high"), (10_000, "high", None)],
)
def test_oracle_sizing_class_boundaries(iops, name, next_name):
    sizing = oracle_sizing_class(iops)
    assert (sizing.name, sizing.next_name) == (name, next_name)
