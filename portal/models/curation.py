"""What a team's maintainers added to results: their names for workloads and the workload facts they stated."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from .results import Run, Workload
from .teams import Team


class WorkloadAlias(models.Model):
    """A team's own name for a workload (or, for runs whose file did not say what they do, for the name
    they were stored under). Shown to the team's members; the stored runs keep their names."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="workload_aliases")
    workload = models.ForeignKey(Workload, null=True, blank=True, on_delete=models.CASCADE, related_name="team_aliases")
    # The stored workload name of runs without a workload; blank when ``workload`` is set.
    workload_name = models.CharField(max_length=200, blank=True, default="")
    name = models.CharField(max_length=200)
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    set_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "portal"
        constraints = [
            models.CheckConstraint(
                condition=Q(workload__isnull=False, workload_name="") | Q(workload__isnull=True) & ~Q(workload_name=""),
                name="workloadalias_one_target",
            ),
            # Also the index for "the team's name of this workload".
            models.UniqueConstraint(
                fields=["team", "workload"], condition=Q(workload__isnull=False), name="workloadalias_team_workload"
            ),
            models.UniqueConstraint(
                fields=["team", "workload_name"], condition=Q(workload__isnull=True), name="workloadalias_team_name"
            ),
        ]
        # Runs asked for by a team's name for their workload (compare, system page: ?workload=...).
        indexes = [models.Index(fields=["team", "name"], name="workloadalias_team_alias")]

    def __str__(self) -> str:
        return f"{self.name} ({self.team})"


class RunStatement(models.Model):
    """What a maintainer stated of a run whose file did not say it: its read %, random % or transfer
    size. The run keeps the values as parsed; its workload is resolved from these where stated."""

    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="statement")
    read_pct = models.PositiveSmallIntegerField(null=True, blank=True)
    random_pct = models.PositiveSmallIntegerField(null=True, blank=True)
    transfer_size_bytes = models.PositiveIntegerField(null=True, blank=True)
    # The workload the file's own values gave (none when they were not enough): restored on removal.
    parsed_workload = models.ForeignKey(Workload, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    stated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    stated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "portal"
        constraints = [
            models.CheckConstraint(
                condition=Q(read_pct__isnull=True) | Q(read_pct__lte=100), name="runstatement_read_pct_range"
            ),
            models.CheckConstraint(
                condition=Q(random_pct__isnull=True) | Q(random_pct__lte=100), name="runstatement_random_pct_range"
            ),
        ]

    def __str__(self) -> str:
        return f"statement on run {self.run_id}"
