"""One spelling for what people write many ways: RAID levels and cache settings.

Pure functions: profiles, the upload form, the fixtures and the command line all store and match
through them, so "RAID 5", "RAID-5", "raid5" and "5" are one level, shown one way.
"""

import re

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
