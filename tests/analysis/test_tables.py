"""The table model prints what the paper prints (seed 000_f52f16ce4c762121.txt, Tables 1, 2, 4 and 6)."""

import pytest

from portal.analysis.stroke import StrokeRun, stroke_multipliers
from portal.analysis.tables import (
    IOPS,
    MBPS,
    Column,
    ColumnGroup,
    NumberFormat,
    ResultRecord,
    Row,
    Table,
    format_number,
    stroke_table,
    whitepaper_table,
)

DISABLED, ENABLED = "All Caches Disabled", "Write Cache Enabled"
OLTP = ("OLTP 4K", "OLTP 8K", "OLTP 16K", "OLTP 32K", "OLTP 64K")

# Seed 000 Table 1 (DS4500 RAID-5 OLTP at 20 ms): per row, I/Os and MBps for OLTP 4K, 8K, 16K, 32K, 64K.
TABLE_1_NUMBERS = {
    (20, DISABLED): (3095, 12, 3000, 23, 2790, 43, 2185, 68, 1660, 104),
    (20, ENABLED): (3860, 15, 3800, 29, 3620, 56, 2620, 82, 1880, 117),
    (60, DISABLED): (9280, 36, 8880, 69, 8080, 126, 5120, 160, 2780, 174),
    (60, ENABLED): (11360, 44, 10960, 85, 9885, 154, 5525, 172, 3150, 196),
    (100, DISABLED): (15340, 60, 14320, 111, 9055, 141, 5155, 161, 2755, 172),
    (100, ENABLED): (24340, 95, 15880, 124, 10315, 161, 5765, 180, 3215, 200),
    (140, DISABLED): (20320, 79, 15025, 117, 9060, 141, 5170, 161, 2770, 173),
    (140, ENABLED): (20500, 80, 16525, 129, 10340, 161, 5780, 180, 3200, 200),
    (180, DISABLED): (18965, 74, 15040, 117, 9130, 142, 5200, 162, 2780, 173),
    (180, ENABLED): (20540, 80, 16450, 128, 10345, 161, 5800, 180, 3200, 200),
}

# Seed 000 Table 1 as the paper prints it, one line per printed line, cells separated by "|".
TABLE_1_TEXT = """\
Workload||OLTP 4K||OLTP 8K||OLTP 16K||OLTP 32K||OLTP 64K|
RAID-5||I/Os|MBps|I/Os|MBps|I/Os|MBps|I/Os|MBps|I/Os|MBps
20 HDDs|All Caches Disabled|3095|12|3000|23|2790|43|2185|68|1660|104
|Write Cache Enabled|3860|15|3800|29|3620|56|2620|82|1880|117
60 HDDs|All Caches Disabled|9280|36|8880|69|8080|126|5120|160|2780|174
|Write Cache Enabled|11,360|44|10,960|85|9885|154|5525|172|3150|196
100 HDDs|All Caches Disabled|15,340|60|14,320|111|9055|141|5155|161|2755|172
|Write Cache Enabled|24,340|95|15,880|124|10,315|161|5765|180|3215|200
140 HDDs|All Caches Disabled|20,320|79|15,025|117|9060|141|5170|161|2770|173
|Write Cache Enabled|20,500|80|16,525|129|10,340|161|5780|180|3200|200
180 HDDs|All Caches Disabled|18,965|74|15,040|117|9130|142|5200|162|2780|173
|Write Cache Enabled|20,540|80|16,450|128|10,345|161|5800|180|3200|200"""


def records_from(numbers, workloads):
    """Flat records, as a selector would produce them, from one tuple of figures per row."""
    return [
        ResultRecord(drive_count, cache, workload, metric, values[2 * i + j])
        for (drive_count, cache), values in numbers.items()
        for i, workload in enumerate(workloads)
        for j, metric in enumerate((IOPS, MBPS))
    ]


def table_1(records):
    return whitepaper_table(
        records, title="Table 1. DS4500 RAID-5 OLTP I/Os*", raid_label="RAID-5", metric_labels={IOPS: "I/Os"}
    )


def grid(text):
    return [line.split("|") for line in text.splitlines()]


def test_table_1_prints_cell_for_cell():
    table = table_1(records_from(TABLE_1_NUMBERS, OLTP))
    assert table.text_grid() == grid(TABLE_1_TEXT)
    assert table.title == "Table 1. DS4500 RAID-5 OLTP I/Os*"
    assert table.footnotes == ("*Results correspond to an average response time of 20 ms.",)


def test_table_1_layout_does_not_depend_on_record_order():
    records = records_from(TABLE_1_NUMBERS, OLTP)
    # Drive counts arrive out of order; workloads and cache settings keep their first-seen order.
    records.sort(key=lambda r: -r.drive_count)
    assert table_1(records).text_grid() == grid(TABLE_1_TEXT)


