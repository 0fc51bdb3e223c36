"""Which configurations and workloads of two arrays are compared with each other: no database."""

from portal.analysis.pairing import (
    ambiguities,
    compatible,
    config_key_label,
    config_key_order,
    match_workloads,
    pair_configs,
    pair_label,
    workload_key_of,
    workload_names,
    workload_title,
)

DISABLED = "All Caches Disabled"
ENABLED = "All Caches Enabled"


def test_the_same_raid_level_drive_count_and_cache_setting_pair():
    pairs, only_a, only_b = pair_configs([("RAID-5", 140, DISABLED)], [("RAID-5", 140, DISABLED)])
    assert pairs == [(("RAID-5", 140, DISABLED), ("RAID-5", 140, DISABLED))]
    assert (only_a, only_b) == ([], [])


def test_each_configuration_pairs_with_its_own_counterpart_among_several():
    a = [("RAID-10", 140, DISABLED), ("RAID-5", 140, DISABLED), ("RAID-5", 140, ENABLED)]
    b = [("RAID-5", 140, ENABLED), ("RAID-5", 140, DISABLED), ("RAID-10", 140, DISABLED)]
    pairs, only_a, only_b = pair_configs(a, b)
    assert sorted(pairs) == [
        (("RAID-10", 140, DISABLED), ("RAID-10", 140, DISABLED)),
        (("RAID-5", 140, DISABLED), ("RAID-5", 140, DISABLED)),
        (("RAID-5", 140, ENABLED), ("RAID-5", 140, ENABLED)),
    ]
    assert (only_a, only_b) == ([], [])


def test_an_unstated_cache_setting_pairs_when_only_one_configuration_could_match():
    pairs, only_a, only_b = pair_configs([("RAID-5", 56, "")], [("RAID-5", 56, ENABLED)])
    assert pairs == [(("RAID-5", 56, ""), ("RAID-5", 56, ENABLED))]
    assert (only_a, only_b) == ([], [])


def test_an_unstated_cache_setting_matching_two_configurations_is_left_unpaired_and_reported():
    b = [("RAID-5", 140, DISABLED), ("RAID-5", 140, ENABLED)]
    pairs, only_a, only_b = pair_configs([("RAID-5", 140, "")], b)
    assert pairs == []
    assert only_a == [("RAID-5", 140, "")]
    assert only_b == b
    sentences, choices = ambiguities(only_a, only_b)
    assert sentences == [
        "A's RAID-5, 140 drives could match B's 'All Caches Disabled' or 'All Caches Enabled': "
        "choose a cache setting to compare them"
    ]
    assert choices == [DISABLED, ENABLED]


def test_the_ambiguity_is_reported_from_either_side():
    sentences, choices = ambiguities([("RAID-10", 28, DISABLED), ("RAID-10", 28, ENABLED)], [("RAID-10", 28, "")])
    assert sentences == [
        "B's RAID-10, 28 drives could match A's 'All Caches Disabled' or 'All Caches Enabled': "
        "choose a cache setting to compare them"
    ]
    assert choices == [DISABLED, ENABLED]


def test_a_report_says_why_an_ambiguous_configuration_is_not_compared_without_pointing_at_the_page():
    sentences, choices = ambiguities(
        [("RAID-10", 28, DISABLED), ("RAID-10", 28, ENABLED)], [("RAID-10", 28, "")], printed=True
    )
    assert sentences == [
        "B's RAID-10, 28 drives could match A's 'All Caches Disabled' or 'All Caches Enabled': "
        "B states no cache setting for it, so it is compared with neither"
    ]
    assert choices == [DISABLED, ENABLED]


def test_lone_arrays_of_different_sizes_at_one_raid_level_are_compared_at_their_best():
    pairs, only_a, only_b = pair_configs([("RAID-5", 140, DISABLED)], [("RAID-5", 112, DISABLED)])
    assert pairs == [(("RAID-5", 140, DISABLED), ("RAID-5", 112, DISABLED))]
    assert (only_a, only_b) == ([], [])


