"""In a real Chromium: an engineer uploads 37 of the 49 files of fio-plot's P420i RAID-0 4x SSD randread
grid (samples/fio-grids), leaving twelve cells out, 1 x 1 and 2 x 2 among them, and opens the prediction
page. The only complete row and column, through queue depth 8 and 8 jobs, are the focal point's; they span
8 to 512 outstanding I/Os, so the 1 x 1 cell (one outstanding I/O) is extrapolated 8 times below them and
states the band of that kind (python -m tests.sizing_eval: median 13.9 %, 90th percentile 59.8 %, worst
96.9 %), never the interpolated one.
The API and ``manage.py predict`` give the same cells, kinds and bands.
"""

import io
import json
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.api.test_predict import BELOW_BAND, LEFT_OUT, P420I
from tests.factories import SystemFactory
from tests.samples import sample
from tests.uploads.test_browser import sign_in, upload_files

ONE_BY_ONE = (
    "extrapolated below (1 outstanding I/O, 8 times below the sweeps' lowest, 8); error of this kind on the"
    " shared grids: median 13.9 %, 90th percentile 59.8 %, worst 96.9 %"
)


@pytest.fixture
def p420i(transactional_db, lab):
    return SystemFactory(name="HP DL380 G8 P420i", team=lab, published=False)


def partial_grid_files():
    files = []
    for path in sorted(sample("fio-grids", P420I).glob("randread-*.json")):
        depth, jobs = (int(n) for n in path.stem.split("-")[1:])
        if (depth, jobs) not in LEFT_OUT:
            files.append(str(path))
    return files


@pytest.mark.browser
@pytest.mark.worker
def test_the_prediction_page_marks_a_cell_below_the_sweeps_extrapolated(
    worker, live_server, engineer, p420i, browser_page
):
    page = browser_page.page
    sign_in(page, live_server)
    files = partial_grid_files()
    assert len(files) == 37
    upload_files(page, files, system="HP DL380 G8 P420i (private)")
    # The files of one fio sweep are read together: one upload holds the run and its 37 points.
    holder = page.locator(
        "#upload-table tbody td.status", has_text=re.compile(r"done HP DL380 G8 P420i, 1 run, 37 points")
    )
    expect(holder).to_have_count(1, timeout=120_000)

    page.goto(f"{live_server.url}/systems/{p420i.id}/predict/")
    page.locator("#grid-runs a").first.click()
    rows = page.locator("#prediction tbody tr")
    expect(rows).to_have_count(36)
    table = {}
    for row in rows.all():
        depth, jobs, text, kind = row.locator("td").all_inner_texts()
        table[(float(depth), float(jobs))] = (text, kind)
    assert table[(1, 1)][1] == ONE_BY_ONE
    assert table[(1, 1)][0].endswith("(not measured)")
    assert table[(64, 1)][1].startswith("interpolated (64 outstanding I/Os, within the sweeps' 8 to 512);")
    one_row = page.locator("#prediction tbody tr.extrapolated-below").filter(has_text=ONE_BY_ONE)
    expect(one_row).to_have_count(1)
    run_id = int(re.search(r"run=(\d+)", page.url).group(1))

    api = page.request.get(f"{live_server.url}/api/v1/predict/?run={run_id}").json()
    assert {(c["queue_depth"], c["jobs"]): c["kind_text"] for c in api["cells"]} == {
        cell: kind for cell, (_, kind) in table.items()
    }
    one = next(c for c in api["cells"] if (c["queue_depth"], c["jobs"]) == (1, 1))
    assert (one["kind"], one["band"]) == ("extrapolated below", BELOW_BAND)
    out = io.StringIO()
    call_command("predict", str(run_id), "--json", "--as", "engineer", stdout=out)
    assert json.loads(out.getvalue())["cells"] == api["cells"]
    assert browser_page.problems == []
