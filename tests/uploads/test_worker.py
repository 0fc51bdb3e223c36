"""Uploads read by a real Celery worker against Redis and the test database."""

import io
import threading
import zipfile

import pytest
from django.db import connections
from django.test import Client

from portal.models import Config, Point, Run
from tests.factories import SystemFactory
from tests.samples import sample
from tests.uploads.conftest import post_files, wait_finished

IOMETER = sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv")
FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")

pytestmark = pytest.mark.worker


def named(content, name):
    file = io.BytesIO(content)
    file.name = name
    return file


def zipped(members, *, compress=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compress) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_two_real_files_are_stored_with_their_figures(worker, signed_in, lab):
    system = SystemFactory(name="IBM DS4500", team=lab)
    response = post_files(
        signed_in, [IOMETER, FIO], system=system.id, raid_level="RAID 5", drive_count="14", write_cache="true"
    )
    assert response.status_code == 201
    ids = [row["id"] for row in response.json()["uploads"]]
    uploads = wait_finished(ids)
    iometer, fio = uploads[ids[0]], uploads[ids[1]]
    assert (iometer.status, iometer.error, iometer.format) == ("done", "", "iometer")
    assert (fio.status, fio.error, fio.format) == ("done", "", "fio")

    # Iometer results.csv line 59, the ALL row of "Email Server - R60 W40- RND- 4K": IOps, MBps (decimal), avg ms.
    email = Point.objects.get(run__upload=iometer, run__name="Email Server - R60 W40- RND- 4K")
    assert (email.iops, email.mbps, email.avg_response_ms) == (248636.698001, 1018.415915, 0.007959)
    # 13 result sections: two empty runs and one without an ALL row are skipped with warnings.
    assert iometer.runs.count() == 11
    assert len(iometer.warnings) == 4
    # fio JSON line 37 "iops" : 10102.601156, line 35 "bw_bytes" : 41380254, line 78 lat_ns mean 96095.658704 ns.
    job = Point.objects.get(run__upload=fio)
    assert (job.iops, job.mbps) == (10102.601156, 41.380254)
    assert job.avg_response_ms == pytest.approx(0.096095658704)

    config = Config.objects.get()
    # "RAID 5" as typed on the form is stored in the one spelling every page and filter uses.
    assert (config.system, config.raid_level, config.drive_count, config.write_cache) == (system, "RAID-5", 14, True)
    status = signed_in.get(f"/uploads/status.json?ids={ids[0]}").json()["uploads"][0]
    assert (status["status_text"], status["run_count"], status["point_count"]) == ("done", 11, 11)
    assert status["system"] == {"id": system.id, "name": "IBM DS4500", "url": f"/systems/{system.id}/"}
    first_run = iometer.runs.order_by("id").first()
    assert status["runs"][0] == {"id": first_run.id, "name": first_run.name, "url": f"/runs/{first_run.id}/"}


def test_reingest_replaces_the_runs_of_the_upload(worker, signed_in, lab):
    system = SystemFactory(team=lab)
    upload_id = post_files(signed_in, [FIO], system=system.id).json()["uploads"][0]["id"]
    wait_finished([upload_id])
    before = list(Run.objects.filter(upload_id=upload_id).values_list("id", flat=True))

    response = signed_in.post(f"/uploads/{upload_id}/reingest", follow=True)
    assert f"Upload #{upload_id} is queued to be read again with the current parser." in response.content.decode()
    wait_finished([upload_id])
    after = list(Run.objects.filter(upload_id=upload_id).values_list("id", flat=True))
    assert len(before) == len(after) == 1 and before != after
    assert Run.objects.count() == 1 and Point.objects.count() == 1


def test_bad_files_fail_with_their_message_and_store_nothing(worker, signed_in, lab):
    system = SystemFactory(team=lab)
    truncated_fio = FIO.read_bytes()[:3000]  # cut inside line 111 ("clat_ns" : ...)
    bomb = zipped({"results.csv": b"0" * 5_000_000})
    escaping = zipped({"../../etc/results.csv": IOMETER.read_bytes()})
    files = {
        "truncated.json": truncated_fio,
        "test.icf": sample("iometer", "kunyi0605_RND4K_Q32T8_READ_1.1.0.icf").read_bytes(),
        "bomb.zip": bomb,
        "escaping.zip": escaping,
        "notes.bin": b"\x00\x01 not a benchmark",
    }
    rows = post_files(signed_in, [named(content, name) for name, content in files.items()], system=system.id)
    ids = {row["name"]: row["id"] for row in rows.json()["uploads"]}
    uploads = wait_finished(list(ids.values()))
    errors = {name: uploads[upload_id].error for name, upload_id in ids.items()}
    assert {uploads[upload_id].status for upload_id in ids.values()} == {"failed"}

    assert errors["truncated.json"] == (
        "truncated.json:111: column 21: not valid JSON (Expecting value); the fio output may be truncated"
    )
    assert errors["test.icf"].startswith(
        "test.icf: this is an Iometer configuration file (.icf, Version 1.1.0): it holds test settings and no results."
    )
    assert errors["bomb.zip"].startswith("bomb.zip: archive member 'results.csv' expands ")
    assert errors["bomb.zip"].endswith(" times (limit 200); refusing a possible zip bomb")
    assert errors["escaping.zip"] == (
        "escaping.zip: archive member '../../etc/results.csv' points outside the archive ('..'); refusing it"
    )
    assert errors["notes.bin"].startswith(
        "notes.bin:1: not a recognised result file (it begins '?? not a benchmark'); ArrayBench reads: "
        "Iometer (iometer),"
    )
    assert Run.objects.count() == Point.objects.count() == Config.objects.count() == 0
    page = signed_in.get("/uploads/").content.decode()
    assert "points outside the archive (&#x27;..&#x27;); refusing it" in page


def test_twenty_concurrent_uploads_are_each_stored_once(worker, signed_in, engineer, lab):
    system = SystemFactory(team=lab)
    # Twenty different files (the sample with 0..19 trailing newlines): same figures, different sha256.
    contents = [FIO.read_bytes() + b"\n" * n for n in range(20)]
    answers = [None] * 20

    def post(index):
        client = Client()
        client.force_login(engineer)
        try:
            answers[index] = post_files(client, [named(contents[index], f"randread-{index:02}.json")], system=system.id)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(index,)) for index in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answer.status_code for answer in answers] == [201] * 20
    ids = [answer.json()["uploads"][0]["id"] for answer in answers]
    uploads = wait_finished(ids, seconds=90)
    assert sorted(upload.status for upload in uploads.values()) == ["done"] * 20
    assert sorted(Run.objects.values_list("upload_id", flat=True)) == sorted(ids)
    assert Point.objects.count() == 20
    assert set(Point.objects.values_list("iops", flat=True)) == {10102.601156}
