"""``python -m ingest push`` against a live portal and a real worker, as a lab script runs it."""

import subprocess
import sys

import pytest

from portal.api.auth import token_create
from portal.models import Point, Run
from tests.samples import REPO, sample

IOMETER = sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv")
FIO_FAILED = sample("fio", "fioplot_fio-3.33_write-64-1_error-prefix.json")


def push(url, *args):
    command = [sys.executable, "-m", "ingest", "push", url, *map(str, args)]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)


@pytest.mark.worker
def test_a_lab_script_pushes_results_and_reads_them_back(worker, live_server, engineer):
    _, token = token_create(user=engineer, name="lab 3")
    pushed = push(
        live_server.url, IOMETER, FIO_FAILED, "--token", token, "--system", "IBM DS4500",
        "--config", "raid_level=RAID-5", "--config", "drive_count=140", "--config", "write_cache=on",
    )  # fmt: skip
    assert pushed.returncode == 1, pushed.stderr  # one of the two files failed
    stored, failed = pushed.stdout.splitlines()
    assert stored.startswith(f"stored     {IOMETER.name}: iometer, 11 runs ({live_server.url}/uploads/")
    assert failed.startswith(f"failed     {FIO_FAILED.name}:11: no usable fio results: job '1m' failed with error 22")

    # Iometer results.csv line 59, the ALL row of "Email Server - R60 W40- RND- 4K": 248,636.698001 IOPS.
    email = Run.objects.get(name="Email Server - R60 W40- RND- 4K")
    assert (email.config.system.name, email.config.raid_level, email.config.drive_count) == (
        "IBM DS4500",
        "RAID-5",
        140,
    )
    assert Point.objects.get(run=email).iops == 248636.698001

    again = push(live_server.url, IOMETER, "--token", token)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(f"duplicate  {IOMETER.name}: already stored as upload #")


def test_push_says_what_is_wrong(live_server, engineer):
    refused = push(live_server.url, IOMETER, "--token", "abt_not-a-token")
    assert refused.returncode == 1
    assert refused.stderr == f"push: POST {live_server.url}/api/v1/uploads/: 401 Invalid or revoked token.\n"
    _, token = token_create(user=engineer, name="lab 3")
    bad_label = push(live_server.url, IOMETER, "--token", token, "--config", "drive_count=many")
    assert "400 drive_count: Enter a whole number." in bad_label.stderr
    assert (
        push(live_server.url, "no-such-file.csv", "--token", token).stderr
        == "push: no-such-file.csv: no such file or folder\n"
    )
    assert push(live_server.url, IOMETER).returncode == 2