def test_two_sizes_on_each_side_without_an_equal_one_are_not_guessed():
    a = [("RAID-5", 56, DISABLED), ("RAID-5", 112, DISABLED)]
    b = [("RAID-5", 28, DISABLED), ("RAID-5", 140, DISABLED)]
    pairs, only_a, only_b = pair_configs(a, b)
    assert pairs == []
    assert (only_a, only_b) == (a, b)
    assert ambiguities(only_a, only_b) == ([], [])


def test_different_raid_levels_never_pair():
    pairs, only_a, only_b = pair_configs([("RAID-5", 140, DISABLED)], [("RAID-10", 140, DISABLED)])
    assert pairs == []
    assert only_a == [("RAID-5", 140, DISABLED)]
    assert only_b == [("RAID-10", 140, DISABLED)]


def test_stated_cache_settings_that_differ_are_not_compatible():
    assert not compatible(("RAID-5", 140, DISABLED), ("RAID-5", 140, ENABLED))
    assert compatible(("RAID-5", 140, DISABLED), ("RAID-5", 140, ""))
    assert not compatible(("RAID-5", 140, ""), ("RAID-5", 112, ""))


def test_configurations_are_labelled_and_ordered_as_the_tables_show_them():
    assert config_key_label(("RAID-5", 140, DISABLED)) == "RAID-5, 140 drives, All Caches Disabled"
    assert config_key_label(("RAID-10", None, "")) == "RAID-10"
    assert config_key_label(("", 8, "")) == "RAID level not stated, 8 drives"
    keys = [("RAID-5", 140, ENABLED), ("RAID-10", 28, ""), ("", None, ""), ("RAID-5", 56, DISABLED)]
    assert sorted(keys, key=config_key_order) == [
        ("", None, ""),
        ("RAID-10", 28, ""),
        ("RAID-5", 56, DISABLED),
        ("RAID-5", 140, ENABLED),
    ]


def test_a_run_is_keyed_by_its_stored_workload_else_by_its_name():
    assert workload_key_of(7, "OLTP 8K", 67, 100, family=False) == ("workload", 7)
    assert workload_key_of(None, "File Server", None, None, family=False) == ("name", "File Server")


def test_best_over_transfer_sizes_keys_a_run_by_its_read_and_random_percentages():
    assert workload_key_of(7, "Streaming Writes 64K", 0, 0, family=True) == ("family", (0, 0))
    assert workload_key_of(9, "Streaming Writes 512B", 0, 0, family=True) == ("family", (0, 0))
    # Without the percentages a run keeps its own key.
    assert workload_key_of(None, "Backup", None, 0, family=True) == ("name", "Backup")
    assert workload_title(("family", (0, 0)), "") == "Sequential write, best over transfer sizes"


def test_a_name_one_side_has_matches_the_workload_the_other_side_knows_by_that_name():
    a = {("name", "Random Reads 8K"): workload_names(("name", "Random Reads 8K"), [])}
    b = {("workload", 3): workload_names(("workload", 3), ["8K random read", "Random Reads 8K"])}
    assert match_workloads(a, b) == [(("name", "Random Reads 8K"), ("workload", 3))]
    assert match_workloads(b, a) == [(("workload", 3), ("name", "Random Reads 8K"))]


def test_a_name_two_workloads_are_known_by_is_not_matched():
    a = {("name", "OLTP"): {"OLTP"}}
    b = {("workload", 3): {"OLTP", "OLTP 8K"}, ("workload", 4): {"OLTP", "OLTP 4K"}}
    assert match_workloads(a, b) == []


def test_the_same_workload_on_both_sides_is_matched_and_labelled_once():
    a = {("workload", 3): {"OLTP 8K"}, ("workload", 5): {"Streaming Reads 64K"}}
    b = {("workload", 3): {"8K OLTP"}}
    assert match_workloads(a, b) == [(("workload", 3), ("workload", 3))]
    assert pair_label("OLTP 8K", "OLTP 8K") == "OLTP 8K"
    assert pair_label("OLTP 8K", "8K OLTP") == "OLTP 8K = 8K OLTP"
    assert workload_title(("workload", 3), "OLTP 8K") == "OLTP 8K"
    assert workload_title(("name", "File Server"), "") == "File Server"
