"""The object-store, file-system and file-server benchmarks' results stored through the upload service,
figure for figure as their files state them."""

import pytest
from django.urls import reverse

from portal.models import Run, Upload
from tests.factories import SystemFactory
from tests.ingesting import store_file
from tests.samples import sample

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "runs", "workload", "figure", "expected"),
    [
        # specsfs2014-pkb-summary.xml line 6: achieved rate 500.05 ops/s.
        (sample("specsfs", "specsfs2014-pkb-summary.xml"), 1, "SWBUILD", "iops", 500.05),
        # bonnie-1.96-pkb-csv.txt field 18: 537.7 random seeks/s.
        (sample("bonnie++", "bonnie-1.96-pkb-csv.txt"), 10, "Random seeks", "iops", 537.7),
        # fsmark-3.3-lkp.txt line 12: Average Files/sec 8324.0.
        (sample("fsmark", "fsmark-3.3-lkp.txt"), 1, "File create", "iops", 8324.0),
        # cosbench-workload-summary-w55.csv line 3 (the first read row): Avg-ResTime 2.75 ms.
        (sample("cosbench", "cosbench-workload-summary-w55.csv"), 32, "read", "avg_response_ms", 2.75),
    ],
    ids=["specsfs", "bonnie", "fsmark", "cosbench"],
)
def test_each_file_is_stored_with_its_runs_and_figures(client, path, runs, workload, figure, expected):
    upload = store_file(path, system=SystemFactory(name="Filer under test"))
    assert upload.status == Upload.Status.DONE, upload.error
    stored = Run.objects.filter(upload=upload).order_by("id")
    assert stored.count() == runs
    run = next(run for run in stored if run.workload_name == workload)
    assert getattr(run.points.order_by("id").first(), figure) == pytest.approx(expected)
    page = client.get(reverse("pages:run", args=[run.id]))
    assert page.status_code == 200
    assert run.name in page.content.decode()


def test_an_object_stores_curve_is_drawn_in_object_operations_not_iops(client):
    upload = store_file(sample("cosbench", "cosbench-workload-summary-w55.csv"), system=SystemFactory(name="Objects"))
    # cosbench-workload-summary-w55.csv line 4: s2 write, 18.58 op/s at 32.25 ms.
    run = Run.objects.get(upload=upload, name="s2-w(4)KB_c1_o1000_r80w15d5_1: write")
    chart = client.get(f"/runs/{run.id}/charts/curve.json").json()
    assert chart["layout"]["xaxis"]["title"]["text"] == "object ops/s"
    assert chart["data"][0]["x"] == [18.58]
