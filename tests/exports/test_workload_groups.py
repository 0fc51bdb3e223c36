"""Runs are grouped by what their workload does, never by the name they were stored under.

fio-plot names both its randread and its randwrite jobs "random-read" (samples/fio-grids/MANIFEST.md, the
DL380G8 Crucial MX200 folders: "jobname `random-read` also in the randwrite files"). Stored from the MX200 (one
drive) and MX200x3 (three drives, md RAID0) grids, the white-paper and pivot tables (page export, API), the
drive-count sweep, its sizing, the sweep cells and the firmware history series list random read and random write
apart, each with its own figures, never their mean.

Figures are checked by hand against the raw files: a grid is one run per rw, a point per file, and its IOPS
at 20 ms is interpolated, linear in the average response time, between the last point under 20 ms and the first
over it (``jobs[0].<read|write>.iops`` and ``jobs[0].<read|write>.lat_ns.mean`` of the files named below).
"""

import csv
import io
import json
import re

import pytest
from django.core.management import call_command

from ingest.result import MIB
from portal.analysis.workload_groups import GroupedRun, group_labels
from portal.comparisons.sweeps import sweep
from portal.history import selectors as history
from portal.models import Run, SweepCell, System
from portal.sizing.selectors import sizing
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory
from tests.samples import sample

SYSTEM = "HP DL380G8 Crucial MX200"
ONE_DRIVE = "fioplot_HPDL380G8-H420i-Crucial-MX200"
THREE_DRIVES = "fioplot_HPDL380G8-H420i-Crucial-MX200x3_RAID0"
READ = "random-read (4 KiB random read)"
WRITE = "random-read (4 KiB random write)"
IOPS_BYTES = 4096  # bs=4k in every file's job options (MANIFEST: "bs = 4k ... everywhere")


def job(folder, name, section):
    """One fio file's figures of ``section`` ("read" or "write"): (IOPS, mean total latency in ms)."""
    (entry,) = json.loads(sample("fio-grids", folder, name).read_text())["jobs"]
    figures = entry[section]
    return figures["iops"], figures["lat_ns"]["mean"] / 1e6


def at_20_ms(below, above):
    """IOPS at 20 ms between two (IOPS, ms) points, linear in the response time."""
    (iops_a, ms_a), (iops_b, ms_b) = below, above
    return iops_a + (20 - ms_a) * (iops_b - iops_a) / (ms_b - ms_a)


# Three drives, read off the grid's upper envelope: randread-32-16.json (144,392 IOPS at 3.54 ms) is the best cell
# at or under 20 ms; the only cell over it, randread-64-64.json (140,295 IOPS at 29.17 ms), does less.
THREE_READ = job(THREE_DRIVES, "randread-32-16.json", "read")[0]
# Three drives: randwrite-4-64.json (21,472 IOPS at 11.91 ms), the best cell at or under 20 ms, towards the
# quickest cell over 20 ms that does more, randwrite-64-64.json (21,474 IOPS at 190.3 ms).
THREE_WRITE = at_20_ms(
    job(THREE_DRIVES, "randwrite-4-64.json", "write"), job(THREE_DRIVES, "randwrite-64-64.json", "write")
)


@pytest.fixture
def mx200(db):
    """Both grids in one system, as the lab ran them: one drive, then three (the RAID level is not stated)."""
    for folder, drives in ((ONE_DRIVE, 1), (THREE_DRIVES, 3)):
        call_command(
            "ingest", str(sample("fio-grids", folder)), "--system", SYSTEM,
            "--config", f"drive_count={drives}", "--config", "drive_type=SSD", stdout=io.StringIO(),
        )  # fmt: skip
    return System.objects.get(name=SYSTEM)


def csv_rows(response):
    assert response.status_code == 200, response.content
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_figures_checked_by_hand_are_the_issue_s(mx200):
    """The hand-computed figures are the two a mixed table would average: 144,392 and 21,472."""
    assert (round(THREE_READ), round(THREE_WRITE)) == (144_392, 21_472)
    assert Run.objects.filter(config__system=mx200, workload_name="random-read").count() == 4


