"""Template filters that write numbers and names through :mod:`portal.formatting`, as every page does.

``{% load numbers %}`` then ``{{ value|iops }}``, ``{{ value|throughput:metric }}``, ``{{ value|ms }}``,
``{{ value|pct }}``, ``{{ n|count:"drive" }}``, ``{{ config|drives }}``, ``{{ upload.format|format_name }}``.
"""

from django import template

from portal import formatting
from portal.analysis.tables import PAGE_FORMATS, format_number
from portal.models import Config

register = template.Library()

register.filter("iops", formatting.iops)
register.filter("mbps", formatting.mbps)
register.filter("significant", formatting.significant)
register.filter("whole", formatting.whole)
register.filter("ms", formatting.ms)
register.filter("pct", formatting.percent)
register.filter("format_name", formatting.format_name)
register.filter("citation_note", formatting.citation_note)
register.filter("labels", formatting.labels)
register.filter("threshold", formatting.threshold)
register.filter("cache_setting", formatting.cache_setting)
register.filter("transfer_size", formatting.transfer_size)


@register.filter
def throughput(value: float | None, metric: str) -> str:
    return formatting.throughput(value, metric)


@register.filter
def count(number: float | None, noun: str) -> str:
    """``{{ n|count:"drive" }}``, or ``{{ n|count:"mailbox,mailboxes" }}`` for an irregular plural."""
    singular, _, plural = noun.partition(",")
    return formatting.count(number, singular, plural or None)


@register.filter
def drives(config: Config) -> str:
    """A configuration's drives with their type: "140 HDDs", "1 SSD", "20 drives"."""
    return formatting.drives(config.drive_count, config.drive_type)


@register.filter
def number(value: float | None, metric: str) -> str:
    """A throughput figure without its unit, for a table whose heading states it: "30,060", "54.5"; IO500's
    score (``metric`` "score") with the six decimals its file prints: "2,885.570524"."""
    if metric == "score":
        return format_number(value, PAGE_FORMATS["score"])
    return formatting.iops(value) if metric == "iops" else formatting.mbps(value)
