"""Results from other tools, other names and other spellings are compared on what they measured.

Seed 000 is 000_f52f16ce4c762121.txt (IBM DS4500 white paper); the quotes name its lines.
"""

import io
import re

import pytest
from django.core.management import call_command

from portal.comparisons.filters import SideFilters
from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import Config, Run, System
from tests.ingesting import store_file
from tests.samples import sample

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")


def _compare(*args):
    out = io.StringIO()
    call_command("compare", *args, stdout=out)
    return out.getvalue()


def test_the_best_over_transfer_sizes_gives_the_papers_118_percent(demo):
    # Seed 000 line 213: "the DS4500 transfer rate for 64K transfer requests is 525MBps. The DS4400 maximum
    # transfer rate for streaming writes is approximately 240MBps. Therefore, the DS4500 performs
    # approximately 118% better" (525 / 240 = 2.1875: 118.75 %, which the paper truncates).
    out = _compare("IBM DS4500", "IBM DS4400", "--best-of-transfer-sizes", "--raid-level", "raid 5")
    line = next(line for line in out.splitlines() if line.strip().startswith("RAID-5, 60 vs 58 drives"))
    assert "+118.8 %" in line
    assert "IBM DS4500 published 525 MBps (2^20 bytes/s); IBM DS4400 published 240 MBps (2^20 bytes/s)" in line
    assert "Sequential write, best over transfer sizes (MB/s; matched best of each side over the transfer" in out


def test_the_file_server_comparison_is_one_click_away(demo, client):
    # Seed 000 line 242: the DS4500's File Server maximum is 133 MBps; Chart 10 text: the DS4400's 114 MBps
    # with 140 HDDs, no cache setting stated. 133 / 114 = +16.7 %.
    page = client.get("/compare/", {"a": "IBM DS4500", "b": "IBM DS4400", "raid_level": "RAID-5"}).content.decode()
    section = page[page.index(">File Server</h2>") :]
    link = re.search(r'Compare as: <a href="([^"]+)">All Caches Disabled</a>', section)
    assert link, "the cache setting B does not state is offered as a link"
    chosen = client.get("/compare/" + link.group(1).replace("&amp;", "&")).content.decode()
    row = chosen[chosen.index(">File Server</h2>") :]
    row = row[row.index('<th scope="row">RAID-5, 140 drives, All Caches Disabled</th>') :]
    assert re.search(r'<td class="num pct">16\.7 %</td>', row[:600])
    assert "RAID ?" not in chosen and "None drives" not in chosen


def test_an_uploaded_fio_67_33_8k_random_job_meets_the_ds4500s_oltp_8k(demo, data_dir, tmp_path):
    # The shared fio sample run as an OLTP-like job: rw=randrw with rwmixread=67 and bs=8k (lines 18 and 20
    # of the sample say randread and 4k); its figures stay those of line 37: 10102.601156 IOPS.
    text = FIO.read_text().replace('"rw" : "randread"', '"rw" : "randrw", "rwmixread" : "67"')
    oltp = tmp_path / "oltp-8k.json"
    oltp.write_text(text.replace('"bs" : "4k"', '"bs" : "8k"'))
    lab = System.objects.create(name="Lab array", published=True)
    labels = {"raid_level": "5", "drive_count": 140, "read_cache": False, "write_cache": False}
    upload = store_file(oltp, system=lab, labels=labels)
    assert upload.status == "done", upload.error

    result = comparison(
        a=lab, b=demo["IBM DS4500"], query=ComparisonQuery(threshold_ms=20, both_sides=SideFilters(raid_level="RAID-5"))
    )
    (oltp_8k,) = [w for w in result.workloads if w.workload == "OLTP 8K"]
    assert oltp_8k.matched_by == "same workload: read %, random % and transfer sizes"
    (row,) = oltp_8k.rows
    # Seed 000 Table 1, RAID-5, 140 HDDs, All Caches Disabled, OLTP 8K: 15,025 IOPS.
    assert (row.label, row.a_value, row.b_value) == ("RAID-5, 140 drives, All Caches Disabled", 10102.601156, 15025)
    assert row.pct == pytest.approx((10102.601156 - 15025) / 15025 * 100)
    assert Run.objects.get(upload=upload).workload.names == ["OLTP 8K", "FIOJOB"]


def test_spellings_of_one_raid_level_from_the_command_line_and_the_form_are_one_configuration(db, data_dir):
    lab = System.objects.create(name="Lab array", published=True)
    call_command("ingest", str(FIO), "--system", "Lab array", "--config", "raid_level=raid5", stdout=io.StringIO())
    store_file(stream=io.BytesIO(FIO.read_bytes() + b"\n"), name="again.json", system=lab, labels={"raid_level": "5"})
    assert list(Config.objects.values_list("raid_level", flat=True)) == ["RAID-5"]
    assert Run.objects.filter(config__raid_level="RAID-5").count() == 2


