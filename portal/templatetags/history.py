"""Filters of the history and alerts pages: ``{% load history %}`` then ``{{ alert.change_pct|change }}``,
``{{ alert.p_value|p_value }}``, ``{{ config|configuration }}``."""

from django import template

from portal import formatting
from portal.models import Alert, Run, System, Team

register = template.Library()

register.filter("change", formatting.improvement)
register.filter("p_value", formatting.p_value)
register.filter("configuration", formatting.configuration)


@register.filter
def change_words(alert: object) -> str:
    """An alert (or one of its revisions) as the pages write it: "-20.0 % from 07.30.12.00 (p < 0.0001)"."""
    from portal.history.views import change_words as words

    return words(alert)  # type: ignore[arg-type]


@register.filter
def history_url(run: Run) -> str:
    """The history page of a run's configuration and workload."""
    from django.urls import reverse
    from django.utils.http import urlencode

    from portal.history.selectors import series_key

    series = series_key(workload_id=run.workload_id, workload_name=run.workload_name)
    base = reverse("history:system", args=[run.config.system_id])
    query: dict[str, str | int] = {"config": run.config_id, "series": series}
    return f"{base}?{urlencode(query)}"


@register.simple_tag
def alert_counts(system: System) -> dict:
    """``{% alert_counts system as counts %}``: the system's alerts by status."""
    from portal.history.selectors import alert_counts as counts

    return counts(system_id=system.id)


@register.simple_tag
def webhook_failures(team: Team) -> int:
    """``{% webhook_failures team as failures %}``: how many of the team's alert summaries were not delivered."""
    from portal.models import AlertSummary

    return AlertSummary.objects.filter(system__team=team, delivery=AlertSummary.Delivery.FAILED).count()


@register.filter
def compare_url(alert: Alert) -> str:
    """The compare page of the version a change starts at (A) against the version before it (B), in the
    alert's configuration: their curves overlaid. '' when the versions are measured dates, not firmware."""
    import re

    from django.urls import reverse
    from django.utils.http import urlencode

    if not alert.previous_version or re.fullmatch(r"\d{4}-\d{2}-\d{2}", alert.version):
        return ""
    query: dict[str, str | int] = {
        "a": alert.system.name, "b": alert.system.name, "a_firmware": alert.version,
        "b_firmware": alert.previous_version, "a_config": alert.config_id, "b_config": alert.config_id,
        "workload": alert.workload_name,
    }  # fmt: skip
    return f"{reverse('pages:compare')}?{urlencode(query)}"
