"""What the database keeps derived from runs and their points, so pages read a row where they would read
every point: each run's curve as arrays (``RunCurve``) and each configuration's transfer-size sweep cells
(``SweepCell``).

Units are fixed: MB/s means 10^6 bytes per second, times are milliseconds, sizes are bytes.
"""

from django.contrib.postgres.fields import ArrayField
from django.db import models

from .results import Run
from .systems import Config


class RunCurve(models.Model):
    """A run's points as arrays in load order (one element per point, NULL where a point lacks the figure):
    what a comparison at any threshold or latency reads instead of the points, one row per run. Written with
    the run's stored figures (``portal/results/figures.py``), so it is current whenever
    ``Run.throughput_metric`` is set."""

    run = models.OneToOneField(Run, primary_key=True, on_delete=models.CASCADE, related_name="curve")
    # Outstanding I/Os, else threads, else the point's position: what the points are ordered by.
    loads = ArrayField(models.FloatField(null=True), default=list)
    iops = ArrayField(models.FloatField(null=True), default=list)
    mbps = ArrayField(models.FloatField(null=True), default=list)
    avg_response_ms = ArrayField(models.FloatField(null=True), default=list)
    max_response_ms = ArrayField(models.FloatField(null=True), default=list)
    # Each stored latency percentile of all I/O (``ingest/latency.py``), ms.
    p50_ms = ArrayField(models.FloatField(null=True), default=list)
    p90_ms = ArrayField(models.FloatField(null=True), default=list)
    p95_ms = ArrayField(models.FloatField(null=True), default=list)
    p99_ms = ArrayField(models.FloatField(null=True), default=list)
    p99_9_ms = ArrayField(models.FloatField(null=True), default=list)
    # For each response time, the highest one up to each point (NULL before the first known); NULL where it is
    # the response time itself (response times that never fall, a single point). Migration 0021's first-crossing
    # read searched them; the envelope read of migration 0031 reads the response times themselves.
    highest_avg_response_ms = ArrayField(models.FloatField(null=True), null=True)
    highest_max_response_ms = ArrayField(models.FloatField(null=True), null=True)
    highest_p50_ms = ArrayField(models.FloatField(null=True), null=True)
    highest_p90_ms = ArrayField(models.FloatField(null=True), null=True)
    highest_p95_ms = ArrayField(models.FloatField(null=True), null=True)
    highest_p99_ms = ArrayField(models.FloatField(null=True), null=True)
    highest_p99_9_ms = ArrayField(models.FloatField(null=True), null=True)
    # The best IOPS and MB/s of all points.
    peak_iops = models.FloatField(null=True)
    peak_mbps = models.FloatField(null=True)

    # The array of each response time a threshold applies to (``portal.results.selectors.LATENCIES``).
    RESPONSE_COLUMNS = {
        "avg": "avg_response_ms",
        "max": "max_response_ms",
        "p50": "p50_ms",
        "p90": "p90_ms",
        "p95": "p95_ms",
        "p99": "p99_ms",
        "p99.9": "p99_9_ms",
    }

    def __str__(self) -> str:
        return f"curve of run {self.run_id}"


class SweepCell(models.Model):
    """What the runs of one transfer size measured at one thread count, summed up per configuration, tool,
    read and random share, transfer size and thread count: the cells of a system page's transfer-size
    families, one row however many runs repeat the cell. Kept by PostgreSQL: triggers on points and runs
    (migration 0024) sum a configuration's cells up again from its points whenever a statement adds, removes
    or changes its points, or changes what a run's cell is (configuration, tool, shares, transfer size)."""

    # The runs a cell names by id, the lowest first: what a chart's hover text shows of many.
    RUNS_NAMED = 5

    # Read through the unique constraint's index, which starts with the configuration.
    config = models.ForeignKey(Config, on_delete=models.CASCADE, related_name="sweep_cells", db_index=False)
    tool = models.CharField(max_length=60)
    random_pct = models.FloatField(null=True)
    read_pct = models.FloatField(null=True)
    transfer_bytes = models.BigIntegerField()
    # A point's thread count, else the whole number of its load's "threads".
    threads = models.BigIntegerField()
    # Each metric's sum and count over the cell's points, the runs they come from and the first of those.
    mbps_sum = models.FloatField(null=True)
    mbps_count = models.IntegerField()
    mbps_runs = models.IntegerField()
    mbps_first_runs = ArrayField(models.BigIntegerField(), default=list)
    iops_sum = models.FloatField(null=True)
    iops_count = models.IntegerField()
    iops_runs = models.IntegerField()
    iops_first_runs = ArrayField(models.BigIntegerField(), default=list)

    class Meta:
        constraints = [
            # A cell once; also the index of a system page's cells by configuration (its families).
            models.UniqueConstraint(
                fields=["config", "tool", "random_pct", "read_pct", "transfer_bytes", "threads"],
                name="sweep_cell_unique",
                nulls_distinct=False,
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tool} {self.transfer_bytes} B x {self.threads} threads (configuration {self.config_id})"