def test_two_named_workloads_can_be_paired_by_hand(demo, client):
    # Random Reads 8K against Random Reads 4K is no same-workload match; paired by hand it is compared.
    page = client.get(
        "/compare/",
        {"a": "IBM DS4500", "b": "IBM DS4400", "pair": "Random Reads 4K | Random Reads 8K", "raid_level": "RAID-5"},
    ).content.decode()
    assert '<h2 id="w1">Random Reads 4K vs Random Reads 8K</h2>' in page
    assert "Matched paired by hand." in page


def test_runs_whose_files_do_not_say_what_they_do_are_matched_by_name_and_the_page_says_so(db, client):
    for name in ("Array A", "Array B"):
        system = System.objects.create(name=name, published=True)
        config = Config.objects.create(system=system, raid_level="RAID 5", drive_count=8)
        run = Run.objects.create(config=config, name="rd1", tool="vdbench", workload_name="rd1")
        run.points.create(seq=0, iops=1000 if name == "Array A" else 800, avg_response_ms=5)
    page = client.get("/compare/", {"a": "Array A", "b": "Array B"}).content.decode()
    assert "Matched by name only: the files do not say what the workload does." in page
    # One point each at 5 ms: both figures are lower bounds at 20 ms, so no difference is stated.
    assert '<td class="num">≥ 1,000</td><td class="num">≥ 800</td>' in page
    assert '<td class="num pct">–</td>' in page and "25.0 %" not in page


def test_pages_say_how_a_figure_was_read_in_words_and_mark_figures_published_at_another_threshold(demo, client):
    ds4500 = demo["IBM DS4500"]
    page = client.get(f"/systems/{ds4500.id}/").content.decode()
    assert "<td>published figure</td>" in page and "single_point" not in page
    # Seed 000 states its figures at 20 ms (line 131); shown at 30 ms they are marked, in the table and the export.
    query = {"a": "IBM DS4500", "b": "IBM DS4400", "threshold_ms": "30", "workload": "Random Reads 8K"}
    page = client.get("/compare/", query).content.decode()
    assert "IBM DS4500: published at 20 ms, shown as published; IBM DS4400: published at 20 ms" in page
    exported = client.get("/export/comparison/", {**query, "format": "csv"}).content.decode()
    assert "IBM DS4500: published at 20 ms, shown as published" in exported


def test_run_pages_name_the_paper_by_its_title_and_head_columns_in_words(demo, client, data_dir):
    published = Run.objects.filter(citation_document="000_f52f16ce4c762121.txt", points__avg_response_ms__isnull=False)
    page = client.get(f"/runs/{published.first().id}/").content.decode()
    # 000_f52f16ce4c762121.txt line 5, the paper's heading.
    title = "Comparison of the Performance of the DS4500 (FAStT900) and DS4400 (FAStT700) Storage Servers"
    assert f"<cite>{title} (IBM white paper)</cite>" in page
    assert '<th scope="col" class="num">Average response time (ms)</th>' in page
    lab = System.objects.create(name="Lab array", published=True)
    measured = store_file(FIO, system=lab)
    page = client.get(f"/runs/{measured.runs.get().id}/").content.decode()
    assert '<th scope="col" class="num">Outstanding I/Os</th>' in page
    assert '<th scope="col" class="num">Threads</th>' in page
    assert "avg_response_ms" not in page and "outstanding_io" not in page


def test_a_vdbench_8k_random_read_meets_the_ds4500s_random_reads_8k(demo, data_dir, client):
    # vdbenchexplorer_flatfile_kstat.html line 81: rd random_read_max_8k, xfersize 8192, rdpct 100, seekpct 100.
    path = sample("vdbench", "vdbenchexplorer_flatfile_kstat.html")
    lab = System.objects.create(name="Lab array", published=True)
    upload = store_file(path, system=lab, labels={"raid_level": "RAID 5", "drive_count": 140})
    assert upload.status == "done", upload.error
    result = comparison(
        a=lab, b=demo["IBM DS4500"], query=ComparisonQuery(threshold_ms=20, both_sides=SideFilters(raid_level="RAID-5"))
    )
    (random_reads,) = [w for w in result.workloads if w.workload == "Random Reads 8K"]
    assert random_reads.matched_by == "same workload: read %, random % and transfer sizes"
    run = Run.objects.get(upload=upload, name__contains="random_read_max_8k")
    page = " ".join(client.get(f"/runs/{run.id}/").content.decode().split())
    assert "<dd>100 % read, 100 % random</dd>" in page
    assert "<dd>Random Reads 8K (also stored as " in page
