"""One spelling per RAID level and cache setting, whatever people, profiles and papers write."""

import pytest

from portal.analysis.vocabulary import cache_flags, cache_setting_name, raid_level_canonical


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("RAID 5", "RAID-5"),
        ("RAID-5", "RAID-5"),
        ("raid5", "RAID-5"),
        ("5", "RAID-5"),
        (5, "RAID-5"),
        ("RAID 1+0", "RAID-10"),
        ("RAID10", "RAID-10"),
        ("Vraid1", "RAID-1"),  # HP EVA's name for RAID 1 (seed 002)
        ("raid-1e", "RAID-1E"),
        ("RAID 6", "RAID-6"),
        ("raid 60", "RAID-60"),
        ("Disk Pool", "DDP"),
        ("DDP", "DDP"),
        ("jbod", "JBOD"),
        ("RAID-DP", "RAID-DP"),
        ("  ", ""),
        (None, ""),
        ("Vendor  Special  7", "Vendor Special 7"),  # unknown: kept as written, spaces tidied
    ],
)
def test_every_spelling_of_a_level_is_one_level(written, canonical):
    assert raid_level_canonical(written) == canonical


def test_the_papers_cache_settings_are_flags_and_back():
    # 000_f52f16ce4c762121.txt Table 1 rows: "All Caches Disabled" and "Write Cache Enabled".
    assert cache_flags("All Caches Disabled") == (False, False)
    assert cache_flags("write cache  enabled") == (None, True)
    assert cache_flags("read-ahead multiplier of 8 (prefetch x8)") is None
    assert cache_setting_name(read_cache=False, write_cache=False) == "All Caches Disabled"
    assert cache_setting_name(read_cache=None, write_cache=True) == "Write Cache Enabled"
    assert cache_setting_name(read_cache=True, write_cache=True) == "Read and Write Cache Enabled"
    assert cache_setting_name(read_cache=None, write_cache=None) == ""
