"""What reading a cut file said is shown where its figures are read: the upload row, the run page, the API."""

import io

from portal.models import Run, System
from tests.ingesting import store_file
from tests.samples import sample

NETWORK = sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv")
# Test 2 starts on line 29 and its results headed on line 161 run past line 171: a copy cut after line 171.
CUT_WARNING = (
    f"{NETWORK.name}:171: the file ends before the 'End Test line of test 2 (line 29), which Iometer writes after "
    "every test: it looks cut short here, and whatever the test wrote after this line is missing"
)


def test_a_cut_files_warning_is_on_its_upload_row_its_runs_pages_and_the_api(db, data_dir, engineer, lab, api, client):
    cut = b"".join(NETWORK.read_bytes().splitlines(keepends=True)[:171])
    system = System.objects.create(name="Network lab array", team=lab)
    upload = store_file(stream=io.BytesIO(cut), name=NETWORK.name, system=system, uploader=engineer)
    assert upload.status == "done", upload.error
    assert CUT_WARNING in upload.warnings
    runs = list(Run.objects.filter(upload=upload).order_by("id"))
    assert len(runs) == 4  # of the intact file's 11
    client.force_login(engineer)
    row = client.get("/uploads/").content.decode()
    assert f"{len(upload.warnings)} warnings</a>" in row
    page = client.get(f"/runs/{runs[0].id}/").content.decode()
    assert "What reading the file said" in page
    assert CUT_WARNING.replace("'", "&#x27;") in page
    assert CUT_WARNING in api.get(f"/api/v1/runs/{runs[0].id}/").json()["file_warnings"]
    assert CUT_WARNING in api.get(f"/api/v1/uploads/{upload.id}/").json()["warnings"]
