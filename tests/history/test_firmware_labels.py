"""Firmware as a label: from the upload form and the command line, else from the array profile."""

from portal.models import Run, System, Upload
from tests.ingesting import ingest_command, run_job_of, store_file
from tests.samples import sample
from tests.uploads.conftest import post_files

from .conftest import fio_file

PROFILE = sample("profile", "supportbundle_storageArrayProfile.txt")


def test_runs_without_a_firmware_label_take_the_array_profiles(engineer, lab):
    store_file(PROFILE, uploader=engineer)
    system = System.objects.get(name="DAMC001-1-7")
    assert system.firmware == "07.75.36.30"
    store_file(stream=fio_file(1.0, hours_later=1), name="randread.json", system=system, uploader=engineer)
    store_file(
        stream=fio_file(1.0, hours_later=2), name="randread-new.json", system=system, uploader=engineer,
        labels={"firmware": "07.86.10.00"},
    )  # fmt: skip
    assert sorted(Run.objects.filter(config__system=system).values_list("firmware", flat=True)) == [
        "07.75.36.30",
        "07.86.10.00",
    ]


def test_the_upload_form_takes_a_firmware_label(engineer, lab):
    from django.test import Client

    client = Client()
    client.force_login(engineer)
    page = client.get("/uploads/").content.decode()
    assert 'name="firmware"' in page
    response = post_files(
        client, [sample("fio", "fioplot_fio-3.34_randread-1-1.json")], new_system_name="IBM DS5020",
        firmware=" 07.15.07.00 ",
    )  # fmt: skip
    assert response.status_code == 201
    upload = Upload.objects.get()
    assert upload.labels["firmware"] == "07.15.07.00"
    run_job_of(upload)
    assert list(Run.objects.values_list("firmware", flat=True)) == ["07.15.07.00"]


def test_manage_py_ingest_takes_firmware_as_a_config_label(engineer, lab, data_dir):
    status, printed = ingest_command(
        sample("fio", "fioplot_fio-3.34_randread-1-1.json"), "--system", "IBM DS5020", "--team", lab.slug,
        "--config", "firmware=8.10.0",
    )  # fmt: skip
    assert status == 0, printed
    assert list(Run.objects.values_list("firmware", flat=True)) == ["8.10.0"]
