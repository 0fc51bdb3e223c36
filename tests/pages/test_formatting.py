"""Numbers and names as engineers write them, by the one formatter pages (and exports, the API) call.

Seed 000 is 000_f52f16ce4c762121.txt (IBM DS4500 white paper); the fio sample is
fioplot_fio-3.34_randread-1-1.json in the shared samples.
"""

import pytest

from portal import formatting
from portal.analysis.curves import CurvePoint, throughput_at


def test_iops_are_whole_with_thousands_separators():
    # Seed 000 Table 8 (line 425): RAID-10, 140 HDDs, All Caches Disabled, Random Reads 8K: 30,060 IOPS.
    assert formatting.throughput(30060.0, "iops") == "30,060 IOPS"
    # The fio sample, line 90: iops_mean 10070.0; a point's 10,102.601156 IOPS (line 37) is whole too.
    assert formatting.iops(10102.601156) == "10,103"


def test_mb_ms_and_percent_to_three_significant_digits():
    # Seed 000 line 108: "Each DS4500 RAID controller contained 1024MB of cache": whole digits are kept.
    assert f"{formatting.significant(1024.0)} MB" == "1,024 MB"
    # The fio sample, line 78: lat_ns mean 96095.658704 ns = 0.0960957 ms.
    assert formatting.ms(96095.658704 / 1e6) == "0.0961 ms"
    assert formatting.ms(0.0839169) == "0.0839 ms"
    assert formatting.throughput(54.5, "mbps") == "54.5 MB/s"
    # Seed 000 line 446: 30,060 against 26,700 IOPS, "approximately 13% better": 12.58 %.
    assert formatting.percent((30060 - 26700) / 26700 * 100) == "12.6 %"
    assert formatting.percent(8.0) == "8 %"
    assert formatting.significant(0.09996) == "0.1"
    assert formatting.significant(162.5) == "163"
    assert formatting.significant(None) == "–"


def test_counts_and_drives_in_the_right_number_and_type():
    assert formatting.count(1, "drive") == "1 drive"
    assert formatting.drives(8, "") == "8 drives"
    assert formatting.drives(8, "SSD") == "8 SSDs"
    # Seed 000 Table 8 (line 425) heads its rows "140 HDDs".
    assert formatting.drives(140, "HDD") == "140 HDDs"
    assert formatting.drives(1, "HDD") == "1 HDD"
    assert formatting.drives(4, "NVMe") == "4 NVMe drives"
    assert formatting.count(2, "mailbox", "mailboxes") == "2 mailboxes"


def test_format_ids_are_written_as_the_tools_names():
    assert [formatting.format_name(f) for f in ("fio", "diskspd", "iometer", "array_profile")] == [
        "fio",
        "DiskSpd",
        "Iometer",
        "storage array profile",
    ]
    assert "array_profile" not in formatting.format_names()


def test_labels_and_tags_are_written_in_words():
    labels = {"raid_level": "RAID-5", "drive_count": 140, "read_cache": False, "tags": ["lab", "2024 refresh"]}
    assert formatting.labels(labels) == "RAID level RAID-5; drives 140; read cache off; tags lab, 2024 refresh"


def test_a_published_note_cites_no_seed_line():
    note = "row '20 HDDs / All Caches Disabled', column 'OLTP 4K' (seed line 141); results at 20 ms"
    assert formatting.citation_note(note) == "row '20 HDDs / All Caches Disabled', column 'OLTP 4K'; results at 20 ms"
    # fixtures/demo.yaml, the Jetstress figure of seed 001: its note names the seed's lines in parentheses.
    note = "the highlights say 8,252 mailboxes (lines 17, 141); Jetstress DB reads '16 to 17 millisecond' (line 148)"
    assert (
        formatting.citation_note(note)
        == "the highlights say 8,252 mailboxes; Jetstress DB reads '16 to 17 millisecond'"
    )


@pytest.mark.parametrize(
    ("load_kind", "words"),
    [
        ("outstanding_io", "interpolated between 12 ms at 16 outstanding I/Os and 28 ms at 64 outstanding I/Os."),
        ("threads", "interpolated between 12 ms with 16 threads and 28 ms with 64 threads."),
        (None, "interpolated between 12 ms and 28 ms."),
    ],
)
def test_an_interpolated_figure_names_the_measured_points_not_an_interpolated_load(load_kind, words):
    points = [CurvePoint(load=4, throughput=5000, response_ms=4), CurvePoint(load=16, throughput=9000, response_ms=12)]
    answer = throughput_at([*points, CurvePoint(load=64, throughput=11000, response_ms=28)], threshold_ms=20)
    assert formatting.reading(answer, metric="iops", load_kind=load_kind) == f"10,000 IOPS at 20 ms: {words}"


def test_a_single_point_says_whether_a_paper_published_it():
    # Seed 000 Table 1 (line 141): 20 HDDs, All Caches Disabled, OLTP 4K: 3,095 IOPS at 20 ms.
    published = throughput_at([CurvePoint(load=None, throughput=3095, response_ms=20)], threshold_ms=20, published=True)
    assert formatting.reading(published, metric="iops") == "3,095 IOPS at 20 ms: published by the paper at 20 ms."
    # The fio sample: one point, iodepth 1 (line 21), 0.0961 ms: measured far under 20 ms, a lower bound.
    measured = throughput_at([CurvePoint(load=1, throughput=10102.6, response_ms=0.0960957)], threshold_ms=20)
    assert formatting.reading(measured, metric="iops", load_kind="outstanding_io") == (
        "At least 10,103 IOPS at 20 ms (a lower bound): measured at 0.0961 ms at 1 outstanding I/O."
    )
    assert measured.warnings == (
        "its only point was measured at 0.0961 ms, under the threshold of 20 ms: its throughput is a lower bound",
    )


def test_improvements_are_signed_to_one_decimal():
    # Seed 000 line 295: 30,020 against 26,640 IOPS: +12.7 %; line 213: 525 against 240 MBps: +118.75 %.
    assert formatting.improvement((30020 - 26640) / 26640 * 100) == "+12.7 %"
    assert formatting.improvement((525 - 240) / 240 * 100) == "+118.8 %"
    assert formatting.improvement(10.0) == "+10.0 %"
    assert formatting.improvement(-3.21) == "-3.2 %"
    assert formatting.improvement(None) == ""
