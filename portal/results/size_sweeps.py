"""The transfer-size sweeps of a system's runs, summed up in the database: what was measured at each transfer
size and thread count of each configuration, however many runs repeat it."""

from collections.abc import Iterable
from typing import NamedTuple

from django.contrib.postgres.aggregates import ArrayAgg
from django.db.models import BigIntegerField, Case, Count, Exists, OuterRef, Q, QuerySet, Sum, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from portal.models import Config, Point, Run, System


class SweepCell(NamedTuple):
    """The single-size runs of one configuration, tool, read and random share at one transfer size and thread
    count: each metric's sum, count and the runs measuring it."""

    config_id: int
    tool: str
    random_pct: float | None
    read_pct: float | None
    transfer_bytes: int
    threads: int
    mbps_sum: float | None
    mbps_n: int
    mbps_runs: list[int]
    iops_sum: float | None
    iops_n: int
    iops_runs: list[int]


def transfer_size_sweep_cells(*, system: System) -> tuple[dict[int, Config], list[SweepCell]]:
    """The configurations of ``system`` with runs of one transfer size, by id, and their sweeps' cells
    (:func:`_sweep_cells`); a system without such a run reads no points."""
    swept = Exists(Run.objects.filter(_single_size(), config=OuterRef("pk")))
    configs = Config.objects.filter(system=system).filter(swept).in_bulk()
    cells = [SweepCell(*row) for row in _sweep_cells(configs=list(configs))] if configs else []
    return configs, cells


def _single_size(run: str = "") -> Q:
    """Runs of one transfer size that is a whole number of bytes, the only ones a size axis can show (``run``:
    the path to the run); read through the index of each configuration's single-size runs."""
    return Q(**{f"{run}single_transfer_bytes__gt": 0})


def _whole_number(text: str) -> Case:
    """A JSON value's text as a whole number; NULL for anything else (a fraction, a word, a mix)."""
    return Case(When(**{f"{text}__regex": r"^[0-9]{1,18}$"}, then=Cast(text, BigIntegerField())))


def _sweep_cells(*, configs: Iterable[int]) -> QuerySet[Point, tuple]:
    """The single-size runs of ``configs`` summed up per configuration, tool, read and random share,
    transfer size and thread count in one query: each metric's sum, count and runs. As many rows as
    the sweeps have cells, however many runs repeat them."""
    points = (
        Point.objects.filter(_single_size("run__"), run__config__in=configs)
        .filter(Q(mbps__isnull=False) | Q(iops__isnull=False))
        .annotate(load_threads=KT("load__threads"))
        .annotate(sweep_threads=Coalesce("threads", _whole_number("load_threads"), output_field=BigIntegerField()))
        .filter(sweep_threads__gt=0)
    )
    cell = ("run__config_id", "run__tool", "run__random_pct", "run__read_pct", "run__single_transfer_bytes")
    return (
        points.order_by()
        .values(*cell, "sweep_threads")
        .annotate(
            mbps_sum=Sum("mbps"),
            mbps_n=Count("mbps"),
            mbps_runs=ArrayAgg("run_id", distinct=True, filter=Q(mbps__isnull=False), default=[]),
            iops_sum=Sum("iops"),
            iops_n=Count("iops"),
            iops_runs=ArrayAgg("run_id", distinct=True, filter=Q(iops__isnull=False), default=[]),
        )
        .values_list(*cell, "sweep_threads", *("mbps_sum", "mbps_n", "mbps_runs", "iops_sum", "iops_n", "iops_runs"))
    )
