"""What narrows one side of a comparison: its RAID level, drive count, cache setting or one configuration;
the values each side offers to filter by, the check of a value asked for, and what the filters leave out."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import Count, QuerySet

from portal.analysis.pairing import config_key_label, workload_key_of
from portal.analysis.vocabulary import cache_setting_name
from portal.errors import ApplicationError
from portal.models import Config, Run, System
from portal.results.selectors import COMPARABLE, runs_filtered
from portal.teams.selectors import Viewer

# The run columns a workload key is made of.
KEY_COLUMNS = ("workload_id", "workload_name", "read_pct", "random_pct")

# Whoever reads a comparison: a signed-in user, an anonymous visitor, or nobody (a command, a task).


@dataclass(frozen=True)
class SideFilters:
    """What narrows one side's runs: a RAID level, a drive count, a cache setting, or one configuration; and
    the firmware version measured (two versions of one system compared)."""

    raid_level: str | None = None
    drive_count: int | None = None
    cache: str | None = None
    config_id: int | None = None
    firmware: str | None = None


class ConfigChoice(NamedTuple):
    id: int
    label: str


@dataclass
class SideChoices:
    """The values one side's comparable runs have, as the compare page offers them to filter by."""

    raid_levels: list[str]
    drive_counts: list[int]
    caches: list[str]
    configs: list[ConfigChoice]


# Properties that tell apart configurations of the same RAID level, drive count and cache setting.
_DISTINGUISHING = {
    "drive_type": "{} drives",
    "drive_rpm": "{:,} rpm",
    "drive_capacity_gb": "{:g} GB drives",
    "drive_model": "{}",
    "drives_per_array": "{} drives per array",
    "segment_kb": "{:g} KB segments",
    "stroke_pct": "stroke {:g} %",
    "host_server": "host {}",
}


def side_choices(*, system: System) -> SideChoices:
    """The RAID levels, drive counts, cache settings and configurations of ``system``'s comparable runs,
    in one query over its configurations and the index of their comparable runs."""
    # Filtered before counting: the runs counted are the comparable ones, and a configuration without any
    # is left out.
    configs = list(
        Config.objects.filter(system=system, runs__phase=Run.Phase.MEASUREMENT, runs__excluded_reason="")
        .annotate(run_count=Count("runs"))
        .order_by("raid_level", "drive_count", "id")
        .values("id", "raid_level", "drive_count", "read_cache", "write_cache", "run_count", *_DISTINGUISHING)
    )
    for config in configs:
        config["cache"] = cache_setting_name(read_cache=config["read_cache"], write_cache=config["write_cache"])
        config["key"] = (config["raid_level"], config["drive_count"], config["cache"])
    return SideChoices(
        raid_levels=sorted({config["raid_level"] for config in configs}),
        drive_counts=sorted({config["drive_count"] for config in configs if config["drive_count"]}),
        caches=sorted({config["cache"] for config in configs if config["cache"]}),
        configs=[ConfigChoice(config["id"], _config_label(config, configs)) for config in configs],
    )


def _config_label(config: dict, configs: list[dict]) -> str:
    """'RAID-5, 140 drives, All Caches Disabled (11 runs)', with what tells it apart from configurations
    of the same key."""
    twins = [other for other in configs if other["key"] == config["key"]]
    details = [
        words.format(config[name])
        for name, words in _DISTINGUISHING.items()
        if config[name] not in (None, "") and len({other[name] for other in twins}) > 1
    ]
    if len(twins) > 1 and not details:
        details = [f"configuration #{config['id']}"]
    runs = f"{config['run_count']} run{'s' if config['run_count'] != 1 else ''}"
    return f"{config_key_label(config['key'])} ({', '.join([*details, runs])})"


def check_side(filters: SideFilters, choices: SideChoices, *, letter: str, system: System) -> None:
    """Raise :class:`ApplicationError` for a filter value ``system`` has no comparable run with."""
    side = f"{system.name} ({letter})"
    field_name = letter.lower()
    if filters.config_id is not None and filters.config_id not in {choice.id for choice in choices.configs}:
        raise ApplicationError(
            f"{side} has no configuration #{filters.config_id} with runs to compare; choose one the page offers.",
            field=f"{field_name}_config",
        )
    if filters.raid_level is not None and filters.raid_level not in choices.raid_levels:
        raise ApplicationError(
            f"{side} has no {filters.raid_level} runs to compare; its RAID levels: {_listed(choices.raid_levels)}.",
            field=f"{field_name}_raid_level",
        )
    if filters.drive_count and filters.drive_count not in choices.drive_counts:
        raise ApplicationError(
            f"{side} has no runs on {filters.drive_count} drives to compare; "
            f"its drive counts: {_listed(choices.drive_counts)}.",
            field=f"{field_name}_drive_count",
        )
    if filters.cache and filters.cache not in choices.caches:
        raise ApplicationError(
            f"{side} has no runs with the cache setting {filters.cache!r}; its cache settings: "
            f"{_listed(choices.caches)}.",
            field=f"{field_name}_cache",
        )