def test_table_1_keeps_numbers_for_exporters_and_describes_its_merged_headers():
    table = table_1(records_from(TABLE_1_NUMBERS, OLTP))
    assert table.rows[3].headers == ("60 HDDs", ENABLED)
    assert table.rows[3].cells[0] == 11360
    assert table.cell_text(3, 0) == "11,360"
    assert table.column_group_spans() == [
        (0, 2, "OLTP 4K"),
        (2, 2, "OLTP 8K"),
        (4, 2, "OLTP 16K"),
        (6, 2, "OLTP 32K"),
        (8, 2, "OLTP 64K"),
    ]
    assert table.row_header_spans(0) == [
        (0, 2, "20 HDDs"),
        (2, 2, "60 HDDs"),
        (4, 2, "100 HDDs"),
        (6, 2, "140 HDDs"),
        (8, 2, "180 HDDs"),
    ]
    assert table.row_header_spans(1)[:2] == [(0, 1, DISABLED), (1, 1, ENABLED)]


RANDOM = ("Random Reads 4K", "Random Reads 8K", "Random Writes 4K", "Random Writes 8K")
NA = None
# Seed 000 Table 4 (DS4500 RAID-5 Random Reads and Random Writes at 20 ms): IOps and MBps per workload.
TABLE_4_NUMBERS = {
    (20, DISABLED): (8670, 33.5, 8365, 65, 898, 3.5, 890, 6.5),
    (20, ENABLED): (NA, NA, NA, NA, 1100, 4, 460, 3.5),
    (60, DISABLED): (25080, 97, 24395, 190, 2710, 10.5, 2640, 20.5),
    (60, ENABLED): (NA, NA, NA, NA, 5015, 19, 5050, 39),
    (100, DISABLED): (36650, 143, 30180, 235, 4480, 17.5, 4275, 33),
    (100, ENABLED): (NA, NA, NA, NA, 8835, 34, 7675, 60),
    (140, DISABLED): (42555, 166, 30020, 234, 6100, 23, 5700, 44.5),
    (140, ENABLED): (NA, NA, NA, NA, 11000, 43, 8325, 65),
    (180, DISABLED): (40900, 159, 29480, 230, 7000, 27.5, 6285, 49),
    (180, ENABLED): (NA, NA, NA, NA, 10000, 39, 8400, 65.5),
}
# Seed 000 Table 4 as printed; the paper's separate "RAID-5" banner line is left out (the model
# puts that label in the corner, as Table 1 does).
TABLE_4_TEXT = """\
Workload||Random Reads 4K||Random Reads 8K||Random Writes 4K||Random Writes 8K|
||IOps|MBps|IOps|MBps|IOps|MBps|IOps|MBps
20 HDDs|All Caches Disabled|8670|33.5|8365|65|898|3.5|890|6.5
|Write Cache Enabled|N/A|N/A|N/A|N/A|1100|4|460|3.5
60 HDDs|All Caches Disabled|25,080|97|24,395|190|2710|10.5|2640|20.5
|Write Cache Enabled|N/A|N/A|N/A|N/A|5015|19|5050|39
100 HDDs|All Caches Disabled|36,650|143|30,180|235|4480|17.5|4275|33
|Write Cache Enabled|N/A|N/A|N/A|N/A|8835|34|7675|60
140 HDDs|All Caches Disabled|42,555|166|30,020|234|6100|23|5700|44.5
|Write Cache Enabled|N/A|N/A|N/A|N/A|11,000|43|8325|65
180 HDDs|All Caches Disabled|40,900|159|29,480|230|7000|27.5|6285|49
|Write Cache Enabled|N/A|N/A|N/A|N/A|10,000|39|8400|65.5"""


def test_table_4_prints_na_and_the_papers_half_units():
    table = whitepaper_table(
        records_from(TABLE_4_NUMBERS, RANDOM), title="Table 4", metric_labels={IOPS: "IOps"}, threshold_ms=20
    )
    assert table.text_grid() == grid(TABLE_4_TEXT)


def test_a_cell_without_any_record_prints_na():
    records = [ResultRecord(20, DISABLED, "OLTP 8K", IOPS, 3000), ResultRecord(60, ENABLED, "OLTP 8K", MBPS, 85)]
    table = whitepaper_table(records, title="t")
    assert table.body_rows() == [
        ["20 HDDs", DISABLED, "3000", "N/A"],
        ["", ENABLED, "N/A", "N/A"],
        ["60 HDDs", DISABLED, "N/A", "N/A"],
        ["", ENABLED, "N/A", "85"],
    ]


def test_selection_chooses_and_orders_workloads_and_cache_settings():
    records = records_from(TABLE_1_NUMBERS, OLTP)
    table = whitepaper_table(
        records, title="t", workloads=["OLTP 64K", "OLTP 8K"], cache_settings=[ENABLED], threshold_ms=None
    )
    assert table.header_rows()[0] == ["Workload", "", "OLTP 64K", "", "OLTP 8K", ""]
    assert table.body_rows()[0] == ["20 HDDs", ENABLED, "1880", "117", "3800", "29"]
    assert len(table.rows) == 5
    assert table.footnotes == ()


