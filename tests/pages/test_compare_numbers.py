"""The comparison on the demo data gives the seed papers' numbers, from the selector and from `manage.py compare`.

Seed 000 is 000_f52f16ce4c762121.txt (IBM DS4500 white paper); the quotes name its lines.
"""

import html
import json

import pytest
from django.core.management import CommandError, call_command

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.comparisons.sweeps import stroke_tables, sweep
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory


def rows_by_raid(result, workload):
    found = next(w for w in result.workloads if w.workload == workload)
    return {row.raid_level: row for row in found.rows}, found


def test_random_reads_8k_at_140_drives_match_the_paper(demo):
    # Seed 000 line 295: "the DS4500 is capable of achieving approximately 30,020 8K IOPS. The DS4400 ...
    # 26,640 8K IOPS ... approximately 13% better" (RAID-5, 140 HDDs; Table 4 line 272 has 30,020).
    result = comparison(a=demo["IBM DS4500"], b=demo["IBM DS4400"], query=ComparisonQuery(threshold_ms=20))
    rows, workload = rows_by_raid(result, "Random Reads 8K")
    assert (rows["RAID-5"].a_value, rows["RAID-5"].b_value) == (30020, 26640)
    assert rows["RAID-5"].pct == pytest.approx(12.69, abs=0.01)
    assert rows["RAID-5"].label == "RAID-5, 140 drives, All Caches Disabled"
    # RAID-10, seed 000 Chart 12 text: 30,060 vs 26,700 = 12.6 %.
    assert rows["RAID-10"].pct == pytest.approx(12.58, abs=0.01)
    assert (
        "IBM DS4500 performs 12.7 % better than IBM DS4400 for RAID-5 Random Reads 8K"
        " (All Caches Disabled against cache setting not stated)"
    ) in workload.summaries
    # DS4500 drive counts the DS4400 was not measured at are listed, not dropped.
    assert ("RAID-5", 100, "All Caches Disabled") in workload.only_a
    assert "OLTP 8K" in result.only_a_workloads


def test_streaming_reads_64k_with_b_boosted_five_percent(demo):
    # Seed 000 line 201: 722 vs 388 MBps, the DS4400 boosted by 5 %: "approximately 75% better" (722/407.4 = 77 %).
    result = comparison(
        a=demo["IBM DS4500"], b=demo["IBM DS4400"], query=ComparisonQuery(threshold_ms=20, adjust_b=1.05)
    )
    rows, _ = rows_by_raid(result, "Streaming Reads 64K")
    assert rows["RAID-5"].pct == pytest.approx(77.2, abs=0.05)
    # RAID-10: 728 vs 379 x 1.05 = 83 %.
    assert rows["RAID-10"].pct == pytest.approx(82.9, abs=0.1)


def test_rows_of_different_drive_counts_name_them_and_give_figures_per_drive(demo, client):
    # Seed 000 line 359: RAID-10 Streaming Reads 64K, the DS4500 728 MBps (2^20 bytes/s: 763.4 MB/s) with 60
    # drives against the DS4400's 379 MBps (397.4 MB/s) with 96 (line 353): 728 x 1.048576 / 60 = 12.7 and
    # 379 x 1.048576 / 96 = 4.14 MB/s a drive.
    page = html.unescape(client.get("/compare/", {"a": "IBM DS4500", "b": "IBM DS4400"}).content.decode())
    assert "per drive: IBM DS4500 12.7 MB/s, IBM DS4400 4.14 MB/s" in page
    # The DS4400's RAID-10 streaming reads used 10K rpm drives and version 5.0 firmware (seed 000 line 353), the
    # DS4500's 15K rpm drives (line 110) and its Appware 05.40.06.00 (line 108).
    assert (
        "IBM DS4500 performs 92.1 % better than IBM DS4400 for RAID-10 Streaming Reads 64K (60 against 96 drives;"
        " 15,000 against 10,000 rpm; firmware 05.40.06.00 against 5.0)" in page
    )


