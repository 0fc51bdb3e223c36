"""Firmware histories made from a real fio sample: the same suite measured under several firmware versions."""

import io
import re

import pytest

from portal.models import Role, System
from tests.conftest import team_member
from tests.ingesting import store_file
from tests.samples import sample

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")
# The sample's measured IOPS (jobs[0].read.iops) and bandwidth (KiB/s).
SAMPLE_IOPS = 10102.601156
# Each version's three replicates: run-to-run noise of about 1 %.
REPLICATES = (1.0, 1.01, 0.99)


SAMPLE_TIMESTAMP = 1680135576


# The sample's mean read latency (jobs[0].read.lat_ns.mean), ns.
SAMPLE_LATENCY_NS = 96095.658704


def fio_file(factor: float, *, hours_later: int, latency: float = 1.0) -> io.BytesIO:
    """The fio sample with its measured read IOPS and bandwidth multiplied by ``factor`` and its mean
    latency by ``latency``, run ``hours_later`` hours after the sample was."""
    text = FIO.read_text()
    text = text.replace(f'"mean" : {SAMPLE_LATENCY_NS:.6f}', f'"mean" : {SAMPLE_LATENCY_NS * latency:.6f}', 1)
    later = SAMPLE_TIMESTAMP + hours_later * 3600
    text = text.replace(f'"timestamp" : {SAMPLE_TIMESTAMP},', f'"timestamp" : {later},', 1)
    text = text.replace(f'"timestamp_ms" : {SAMPLE_TIMESTAMP}805,', f'"timestamp_ms" : {later}805,', 1)
    text = text.replace(f'"iops" : {SAMPLE_IOPS:.6f}', f'"iops" : {SAMPLE_IOPS * factor:.6f}', 1)
    text = re.sub(r'"bw" : 40410\b', f'"bw" : {round(40410 * factor)}', text, count=1)
    return io.BytesIO(text.encode())


def upload_version(system: System, firmware: str, level: float, uploader, *, day: int, latency: float = 1.0) -> None:
    """Three replicate runs of the suite under ``firmware`` on the ``day``-th day after the sample's, at
    ``level`` times the sample's throughput."""
    for number, noise in enumerate(REPLICATES, start=1):
        store_file(
            stream=fio_file(level * noise, hours_later=day * 24 + number, latency=latency * noise),
            name=f"randread-{firmware}-{number}.json", system=system,
            labels={"firmware": firmware, "raid_level": "RAID-5", "drive_count": 16}, uploader=uploader,
        )  # fmt: skip


@pytest.fixture
def viewer(db):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("reader", password="disk-arrays-42")
    team_member(user, role=Role.VIEWER)
    return user