def test_the_footnote_follows_the_threshold():
    table = whitepaper_table([ResultRecord(20, DISABLED, "x", IOPS, 1)], title="t", threshold_ms=30)
    assert table.footnotes == ("*Results correspond to an average response time of 30 ms.",)


def test_two_figures_for_one_cell_are_refused():
    records = [ResultRecord(140, ENABLED, "OLTP 8K", IOPS, 16525), ResultRecord(140, ENABLED, "OLTP 8K", IOPS, 16000)]
    with pytest.raises(ValueError, match=r"two IOPS figures for OLTP 8K with 140 drives \(Write Cache Enabled\)"):
        whitepaper_table(records, title="t")


@pytest.mark.parametrize(
    ("value", "number_format", "text"),
    [
        (None, NumberFormat(), "N/A"),
        (9885, NumberFormat(), "9885"),
        (10315, NumberFormat(), "10,315"),
        (9885, NumberFormat(group_from=1000), "9,885"),
        (1234567, NumberFormat(group_from=None), "1234567"),
        (33.5, NumberFormat(decimals=1), "33.5"),
        (33.0, NumberFormat(decimals=1), "33"),
        (98.45, NumberFormat(decimals=1), "98.5"),
        (0.5, NumberFormat(), "1"),
        (2.5, NumberFormat(), "3"),
        (0.8, NumberFormat(decimals=2, trim_zeros=False), "0.80"),
        (-0.0001, NumberFormat(decimals=2), "0"),
        (-12345.6, NumberFormat(decimals=1), "-12,345.6"),
        (None, NumberFormat(na_text="-"), "-"),
    ],
)
def test_format_number(value, number_format, text):
    assert format_number(value, number_format) == text


def test_a_non_finite_cell_is_refused():
    with pytest.raises(ValueError, match="finite number or None"):
        format_number(float("nan"))


def test_a_table_with_mismatched_rows_is_refused():
    group = ColumnGroup("g", (Column("a"), Column("b")))
    with pytest.raises(ValueError, match="has 1 headers and 1 cells; the table has 1 row-header columns and 2"):
        Table(title="t", corner=(("x",), ("",)), column_groups=(group,), rows=(Row(("r",), (1,)),))


# Seed 000 Tables 2 and 6: stroke multipliers against the 8 % baseline.
TABLE_2 = {15: 0.88, 30: 0.80, 45: 0.74, 60: 0.72, 75: 0.66, 90: 0.65}
TABLE_6 = {15: 0.95, 30: 0.82, 45: 0.80, 60: 0.72, 75: 0.72, 90: 0.67}
TABLE_2_GROUP = (
    "To approximate the RAID-5 OLTP I/Os for the following disk stroke percentages, multiply the 8% disk "
    "stroke I/Os from Table 1 by the corresponding multiplier..."
)


def multipliers_from_runs(table, baseline=14_320):
    return stroke_multipliers([StrokeRun(8, baseline)] + [StrokeRun(s, baseline * m) for s, m in table.items()])


def test_table_2_prints_as_the_paper_prints_it():
    table = stroke_table(
        [("RAID-5 OLTP 4K, 8K, and 16K", multipliers_from_runs(TABLE_2))],
        title="Table 2. RAID-5 OLTP Drive Stroke Percentage Multiplier",
        group_label=TABLE_2_GROUP,
    )
    assert table.text_grid() == [
        ["Transfer Request Size", TABLE_2_GROUP, "", "", "", "", ""],
        ["", "15%", "30%", "45%", "60%", "75%", "90%"],
        ["RAID-5 OLTP 4K, 8K, and 16K", "0.88", "0.80", "0.74", "0.72", "0.66", "0.65"],
    ]


def test_table_6_row_and_a_row_missing_a_stroke():
    partial = stroke_multipliers([StrokeRun(8, 1000), StrokeRun(45, 800)])
    table = stroke_table(
        [("RAID-10 OLTP 4K, 8K, and 16K", multipliers_from_runs(TABLE_6)), ("RAID-10 OLTP 32K", partial)],
        title="Table 6",
        group_label="multipliers",
    )
    assert table.body_rows() == [
        ["RAID-10 OLTP 4K, 8K, and 16K", "0.95", "0.82", "0.80", "0.72", "0.72", "0.67"],
        ["RAID-10 OLTP 32K", "N/A", "N/A", "0.80", "N/A", "N/A", "N/A"],
    ]


def test_the_innermost_row_header_is_printed_even_when_it_repeats():
    group = ColumnGroup("g", (Column("n"),))
    rows = (Row(("20 HDDs", DISABLED), (1,)), Row(("20 HDDs", DISABLED), (2,)))
    table = Table(title="t", corner=(("", ""), ("", "")), column_groups=(group,), rows=rows)
    assert table.body_rows() == [["20 HDDs", DISABLED, "1"], ["", DISABLED, "2"]]