def test_drive_count_sweep_shows_where_oltp_8k_stops_scaling(demo):
    # Seed 000 Table 1 (lines 141-150), OLTP 8K I/Os, RAID-5, All Caches Disabled: 3000, 8880, 14,320, 15,025, 15,040.
    series = sweep(system=demo["IBM DS4500"], parameter="drive_count", threshold_ms=20, workload="OLTP 8K")
    line = series[("iops", "IOPS")]["OLTP 8K, RAID-5, All Caches Disabled, 8 % stroke"]
    assert [(x, value) for x, value, _ in line] == [(20, 3000), (60, 8880), (100, 14320), (140, 15025), (180, 15040)]


def test_published_stroke_table_and_estimate(demo):
    # Seed 000 Table 2 (line 168): RAID-5 OLTP 8K, 0.74 at 45 % stroke; line 170: 14,320 x 0.74.
    tables = stroke_tables(system=demo["IBM DS4500"], threshold_ms=20)
    table = next(t for t in tables if (t.raid_level, t.workload) == ("RAID-5", "OLTP 8K"))
    assert table.source == "published"
    assert table.multipliers[45.0] == 0.74
    assert table.multipliers[8.0] == 1.0


def test_measured_stroke_table_gives_back_its_multipliers(db):
    config = {"raid_level": "RAID-5", "drive_count": 100}
    system = SystemFactory()
    for stroke_pct, iops in ((8, 10000.0), (15, 8800.0), (45, 7400.0)):
        run = RunFactory(config=ConfigFactory(system=system, stroke_pct=stroke_pct, **config))
        PointFactory(run=run, seq=0, iops=iops, avg_response_ms=20.0, outstanding_io=8)
    (table,) = stroke_tables(system=system, threshold_ms=20)
    assert table.source == "measured"
    assert table.multipliers == pytest.approx({8.0: 1.0, 15.0: 0.88, 45.0: 0.74})


def test_command_text_prints_rows_and_summary(demo, capsys):
    call_command("compare", "IBM DS4500", "IBM DS4400", "--workload", "Random Reads 8K")
    out = capsys.readouterr().out
    assert "RAID-5, 140 drives, All Caches Disabled" in out
    assert "30,020.0" in out and "26,640.0" in out and "+12.7 %" in out
    assert (
        "IBM DS4500 performs 12.7 % better than IBM DS4400 for RAID-5 Random Reads 8K"
        " (All Caches Disabled against cache setting not stated)"
    ) in out
    assert "only IBM DS4500: Random Reads 8K, RAID-5, 100 drives, All Caches Disabled" in out


def test_command_csv_json_markdown(demo, capsys):
    call_command(
        "compare", "IBM DS4500", "IBM DS4400", "--adjust-b", "1.05", "--raid-level", "RAID-5", "--format", "csv"
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "workload,configuration,metric,unit,a,b,adjust_b,improvement_pct,improvement_bound,improvement_not_stated,notes"
    )
    streaming = next(line for line in lines if line.startswith("Streaming Reads 64K"))
    assert ",1.05,77.22,,," in streaming and ",mbps,MB/s," in streaming

    call_command("compare", "IBM DS4500", "IBM DS4400", "--workload", "Random Reads 8K", "--format", "json")
    document = json.loads(capsys.readouterr().out)
    assert {(row["metric"], row["unit"]) for row in document["rows"]} == {("iops", "IOPS")}
    assert {row["configuration"]: row["improvement_pct"] for row in document["rows"]} == {
        "RAID-10, 140 drives, All Caches Disabled": 12.58,
        "RAID-5, 140 drives, All Caches Disabled": 12.69,
    }

    call_command("compare", "IBM DS4500", "IBM DS4400", "--workload", "Random Reads 8K", "--format", "markdown")
    assert "| Random Reads 8K | RAID-5, 140 drives, All Caches Disabled | 30,020.0 | 26,640.0 | 12.7 % |" in (
        capsys.readouterr().out
    )


def test_command_unknown_system_lists_close_matches(demo):
    with pytest.raises(CommandError, match=r"no system named 'IBM DS440'; did you mean 'IBM DS4400'"):
        call_command("compare", "IBM DS4500", "IBM DS440")


def test_command_refuses_a_negative_threshold(demo):
    with pytest.raises(CommandError, match="--threshold-ms must be a positive number of ms, got -5"):
        call_command("compare", "IBM DS4500", "IBM DS4400", "--threshold-ms", "-5")
