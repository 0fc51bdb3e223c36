"""One spelling for what people write many ways: RAID levels and cache settings.

Pure functions: profiles, the upload form, the fixtures and the command line all store and match
through them, so "RAID 5", "RAID-5", "raid5" and "5" are one level, shown one way.
"""

import re

from portal.analysis.digits import rounded_half_up, significant, written

# The canonical levels, as the papers print them.
RAID_LEVELS = ("RAID-0", "RAID-1", "RAID-1E", "RAID-10", "RAID-01", "RAID-5", "RAID-50", "RAID-6", "RAID-60")
OTHER_LEVELS = ("DDP", "JBOD", "RAID-DP", "RAID-TEC", "RAID-Z", "RAID-Z2", "RAID-Z3")

# Level numbers as written after "RAID" (or alone): "1+0", "1/0" and "10" are one level.
_NUMBERS = {
    "0": "RAID-0",
    "1": "RAID-1",
    "1e": "RAID-1E",
    "10": "RAID-10",
    "1+0": "RAID-10",
    "1/0": "RAID-10",
    "01": "RAID-01",
    "0+1": "RAID-01",
    "5": "RAID-5",
    "50": "RAID-50",
    "5+0": "RAID-50",
    "6": "RAID-6",
    "60": "RAID-60",
    "6+0": "RAID-60",
}
# What vendors call levels, by their letters with spaces, dashes and underscores removed.
_NAMES = {
    "ddp": "DDP",
    "diskpool": "DDP",
    "dynamicdiskpool": "DDP",
    "jbod": "JBOD",
    "raiddp": "RAID-DP",
    "raidtec": "RAID-TEC",
    "raidz": "RAID-Z",
    "raidz1": "RAID-Z",
    "raidz2": "RAID-Z2",
    "raidz3": "RAID-Z3",
    "mirror": "RAID-1",
    "mirrored": "RAID-1",
    "stripe": "RAID-0",
    "striped": "RAID-0",
}
_PREFIXES = ("vraid", "raidlevel", "raid", "level", "r")


def raid_level_canonical(text: object) -> str:
    """The canonical spelling of a RAID level ("RAID-5"); "" when none is given.

    HP's "Vraid5" is RAID 5. A level no rule knows is kept as written (spaces tidied), so nothing
    is lost, only not matched with another spelling.
    """
    if text is None:
        return ""
    written = " ".join(str(text).split())
    key = re.sub(r"[\s\-_()]", "", written.lower())
    if not key:
        return ""
    if key in _NAMES:
        return _NAMES[key]
    for prefix in _PREFIXES:
        if key.startswith(prefix) and key[len(prefix) :] in _NUMBERS:
            return _NUMBERS[key[len(prefix) :]]
    return _NUMBERS.get(key, written)


# The cache settings the papers name, and the flags (read cache, write cache) each means.
CACHE_SETTINGS = {
    "all caches disabled": (False, False),
    "caches disabled": (False, False),
    "write cache enabled": (None, True),
    "write cache disabled": (None, False),
    "read cache enabled": (True, None),
    "read and write cache enabled": (True, True),
    "all caches enabled": (True, True),
}


def cache_flags(text: str | None) -> tuple[bool | None, bool | None] | None:
    """``(read_cache, write_cache)`` for a cache setting as a paper names it; None when the words
    name no known setting (they are kept as a note, never matched)."""
    if not text:
        return None
    return CACHE_SETTINGS.get(" ".join(text.lower().split()))


def cache_setting_name(*, read_cache: bool | None, write_cache: bool | None) -> str:
    """The cache setting in the papers' words, from the flags; "" when neither flag is known."""
    if read_cache is False and write_cache is False:
        return "All Caches Disabled"
    if write_cache:
        return "Read and Write Cache Enabled" if read_cache else "Write Cache Enabled"
    if read_cache:
        return "Read Cache Enabled"
    if write_cache is False:
        return "Write Cache Disabled"
    if read_cache is False:
        return "Read Cache Disabled"
    return ""


# RAID levels an upload may give for drives used on their own.
_NO_RAID = frozenset({"none", "no raid", "no", "n/a", "single drive", "single disk"})


def count(number: float | None, noun: str, plural: str | None = None) -> str:
    """A count with its noun in the right number: "1 drive", "8 drives", "1,200 mailboxes"."""
    if number is None:
        return f"{noun} count not stated"
    text = written(rounded_half_up(number, 0), 0) if float(number).is_integer() else significant(number)
    return f"{text} {noun if number == 1 else plural or noun + 's'}"


def drives(number: int | None, drive_type: str | None = None) -> str:
    """Drives by their type where it is known: "1 SSD", "140 HDDs", "8 NVMe drives", else "20 drives"."""
    if drive_type in ("HDD", "SSD"):
        return count(number, drive_type, drive_type + "s")
    if drive_type:
        return count(number, f"{drive_type} drive")
    return count(number, "drive")


def raid_level_words(raid: str | None) -> str:
    """A configuration's RAID level in words: "RAID-5"; "no RAID" where it was given as none; "RAID level
    not stated" where it was not given."""
    if not raid:
        return "RAID level not stated"
    return "no RAID" if raid.strip().lower() in _NO_RAID else raid


def raid_subject(raid: str | None, subject: str) -> str:
    """A workload qualified by its RAID level as a sentence names it: "RAID-5 Random Reads 4K", "Random Reads
    4K without RAID", and the workload alone where no RAID level is stated (a table names that)."""
    if not raid:
        return subject
    if raid_level_words(raid) == "no RAID":
        return f"{subject} without RAID"
    return f"{raid} {subject}"


def config_words(raid: str | None, drive_count: int | None, *rest: str | None, drive_type: str | None = None) -> str:
    """A configuration in words from its parts: "RAID-5, 140 drives, All Caches Disabled", "no RAID, 1 SSD"
    (what is not stated is left out, except the RAID level)."""
    counted = drives(drive_count, drive_type) if drive_count else ""
    return ", ".join(part for part in (raid_level_words(raid), counted, *rest) if part)
