"""Uploads through the API go through the upload page's pipeline: kept, read by a real worker, followed."""

import contextlib
import io

import pytest

from portal.models import Config, Upload
from tests.api.conftest import error_of, follow
from tests.factories import SystemFactory
from tests.samples import sample

IOMETER = sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv")
FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")
DISKSPD = sample("diskspd", "pkb_diskspd-2.0.21a_result.xml")
FIO_FAILED = sample("fio", "fioplot_fio-3.33_write-64-1_error-prefix.json")


def post(client, paths, **labels):
    with contextlib.ExitStack() as stack:
        files = [stack.enter_context(open(path, "rb")) for path in paths]
        return client.post("/api/v1/uploads/", {"files": files, **labels})


@pytest.mark.worker
def test_three_sample_files_are_read_and_followed_to_done(worker, api, lab):
    SystemFactory(name="IBM DS4500", team=lab)
    response = post(
        api, [IOMETER, FIO, DISKSPD, FIO_FAILED],
        system="IBM DS4500", raid_level="RAID 5", drive_count="14", write_cache="on", tags="lab 3, nightly",
    )  # fmt: skip
    assert response.status_code == 202
    received = response.json()["uploads"]
    assert [row["name"] for row in received] == [p.name for p in (IOMETER, FIO, DISKSPD, FIO_FAILED)]
    # Each file's status when the answer is written: queued, unless one of the two worker processes has
    # already taken it (the answer is read after the jobs are sent).
    assert {row["status"] for row in received} <= {"queued", "parsing", "done", "failed"}
    assert received[0]["url"] == f"http://testserver/api/v1/uploads/{received[0]['id']}/"

    rows = follow(api, [row["id"] for row in received])
    iometer, fio, diskspd, failed = (rows[row["id"]] for row in received)
    assert [row["status"] for row in (iometer, fio, diskspd)] == ["done", "done", "done"]
    assert (iometer["format"], len(iometer["runs"]), len(iometer["warnings"])) == ("iometer", 11, 4)
    # The tool by name, as the upload pages and status.json name it, beside the format's id
    assert [(row["format"], row["tool"]) for row in (iometer, fio, diskspd)] == [
        ("iometer", "Iometer"),
        ("fio", "fio"),
        ("diskspd", "DiskSpd"),
    ]
    assert iometer["system"]["name"] == "IBM DS4500" and iometer["labels"]["tags"] == ["lab 3", "nightly"]
    # The fio job failed with error 22: the parser names the file and line 11 of the JSON.
    assert failed["status"] == "failed"
    assert (failed["error"]["file"], failed["error"]["line"]) == (FIO_FAILED.name, 11)
    assert "job '1m' failed with error 22" in failed["error"]["message"]

    # The list filters by the files' format; ?format= stays the answer's format (json), not a filter.
    ids = ",".join(str(row["id"]) for row in received)
    listed = api.get(f"/api/v1/uploads/?ids={ids}&file_format=fio").json()["results"]
    assert sorted(row["name"] for row in listed) == sorted([FIO.name, FIO_FAILED.name])
    assert api.get(f"/api/v1/uploads/?ids={ids}&format=json").json()["count"] == 4

    detail = api.get(iometer["url"]).json()
    email = next(run for run in detail["runs"] if run["name"] == "Email Server - R60 W40- RND- 4K")
    run = api.get(email["url"]).json()
    assert (run["tool"], run["config"]["raid_level"], run["config"]["drive_count"]) == ("Iometer", "RAID-5", 14)
    assert (run["config"]["write_cache"], run["tags"]) == (True, ["lab 3", "nightly"])
    # Iometer results.csv line 59, the ALL row of "Email Server - R60 W40- RND- 4K": IOps, MBps (decimal), avg ms.
    point = api.get(f"/api/v1/points/?run={run['id']}").json()["results"][0]
    assert (point["iops"], point["mbps"], point["avg_response_ms"]) == (248636.698001, 1018.415915, 0.007959)
    # fio JSON line 37 "iops" : 10102.601156.
    fio_run = api.get(fio["runs"][0]["url"]).json()
    assert api.get(f"/api/v1/points/?run={fio_run['id']}").json()["results"][0]["iops"] == 10102.601156
    assert Config.objects.filter(system__name="IBM DS4500").count() == 1


def test_labels_are_checked_as_the_upload_page_checks_them(api, lab):
    no_files = api.post("/api/v1/uploads/", {"drive_count": "14"})
    assert (no_files.status_code, error_of(no_files)["fields"]) == (400, {"files": ["Choose at least one file."]})

    bad = post(api, [FIO], drive_count="0", write_cache="sometimes")
    assert bad.status_code == 400
    fields = error_of(bad)["fields"]
    assert fields["drive_count"] == ["Ensure this value is greater than or equal to 1."]
    assert "write_cache" in fields

    both = post(api, [FIO], system=str(SystemFactory(team=lab).id), new_system_name="HP EVA")
    assert error_of(both)["message"] == "Choose an existing system or describe a new one, not both."

    unknown = post(api, [FIO], colour="blue", system="IBM DS9999")
    assert set(error_of(unknown)["fields"]) == {"colour"}
    nameless = post(api, [FIO], system="IBM DS9999")
    assert "no system named 'IBM DS9999'" in error_of(nameless)["message"]
    label = post(api, [FIO], prefetch="maybe")
    assert error_of(label)["fields"] == {"prefetch": ["prefetch='maybe' is not a valid value"]}
    assert Upload.objects.count() == 0


def test_a_json_body_that_is_not_an_object_is_refused_with_a_sentence(api):
    # JSON is accepted for the labels; a list in place of the object of labels is not a 500.
    listed = api.post("/api/v1/uploads/", [{"drive_count": "14"}], format="json")
    assert (listed.status_code, error_of(listed)["fields"]) == (
        400,
        {"files": ["Send the files as multipart/form-data, the labels as its other fields."]},
    )
    assert Upload.objects.count() == 0


def test_files_over_the_size_limit_are_refused(settings, api, data_dir):
    settings.MAX_UPLOAD_MB = 0
    refused = post(api, [FIO])
    assert refused.status_code == 413
    assert error_of(refused)["message"].startswith(f"{FIO.name}: larger than 0 MB, the largest file accepted here")
    assert Upload.objects.count() == 0

    settings.MAX_UPLOAD_MB = 1
    big = io.BytesIO(b"x" * (1024 * 1024 + 1))
    big.name = "huge.csv"
    with open(FIO, "rb") as small:
        partly = api.post("/api/v1/uploads/", {"files": [small, big]})
    assert partly.status_code == 202
    assert [row["name"] for row in partly.json()["uploads"]] == [FIO.name]
    assert partly.json()["refused"][0]["name"] == "huge.csv"


def test_labels_the_page_does_not_show_are_taken_too(api, data_dir):
    response = post(api, [FIO], new_system_name="NetApp E5700", host_os="RHEL 9", drives_per_array="12")
    assert response.status_code == 202
    upload = Upload.objects.get()
    assert upload.labels == {"host_os": "RHEL 9", "drives_per_array": 12, "measurement": "end_to_end"}
    assert upload.job.new_system == {"name": "NetApp E5700", "vendor": "", "model": ""}