def test_the_white_paper_table_lists_random_read_and_random_write_apart(mx200, client):
    rows = csv_rows(client.get("/export/table/", {"system": SYSTEM, "preset": "whitepaper", "format": "csv"}))
    assert rows[1] == ["Workload", "", READ, "", WRITE, ""]
    (three,) = [row for row in rows if row[:1] == ["3 SSDs"]]
    # I/Os as the paper writes them (whole), MBps in 2^20 bytes/s at 4 KiB per I/O.
    # 144,392 x 4,096 / 2^20 = 564.03 MBps (a whole 564.0, written 564); 21,472 x 4,096 / 2^20 = 83.9.
    assert three[2:] == [str(round(THREE_READ)), "564", str(round(THREE_WRITE)), "83.9"]
    assert (f"{THREE_READ * IOPS_BYTES / MIB:.1f}", f"{THREE_WRITE * IOPS_BYTES / MIB:.1f}") == ("564.0", "83.9")
    assert not any("Mean of" in cell for row in rows for cell in row)


def test_the_pivot_table_and_the_api_list_them_apart(mx200, client):
    rows = csv_rows(client.get("/export/table/", {"system": SYSTEM, "preset": "pivot", "format": "csv"}))
    assert rows[1] == ["Workload", "", READ, "", WRITE, ""]
    (three,) = [row for row in rows if row[:1] == ["3 drives"]]
    assert [three[2], three[4]] == [str(round(THREE_READ)), str(round(THREE_WRITE))]
    answer = client.get("/api/v1/tables/whitepaper/", {"system": SYSTEM})
    assert answer.status_code == 200, answer.content
    (table,) = answer.json()["tables"]
    assert [group["label"] for group in table["column_groups"]] == [READ, WRITE]
    (api_three,) = [row for row in table["rows"] if row["headers"][0] == "3 SSDs"]
    assert api_three["cells"][0] == pytest.approx(THREE_READ) and api_three["cells"][2] == pytest.approx(THREE_WRITE)


def test_the_drive_count_sweep_draws_one_line_per_workload(mx200, client):
    lines = sweep(system=mx200, parameter="drive_count", threshold_ms=20, workload="random-read")[("iops", "IOPS")]
    assert sorted(lines) == [READ, WRITE]
    # Each line has one point per drive count, of its own workload's run only.
    for label, direction in ((READ, 100), (WRITE, 0)):
        assert [x for x, _, _ in lines[label]] == [1, 3]
        assert {Run.objects.get(id=run_id).read_pct for _, _, run_id in lines[label]} == {direction}
    assert lines[READ][1][1] == pytest.approx(THREE_READ) and lines[WRITE][1][1] == pytest.approx(THREE_WRITE)
    chart = client.get(f"/systems/{mx200.id}/sweep.json", {"workload": "random-read", "parameter": "drive_count"})
    names = [trace["name"] for trace in json.loads(chart.content)["data"]]
    assert names == [f"{READ} (IOPS)", f"{WRITE} (IOPS)"]


