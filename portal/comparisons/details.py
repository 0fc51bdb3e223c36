"""What each side of a comparison states of its configurations beyond RAID level, drives, cache and drive
type: the drives' speed, the controller firmware its runs were measured under, the host adapter. A sentence
names such a difference where both sides state the property and they differ."""

from collections import defaultdict
from collections.abc import Iterable

from portal import formatting
from portal.models import Run, System

# A configuration group of a system: (system id, RAID level, drive count).
GroupKey = tuple[int, str, int | None]


def stated_details(*systems: System) -> dict[GroupKey, dict[str, str]]:
    """Each system's details by RAID level and drive count, ("drive speed": "15,000" rpm, "firmware": "5.0"), where
    every run of its configurations of those states one value (one query)."""
    found: defaultdict[GroupKey, defaultdict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    runs = (
        Run.objects.filter(config__system__in=systems)
        .values_list(
            "config__system_id",
            "config__raid_level",
            "config__drive_count",
            "config__drive_rpm",
            "config__host_hba",
            "firmware",
            "config__extra",
            "config__system__firmware",
        )
        .distinct()
    )
    for system_id, raid_level, drive_count, rpm, host_hba, firmware, extra, system_firmware in runs:
        details = found[(system_id, raid_level, drive_count)]
        details["drive speed"].add(formatting.whole(rpm) if rpm else "")
        # The run's firmware, else its configuration's (a paper's per measurement), else the system's.
        version = firmware or str((extra or {}).get("firmware") or "") or system_firmware
        details["firmware"].add(version)
        details["host adapter"].add(host_hba)
    return {key: _uniform(details.items()) for key, details in found.items()}


def _uniform(details: Iterable[tuple[str, set[str]]]) -> dict[str, str]:
    """The details stated alike by every run ('' where any run states none)."""
    return {name: values.pop() for name, values in details if len(values) == 1 and "" not in values}


# How a difference of each detail is worded: the words before A's value and after B's.
WORDED = {"drive speed": ("", " rpm"), "firmware": ("firmware ", ""), "host adapter": ("host adapter ", "")}


def differences(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """A's details against B's where both state one and they differ: "15,000 against 10,000 rpm", "firmware
    05.40.06.00 against 5.0", "host adapter H420i against P420"."""
    return [
        f"{WORDED[name][0]}{a[name]} against {b[name]}{WORDED[name][1]}"
        for name in WORDED
        if name in a and name in b and a[name] != b[name]
    ]
