"""A workload whose stated alignment equals its smallest transfer size (DiskSpd's "alignment: 4096" of a
4 KiB run) is the workload that states none: every tool aligns random offsets to the block size unless
told otherwise. Such workloads take the identity ``portal.analysis.workloads.signature`` now gives them;
where that workload is stored already, their runs, aliases, statements and alerts move to it and their
names are added to its names."""

from django.db import migrations

from portal.analysis.workloads import Signature


def _defaults_dropped(apps, schema_editor):
    Workload = apps.get_model("portal", "Workload")
    Run = apps.get_model("portal", "Run")
    WorkloadAlias = apps.get_model("portal", "WorkloadAlias")
    RunStatement = apps.get_model("portal", "RunStatement")
    Alert = apps.get_model("portal", "Alert")
    for workload in Workload.objects.filter(alignment_bytes__isnull=False).order_by("id"):
        sizes = tuple((int(size), int(pct)) for size, pct in workload.transfer_sizes)
        if not sizes or workload.alignment_bytes != min(size for size, _pct in sizes):
            continue
        identity = Signature(workload.read_pct, workload.random_pct, sizes, None, workload.streams).identity
        twin = Workload.objects.filter(identity=identity).first()
        if twin is None:
            workload.identity, workload.alignment_bytes = identity, None
            workload.save(update_fields=["identity", "alignment_bytes"])
            continue
        Run.objects.filter(workload=workload).update(workload=twin)
        RunStatement.objects.filter(parsed_workload=workload).update(parsed_workload=twin)
        _alerts_moved(Alert, workload, twin)
        aliased = WorkloadAlias.objects.filter(workload=twin).values("team_id")
        WorkloadAlias.objects.filter(workload=workload).exclude(team_id__in=aliased).update(workload=twin)
        twin.names = twin.names + [name for name in workload.names if name not in twin.names]
        twin.save(update_fields=["names"])
        workload.delete()


def _alerts_moved(Alert, workload, twin) -> None:
    """Alerts of the series "workload:<id>" become the twin's series; one the twin has already stays its own."""
    for alert in Alert.objects.filter(workload=workload):
        series = f"workload:{twin.id}"
        taken = Alert.objects.filter(
            config_id=alert.config_id, series=series, figure=alert.figure, version=alert.version
        ).exists()
        if taken:
            alert.delete()
        else:
            alert.workload, alert.series = twin, series
            alert.save(update_fields=["workload", "series"])


class Migration(migrations.Migration):
    dependencies = [("portal", "0029_audit_invitation_refused")]

    operations = [migrations.RunPython(_defaults_dropped, migrations.RunPython.noop)]