def test_the_system_page_lists_each_workload_of_the_shared_name_under_its_own_heading(mx200, client):
    page = client.get(f"/systems/{mx200.id}/").content.decode()
    headings = [
        " ".join(re.sub(r"<[^>]+>", "", heading).split())
        for heading in re.findall(r"<h3>(.*?)</h3>", page[page.index('id="runs"') :], re.S)
    ]
    # Two runs of each (one drive, three drives), both stored as fio-plot's "random-read".
    assert headings[:2] == [
        "4 KiB random read (stored as “random-read”, 2 runs) history",
        "4 KiB random write (stored as “random-read”, 2 runs) history",
    ]
    sections = page.split("<h3>")[1:]
    for title, figure in (("4 KiB random read", THREE_READ), ("4 KiB random write", THREE_WRITE)):
        (section,) = [section for section in sections if section.startswith(f"{title} ")]
        table = section[: section.index("</table>")]
        rows = [
            [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr><td>.*?</tr>", table, re.S)
        ]
        assert '<th scope="col">Workload</th>' not in table
        assert len(rows) == 2
        # Run, Configuration, Tool, Source, At threshold.
        assert [row[4] for row in rows if "3 SSDs" in row[1]] == [f"{round(figure):,} IOPS"]
    # The sweep's choice says what the runs of the name do; its value stays the name they were stored under.
    select = re.search(r'<select id="id_sweep_workload" name="workload">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select) == [
        ("random-read", "4 KiB random read / 4 KiB random write (stored as “random-read”)")
    ]


def test_sizing_fits_each_workload_s_sweep_on_its_own(mx200):
    found = sizing(system=mx200, workload="random-read", threshold_ms=20)
    measured = {s.workload: {m.drive_count: m.throughput for m in s.scaling.measured} for s in found.sweeps}
    assert sorted(measured) == [READ, WRITE]
    assert measured[READ][3] == pytest.approx(THREE_READ) and measured[WRITE][3] == pytest.approx(THREE_WRITE)


def test_the_sizing_page_offers_the_workload_by_what_it_does(mx200, client):
    page = client.get(f"/systems/{mx200.id}/sizing/").content.decode()
    datalist = re.search(r'<datalist id="sizing-workloads">(.*?)</datalist>', page, re.S).group(1)
    # Chosen by the name the runs were stored under (the sizing reads it), shown by what they do.
    label = "4 KiB random read / 4 KiB random write (stored as “random-read”)"
    assert datalist == f'<option value="random-read" label="{label}">'
    assert f"Measured at two or more drive counts: {label}." in page


def test_the_sweep_cells_keep_read_and_write_apart(mx200):
    """A cell's IOPS sum is of its workload's files only: three drives, numjobs 1, every iodepth."""
    (config_id,) = {cell.config_id for cell in SweepCell.objects.filter(config__drive_count=3)}
    cells = {cell.read_pct: cell for cell in SweepCell.objects.filter(config_id=config_id, threads=1)}
    assert sorted(cells) == [0.0, 100.0]
    for rw, section, read_pct in (("randread", "read", 100.0), ("randwrite", "write", 0.0)):
        files = [f"{rw}-{depth}-1.json" for depth in (1, 2, 4, 8, 16, 32, 64)]
        expected = sum(job(THREE_DRIVES, name, section)[0] for name in files)
        assert cells[read_pct].iops_sum == pytest.approx(expected)
        assert (cells[read_pct].iops_count, cells[read_pct].iops_runs) == (7, 1)


def test_the_firmware_history_lists_each_workload_as_its_own_series(mx200):
    entries = history.system_series(system_id=mx200.id)
    assert sorted((entry.config.drive_count, entry.workload_name) for entry in entries) == [
        (1, READ), (1, WRITE), (3, READ), (3, WRITE),
    ]  # fmt: skip
    for entry in entries:
        loaded = history.series_load(config=entry.config, series=entry.series)
        (version,) = loaded.versions
        direction = 100 if entry.workload_name == READ else 0
        assert {Run.objects.get(id=run_id).read_pct for run_id in version.run_ids} == {direction}
        assert loaded.label == entry.workload_name


def test_group_names_tell_namesakes_apart_and_keep_a_lone_name():
    read = GroupedRun(1, "random-read", "4 KiB random read", "4 KiB random read")
    write = GroupedRun(2, "random-read", "4 KiB random write", "4 KiB random write")
    unknown = GroupedRun(None, "random-read", "", "")
    oltp = GroupedRun(3, "OLTP 8K", "OLTP 8K", "8 KiB random, 67 % read")
    labels = group_labels([read, write, unknown, oltp, oltp._replace(stored_name="oltp-8k")])
    assert labels == {
        ("workload", 1): READ,
        ("workload", 2): WRITE,
        ("name", "random-read"): "random-read (what it does not stated)",
        # One workload stored under two names: one group, named by its workload's title.
        ("workload", 3): "OLTP 8K",
    }
    assert group_labels([read]) == {("workload", 1): "random-read"}


def test_configurations_sharing_a_row_are_rows_of_their_own_not_a_mean(demo, client):
    """Seed 002 Table 1 (002_a42e26287dbab2e7.txt, lines 88-89): the EVA4100's 56 drives do 7,300 random write
    IOPS in VRAID 1 and 4,000 in VRAID 5. Both are 56 drives with no cache setting stated: the white-paper table
    averaged them into 5,650 ("Mean of 2 runs"); each is now a row, named by what differs."""
    rows = csv_rows(client.get("/export/table/", {"system": "HP EVA4100", "preset": "whitepaper", "format": "csv"}))
    column = rows[1].index("EVA Random Writes")
    writes = {row[1]: row[column] for row in rows[3:] if len(row) > column and row[column] != "N/A"}
    assert writes == {
        "Cache not stated; RAID level RAID-1; vraid level RAID 1": "7300",
        "Cache not stated; RAID level RAID-5; vraid level RAID 5": "4000",
    }
    assert not any("Mean of" in cell for row in rows for cell in row)
    pivot = csv_rows(
        client.get(
            "/export/table/",
            {"system": "HP EVA4100", "preset": "pivot", "format": "csv", "rows": "drive_count,cache_setting"},
        )
    )
    column = pivot[1].index("EVA Random Writes")
    assert sorted(row[column] for row in pivot[3:] if len(row) > column and row[column] != "N/A") == ["4000", "7300"]


def test_a_drive_count_sweep_joins_only_one_configuration_family(db):
    """HDDs and SSDs at 8 and 16 drives, one workload: two lines of two points each, not one line of four."""
    system = SystemFactory(name="Two drive types")
    figures = {("HDD", 8): 2_000.0, ("HDD", 16): 4_000.0, ("SSD", 8): 50_000.0, ("SSD", 16): 90_000.0}
    for (drive_type, drives), iops in figures.items():
        config = ConfigFactory(system=system, raid_level="RAID-5", drive_count=drives, drive_type=drive_type)
        run = RunFactory(config=config, workload_name="OLTP 8K")
        # Measured at 10 ms and 30 ms: the figure at 20 ms is their midpoint, ``iops``.
        for seq, (factor, response_ms) in enumerate(((0.5, 10.0), (1.5, 30.0))):
            PointFactory(run=run, seq=seq, outstanding_io=seq + 1, iops=iops * factor, avg_response_ms=response_ms)
    lines = sweep(system=system, parameter="drive_count", threshold_ms=20, workload="OLTP 8K")[("iops", "IOPS")]
    assert {label: [(x, value) for x, value, _ in points] for label, points in lines.items()} == {
        "OLTP 8K, RAID-5, drive type HDD": [(8, 2_000.0), (16, 4_000.0)],
        "OLTP 8K, RAID-5, drive type SSD": [(8, 50_000.0), (16, 90_000.0)],
    }


def test_without_a_sweep_the_estimate_names_the_one_workload_whose_read_share_it_reads(db):
    """Three drives only (RAID-0 stated): no sweep, so the back-end formula answers, for one workload, named."""
    call_command(
        "ingest", str(sample("fio-grids", THREE_DRIVES)), "--system", "MX200 x3",
        "--config", "drive_count=3", "--config", "drive_type=SSD", "--config", "raid_level=RAID 0",
        stdout=io.StringIO(),
    )  # fmt: skip
    system = System.objects.get(name="MX200 x3")
    found = sizing(system=system, workload="random-read", threshold_ms=20, target=100_000, raid_level="RAID-0")
    assert found.sweeps == ()
    assert found.estimate.workload == READ
    # RAID-0 has no write penalty: back-end IOPS is the target, 100,000, whatever the read share.
    assert found.estimate.backend.backend_iops == pytest.approx(100_000)
    # Per drive: the read run's 144,392 IOPS at 20 ms over its 3 drives (the write run's 21,472 is not pooled).
    assert found.estimate.backend.per_drive_iops == pytest.approx(THREE_READ / 3)
