"""Migration 0030: a workload stored with an alignment equal to its block size (DiskSpd's "alignment: 4096" of
a 4 KiB run) becomes the workload that states none, merged with it where that one is stored already."""

from importlib import import_module

import pytest
from django.apps import apps

from portal.analysis.workloads import Signature
from portal.models import Run, Workload
from tests.factories import RunFactory

pytestmark = pytest.mark.django_db

MIGRATION = import_module("portal.migrations.0030_default_alignment")
SIZES = ((4096, 100),)


def _stored(alignment_bytes, name):
    """A workload as storing results made it before 0030: its identity with the alignment in it."""
    identity = Signature(50, 100, SIZES, alignment_bytes, None).identity
    return Workload.objects.create(
        identity=identity,
        read_pct=50,
        random_pct=100,
        transfer_sizes=[list(size) for size in SIZES],
        alignment_bytes=alignment_bytes,
        name=name,
        names=[name],
    )


def test_an_aligned_twin_is_merged_into_the_workload_that_states_no_alignment():
    fio = _stored(None, "randrw-4k")
    diskspd = _stored(4096, "C:\\testfile.foo")
    fio_run = RunFactory(workload=fio, workload_name="randrw-4k")
    diskspd_run = RunFactory(workload=diskspd, workload_name="C:\\testfile.foo")
    MIGRATION._defaults_dropped(apps, None)
    assert not Workload.objects.filter(id=diskspd.id).exists()
    assert set(Run.objects.filter(id__in=[fio_run.id, diskspd_run.id]).values_list("workload_id", flat=True)) == {
        fio.id
    }
    fio.refresh_from_db()
    assert fio.names == ["randrw-4k", "C:\\testfile.foo"]


def test_a_lone_aligned_workload_takes_the_identity_without_its_default_alignment():
    lone = _stored(4096, "4K random 50 % read")
    coarser = _stored(8192, "aligned to 8 KiB")
    MIGRATION._defaults_dropped(apps, None)
    lone.refresh_from_db()
    coarser.refresh_from_db()
    assert (lone.alignment_bytes, lone.identity) == (None, Signature(50, 100, SIZES, None, None).identity)
    assert coarser.alignment_bytes == 8192  # a stated alignment other than the block size is another workload
