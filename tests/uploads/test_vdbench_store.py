"""Storing a vdbench output folder: its summary, totals and flatfile reports are one result, each RD once."""

import pytest

from portal.models import Point, Run, Upload
from tests.ingesting import ingest_command
from tests.samples import SAMPLES_DIR, sample

pytestmark = pytest.mark.django_db

REPORTS = {
    "summary.html": sample("vdbench", "jiaoben_fsd_summary.html"),
    "totals.html": sample("vdbench", "jiaoben_fsd_totals.html"),
    "flatfile.html": sample("vdbench", "jiaoben_fsd_flatfile.html"),
}


@pytest.fixture
def output_folder(tmp_path):
    """A vdbench output folder as vdbench names its reports (links to the shared samples)."""
    folder = tmp_path / "output"
    folder.mkdir()
    for name, path in REPORTS.items():
        (folder / name).symlink_to(path)
    return folder


def test_an_output_folder_stores_each_rd_once(data_dir, output_folder):
    status, out = ingest_command(output_folder, "--system", "Lab NAS")
    assert status == 0, out
    assert "3 files: 3 stored or already stored, 0 failed" in out
    # summary.html lines 26 and 34 start RD=format_for_rd1 and RD=rd1; each has one avg_ line
    assert sorted(Run.objects.values_list("name", flat=True)) == ["format_for_rd1", "rd1"]
    assert Point.objects.count() == 2
    assert Upload.objects.filter(status=Upload.Status.DONE).count() == 3
    # flatfile.html line 78: rd1 avg_2-20 rate 11471.3000; summary.html line 59: cpu% total 5.2
    point = Point.objects.get(run__name="rd1")
    assert point.iops == 11471.3 and point.cpu_pct == 5.2


def test_the_samples_folder_stores_each_run_once(data_dir):
    status, out = ingest_command(SAMPLES_DIR / "vdbench", "--system", "Lab NAS")
    # vdbenchshow_fsd_summary.html was aborted before its first avg_ line: it fails alone
    assert status == 1
    assert "failed     vdbenchshow_fsd_summary.html" in out
    assert "5 files: 4 stored or already stored, 1 failed" in out
    # jiaoben_fsd_{summary,totals,flatfile}.html: 2 RDs (6 runs when each report was stored apart);
    # vdbenchexplorer_flatfile_kstat.html: 8 RDs
    assert Run.objects.count() == 10
    assert Run.objects.filter(name="rd1").count() == 1
    assert Run.objects.filter(name="format_for_rd1").count() == 1
