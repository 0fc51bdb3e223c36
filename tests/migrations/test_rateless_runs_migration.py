"""Migration 0034: a bonnie++ run stored before, judged by MB/s because its test was too fast to time ('+++++'
in bonnie-1.96-pkb-csv.txt, field 26: Random file stat), is judged by operations again and headed in
metadata ops/s; a run stating MB/s keeps it."""

from importlib import import_module

import pytest
from django.apps import apps
from django.db import connection

from portal.analysis.figure_kinds import METADATA_OPERATIONS
from portal.models import Run, System
from portal.results.kinds import run_figure_kind
from tests.ingesting import store_file
from tests.samples import sample

pytestmark = pytest.mark.django_db

MIGRATION = import_module("portal.migrations.0034_rateless_runs_by_operations")
BONNIE = sample("bonnie++", "bonnie-1.96-pkb-csv.txt")


def test_a_run_too_fast_to_time_stored_as_mb_per_s_is_judged_by_metadata_operations_again():
    upload = store_file(BONNIE, system=System.objects.create(name="Bonnie lab"))
    assert upload.status == "done", upload.error
    stat = Run.objects.get(upload=upload, workload_name="Random file stat")
    block = Run.objects.get(upload=upload, workload_name="Sequential output, block")
    assert (stat.throughput_metric, block.throughput_metric) == ("iops", "mbps")
    # As the rule before stored it: a run whose points state no rate was judged by MB/s.
    Run.objects.filter(id=stat.id).update(throughput_metric="mbps")
    MIGRATION.rateless_runs_read_again(apps, connection.schema_editor())
    stat.refresh_from_db()
    block.refresh_from_db()
    assert (stat.throughput_metric, block.throughput_metric) == ("iops", "mbps")
    assert run_figure_kind(stat, stat.throughput_metric) == METADATA_OPERATIONS
