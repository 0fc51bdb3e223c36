"""What each side of a comparison states of its configurations beyond RAID level, drives, cache and drive
type: the drives' speed, the controller firmware its runs were measured under, the host adapter. A sentence
names such a difference where both sides state the property and they differ."""

from collections import defaultdict
from collections.abc import Iterable

from django.db import connection

from portal import formatting
from portal.models import Config, Run, System

# A configuration group of a system: (system id, RAID level, drive count).
GroupKey = tuple[int, str, int | None]


# Each configuration of the systems with the distinct firmware versions its runs state, one index probe per
# version (a loose scan of ``run_config_firmware``, however many runs a configuration holds), with what the
# configuration and its system state.
_DETAILS_SQL = f"""
WITH RECURSIVE version AS (
    SELECT config.id AS config_id,
           (SELECT min(firmware) FROM {Run._meta.db_table} WHERE config_id = config.id) AS firmware
    FROM {Config._meta.db_table} AS config WHERE config.system_id = ANY(%s)
  UNION ALL
    SELECT version.config_id, (SELECT min(firmware) FROM {Run._meta.db_table}
                               WHERE config_id = version.config_id AND firmware > version.firmware)
    FROM version WHERE version.firmware IS NOT NULL
)
SELECT config.system_id, config.raid_level, config.drive_count, config.drive_rpm, config.host_hba, version.firmware,
       config.extra ->> 'firmware', system.firmware
FROM version
JOIN {Config._meta.db_table} AS config ON config.id = version.config_id
JOIN {System._meta.db_table} AS system ON system.id = config.system_id
WHERE version.firmware IS NOT NULL
"""


def stated_details(*systems: System) -> dict[GroupKey, dict[str, str]]:
    """Each system's details by RAID level and drive count, ("drive speed": "15,000" rpm, "firmware": "5.0"), where
    every run of its configurations of those states one value (one query, its cost by configurations and
    firmware versions, not runs)."""
    found: defaultdict[GroupKey, defaultdict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    with connection.cursor() as cursor:
        cursor.execute(_DETAILS_SQL, [[system.id for system in systems]])
        rows = cursor.fetchall()
    for system_id, raid_level, drive_count, rpm, host_hba, firmware, config_firmware, system_firmware in rows:
        details = found[(system_id, raid_level, drive_count)]
        details["drive speed"].add(formatting.whole(rpm) if rpm else "")
        # The run's firmware, else its configuration's (a paper's per measurement), else the system's.
        version = firmware or config_firmware or system_firmware
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
