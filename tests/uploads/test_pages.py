"""The upload pages without a worker: who may do what, limits, labels, originals, escaping."""

import io

import pytest
from django.contrib.auth import get_user_model

from ingest import parse_paths
from portal.models import Config, Role, Run, System, Upload
from portal.uploads.services import upload_create
from tests.conftest import team_member
from tests.factories import SystemFactory
from tests.ingesting import run_job_of
from tests.samples import sample
from tests.uploads.conftest import post_files

IOMETER = sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv")
pytestmark = pytest.mark.django_db


def named(content, name):
    file = io.BytesIO(content)
    file.name = name
    return file


def test_anonymous_reads_the_list_but_cannot_upload(client, data_dir):
    page = client.get("/uploads/")
    assert page.status_code == 200
    assert "Sign in</a> to upload result files" in page.content.decode()

    response = post_files(client, [IOMETER])
    assert response.status_code == 403
    assert response.json() == {"error": {"status": 403, "message": "Sign in to upload files.", "fields": {}}}
    assert Upload.objects.count() == 0
    assert not (data_dir / "uploads").exists()


def test_each_file_is_queued_once_on_commit_with_its_labels(
    signed_in, engineer, data_dir, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = post_files(
            signed_in,
            [IOMETER, sample("fio", "fioplot_fio-3.34_randread-1-1.json")],
            new_system_vendor="IBM",
            new_system_model="DS4500",
            raid_level="RAID 5",
            drive_count="14",
            drive_type="HDD",
            drive_rpm="15000",
            write_cache="true",
            read_cache="false",
            stroke_pct="8",
            measurement="cache_only",
            tags="lab, 2024 ",
            notes="firmware 6.12",
        )
    assert response.status_code == 201
    rows = response.json()["uploads"]
    assert [(row["name"], row["status"]) for row in rows] == [
        ("maluramichael_results_1.1.0_network_emptyruns.csv", "queued"),
        ("fioplot_fio-3.34_randread-1-1.json", "queued"),
    ]
    assert len(callbacks) == 2  # one job per file, sent only after the rows are committed
    # The new system is created when the results are stored, so a file that fails leaves none behind.
    assert not System.objects.exists()
    upload = Upload.objects.get(original_name=rows[0]["name"])
    assert upload.job.new_system == {"vendor": "IBM", "model": "DS4500", "name": ""}
    run_job_of(upload)
    system = System.objects.get()
    assert (system.name, system.vendor, system.model) == ("IBM DS4500", "IBM", "DS4500")
    upload.refresh_from_db()
    assert upload.uploader == engineer
    assert upload.system == system
    assert upload.labels == {
        "raid_level": "RAID 5",
        "drive_count": 14,
        "drive_type": "HDD",
        "drive_rpm": 15000,
        "stroke_pct": 8.0,
        "read_cache": False,
        "write_cache": True,
        "measurement": "cache_only",
        "tags": ["lab", "2024"],
        "notes": "firmware 6.12",
    }
    assert (data_dir / "uploads" / upload.stored_path).read_bytes() == IOMETER.read_bytes()


def test_an_oversized_file_is_refused_before_it_is_stored(signed_in, settings, data_dir):
    settings.MAX_UPLOAD_MB = 1
    response = post_files(signed_in, [named(b"x" * (1024 * 1024 + 1), "huge_results.csv")])
    assert response.status_code == 400
    assert response.json()["refused"] == [
        {
            "name": "huge_results.csv",
            "error": "huge_results.csv: larger than 1 MB, the largest file accepted here; "
            "split the results, or ask the administrator to raise MAX_UPLOAD_MB",
        }
    ]
    assert Upload.objects.count() == 0
    assert list((data_dir / "uploads").glob("*/*")) == []


def test_the_same_file_again_is_a_duplicate_of_the_first_and_not_queued(
    signed_in, lab, data_dir, django_capture_on_commit_callbacks
):
    system = SystemFactory(team=lab)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = post_files(signed_in, [IOMETER], system=system.id).json()["uploads"][0]
        second = post_files(signed_in, [IOMETER], system=system.id).json()["uploads"][0]
    assert len(callbacks) == 1
    assert second["status"] == "duplicate"
    assert second["duplicate_of"] == {"id": first["id"], "url": f"/uploads/{first['id']}/"}
    page = signed_in.get("/uploads/").content.decode()
    assert f'of <a href="/uploads/{first["id"]}/">upload #{first["id"]}</a>' in page


def test_choosing_a_system_and_describing_a_new_one_is_refused(signed_in, lab, data_dir):
    system = SystemFactory(team=lab)
    response = post_files(signed_in, [IOMETER], system=system.id, new_system_name="Another array")
    assert response.status_code == 400
    assert response.json()["error"]["message"] == ("Choose an existing system or describe a new one, not both.")
    assert Upload.objects.count() == 0


def test_originals_are_attachments_for_signed_in_users_only(client, signed_in, engineer, data_dir):
    html = b"<html><script>alert(1)</script></html>"
    upload = upload_create(stream=io.BytesIO(html), original_name="results.html", uploader=engineer)
    client.logout()
    anonymous = client.get(f"/uploads/{upload.id}/original")
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")

    client.force_login(engineer)
    response = client.get(f"/uploads/{upload.id}/original")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="results.html"'
    assert response["Content-Type"] == "application/octet-stream"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert b"".join(response.streaming_content) == html


def test_user_supplied_text_is_shown_as_text(signed_in, engineer, data_dir):
    upload = upload_create(stream=io.BytesIO(b"x"), original_name="<img src=x onerror=alert(1)>.csv", uploader=engineer)
    Upload.objects.filter(id=upload.id).update(status=Upload.Status.FAILED, error="<b>line 3</b>: bad")
    for url in ("/uploads/", f"/uploads/{upload.id}/"):
        page = signed_in.get(url).content.decode()
        assert "&lt;img src=x onerror=alert(1)&gt;.csv" in page
        assert "&lt;b&gt;line 3&lt;/b&gt;: bad" in page
        assert "<img src=x" not in page
    status = signed_in.get(f"/uploads/status.json?ids={upload.id}")
    assert status["Content-Type"] == "application/json"
    assert status.json()["uploads"][0]["error"] == "<b>line 3</b>: bad"


def test_the_profile_offers_arrays_and_logical_drives_to_prefill(client):
    system = SystemFactory(
        profile={
            "arrays": [{"name": "1", "raid_level": "RAID 5", "drive_count": 8}],
            "volumes": [
                {"name": "Data", "array": "1", "segment_kb": 128, "read_cache": True, "write_cache": True,
                 "write_cache_mirroring": False, "capacity_gb": 1862.5},
            ],
        }
    )  # fmt: skip
    response = client.get(f"/uploads/systems/{system.id}/profile.json")
    assert response.json() == {
        "arrays": [{"name": "1", "raid_level": "RAID 5", "drive_count": 8}],
        "volumes": [
            {"name": "Data", "raid_level": "RAID 5", "drive_count": 8, "segment_kb": 128, "read_cache": True,
             "write_cache": True, "write_cache_mirroring": False},
        ],
    }  # fmt: skip


def test_a_logical_drive_takes_what_it_does_not_state_from_its_array(client):
    system = SystemFactory(
        profile={
            "arrays": [{"name": "1", "raid_level": "RAID 10", "drive_count": 4}],
            "volumes": [{"name": "Logs", "array": "1", "raid_level": None, "segment_kb": 64, "write_cache": None}],
            "drives": [
                *({"location": f"Tray 0, Slot {n}", "array": "1", "mode": "Assigned", "type": "SSD"} for n in range(4)),
                {"location": "Tray 0, Slot 9", "array": "1", "mode": "Hot spare in-use", "type": "HDD"},
            ],
        }
    )
    response = client.get(f"/uploads/systems/{system.id}/profile.json")
    # The spare in use is not a member: the array's four drives are all SSDs.
    assert response.json()["volumes"] == [
        {"name": "Logs", "raid_level": "RAID 10", "drive_count": 4, "drive_type": "SSD", "segment_kb": 64}
    ]


def test_a_real_profile_prefills_arrays_and_volumes(client):
    [result] = parse_paths([sample("profile", "supportbundle_storageArrayProfile6.txt")])
    system = SystemFactory(profile=result["system"])
    choices = client.get(f"/uploads/systems/{system.id}/profile.json").json()
    assert len(choices["arrays"]) == len(choices["volumes"]) == 30
    # Volume 21 (lines 1400-1423) is on volume group 22, whose two drives are 15015 RPM Fibre Channel
    # disks (lines 2093-2101 and 2893-2901); this firmware prints no "Write cache:" line.
    [volume] = [entry for entry in choices["volumes"] if entry["name"] == "21"]
    assert volume == {
        "name": "21",
        "raid_level": "RAID 1",
        "drive_count": 2,
        "drive_type": "HDD",
        "drive_rpm": 15015,
        "segment_kb": 1936,
        "read_cache": True,
        "write_cache_mirroring": False,
    }


def test_only_the_uploader_may_reingest(client, engineer, lab, data_dir):
    upload = upload_create(stream=io.BytesIO(b"x"), original_name="a.csv", uploader=engineer, team=lab)
    Upload.objects.filter(id=upload.id).update(status=Upload.Status.DONE)
    # A member of the team who only uploads: re-ingesting another's file is for maintainers.
    other = get_user_model().objects.create_user("visitor", password="another-pass-77")
    team_member(other, role=Role.UPLOADER)
    client.force_login(other)
    response = client.post(f"/uploads/{upload.id}/reingest", follow=True)
    assert "Only the uploader or a maintainer of the upload&#x27;s team can re-ingest it." in response.content.decode()
    upload.refresh_from_db()
    assert upload.status == Upload.Status.DONE
    assert Run.objects.count() == Config.objects.count() == 0


def test_the_drive_model_capacity_and_host_are_labels_the_form_takes_and_pages_show(signed_in, data_dir, client):
    page = signed_in.get("/uploads/").content.decode()
    for label in ("Drive model", "Drive capacity (GB)", "Host"):
        assert f">{label}</label>" in page
    fio = sample("fio-sweeps", "fioplot_samsung-pm883_randread", "randread-1-1.json")
    response = post_files(
        signed_in,
        [fio],
        new_system_vendor="Samsung",
        new_system_model="PM883",
        drive_count="1",
        drive_type="SSD",
        drive_model=" Samsung   PM883 ",
        drive_capacity_gb="240",
        host_server="HP DL380 G8, H420i",
    )
    assert response.status_code == 201
    upload = run_job_of(Upload.objects.get())
    assert upload.labels["drive_model"] == "Samsung PM883" and upload.labels["drive_capacity_gb"] == 240.0
    config = Run.objects.get(upload=upload).config
    assert (config.drive_model, config.drive_capacity_gb, config.host_server) == (
        "Samsung PM883",
        240.0,
        "HP DL380 G8, H420i",
    )
    system_page = signed_in.get(f"/systems/{config.system_id}/").content.decode()
    assert "Samsung PM883 240 GB" in system_page and "<td>HP DL380 G8, H420i</td>" in system_page
    detail = signed_in.get(f"/uploads/{upload.id}/").content.decode()
    assert "drive model Samsung PM883; drive capacity (GB) 240; host HP DL380 G8, H420i" in detail


def test_the_live_rows_name_the_tool_as_the_page_does(signed_in, engineer, lab, data_dir):
    from tests.ingesting import store_file

    system = SystemFactory(name="Ceph RGW lab", team=lab, published=False)
    upload = store_file(sample("cosbench", "cosbench-workload-summary-w55.csv"), system=system, uploader=engineer)
    assert (upload.status, upload.format) == ("done", "cosbench")
    page = signed_in.get("/uploads/").content.decode()
    assert '<td class="format">COSBench</td>' in page
    (row,) = signed_in.get(f"/uploads/status.json?ids={upload.id}").json()["uploads"]
    assert (row["tool"], row["format"]) == ("COSBench", "cosbench")