def check_firmware(firmware: str | None, *, letter: str, system: System) -> None:
    """Raise :class:`ApplicationError` for a firmware version ``system`` has no comparable run under."""
    if not firmware:
        return
    runs = Run.objects.filter(COMPARABLE, config__system=system)
    if not runs.filter(firmware=firmware).exists():
        versions = sorted(set(runs.exclude(firmware="").values_list("firmware", flat=True).distinct()))
        raise ApplicationError(
            f"{system.name} ({letter}) has no runs under firmware {firmware} to compare; "
            f"its firmware versions: {_listed(versions)}.",
            field=f"{letter.lower()}_firmware",
        )


def _listed(values: Sequence[object]) -> str:
    return ", ".join(str(value) or "not stated" for value in values) or "none stated"


def check_both_sides(shared: SideFilters, a_choices: SideChoices, b_choices: SideChoices, a: System, b: System) -> None:
    """Raise :class:`ApplicationError` for a filter of both sides that neither side has a run with."""
    offered: dict[str, tuple[object, str, list]] = {
        "raid_level": (shared.raid_level, "RAID level", a_choices.raid_levels + b_choices.raid_levels),
        "drive_count": (shared.drive_count, "drive count", a_choices.drive_counts + b_choices.drive_counts),
        "cache": (shared.cache, "cache setting", a_choices.caches + b_choices.caches),
    }
    for name, (value, words, values) in offered.items():
        if value not in (None, "") and value not in values:
            raise ApplicationError(
                f"Neither {a.name} nor {b.name} has runs with the {words} {value}; "
                f"their {words}s: {_listed(sorted(set(values)))}.",
                field=name,
            )


# The filters of one side, how they are named and how a run they leave out is described.
_LEFT_OUT_BY = {
    "config_id": ("configuration choice", "Runs of {side} in other configurations"),
    "raid_level": ("RAID level filter", "{value} runs of {side}"),
    "drive_count": ("drive count filter", "Runs of {side} on {value} drives"),
    "cache": ("cache setting filter", "{value} runs of {side}"),
}


def what_filters_left_out(*, runs: QuerySet[Run], filters: SideFilters, side: str, family: bool) -> list[str]:
    """What ``filters`` leave out of ``runs`` (one side's comparable runs), by filter: a sentence each with
    the values left out and how many workloads their runs hold. One query over the distinct configurations
    and workloads."""
    if filters == SideFilters():
        return []
    columns = ("config_id", "config__raid_level", "config__drive_count", "config__read_cache", "config__write_cache")
    left: dict[str, tuple[set, set]] = {}
    for config_id, raid_level, drive_count, read_cache, write_cache, *key in (
        runs.order_by().values_list(*columns, *KEY_COLUMNS).distinct()
    ):
        cache = cache_setting_name(read_cache=read_cache, write_cache=write_cache)
        found = {"config_id": config_id, "raid_level": raid_level, "drive_count": drive_count, "cache": cache}
        for name, value in found.items():
            wanted = getattr(filters, name)
            # A configuration that states no cache setting stays comparable, as the filter keeps it.
            if wanted not in (None, "") and value != wanted and not (name == "cache" and value == ""):
                values, workloads = left.setdefault(name, (set(), set()))
                values.add(value)
                workloads.add(workload_key_of(*key, family=family))
                break
    sentences = []
    for name, (filter_words, subject) in _LEFT_OUT_BY.items():
        if name in left:
            values, workloads = left[name]
            listed = ", ".join(str(value) if value else "not stated" for value in sorted(values, key=_value_order))
            count = len(workloads)
            sentences.append(
                f"{subject.format(side=side, value=listed)} left out by the {filter_words}: "
                f"{count} workload{'s' if count != 1 else ''}."
            )
    return sentences


def _value_order(value: object) -> tuple[int, object, object]:
    """Drive counts in number order, names in text order, unstated ones first."""
    return (0, value, "") if isinstance(value, int) else (1, 0, value or "")


def runs_of_side(
    *, system: System, workloads: Sequence[str], filters: SideFilters, viewer: Viewer | None = None
) -> QuerySet[Run]:
    """One side's comparable runs narrowed by its filters (a configuration that states no cache setting
    stays comparable); with ``viewer``, a workload is also found by the names their teams gave it."""
    runs = runs_filtered(
        system=system,
        workloads=workloads,
        raid_level=filters.raid_level,
        drive_count=filters.drive_count,
        cache=filters.cache,
        comparable=True,
        viewer=viewer,
    )
    if filters.firmware:
        runs = runs.filter(firmware=filters.firmware)
    return runs if filters.config_id is None else runs.filter(config_id=filters.config_id)
