"""A job's workload: stated by its options (with fio's documented defaults), or measured from its
figures when the file shows no options."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from ...errors import ParseError
from ...numbers import read_number, read_size
from ...result import TransferSize, Workload
from .document import JSONObject
from .figures import DIRECTIONS
from .where import _object, _Where

# Options all given as text: fio's JSON prints each option it was given as a string.
_TEXT = frozenset((str,))

# rw value -> (read %, random %); None read % means "from rwmixread". fio's JSON lists only the
# options the job gave; where it lists them, what they leave out is fio's documented default
# (``FIO_DEFAULTS``), and where it lists none (old fio versions) the workload is measured.
RW_MODES: dict[str | None, tuple[float | None, float | None]] = {
    None: (None, None),
    "read": (100, 0),
    "write": (0, 0),
    "randread": (100, 100),
    "randwrite": (0, 100),
    "rw": (None, 0),
    "readwrite": (None, 0),
    "randrw": (None, 100),
    "trim": (None, 0),
    "randtrim": (None, 100),
    "trimwrite": (0, 0),
}
# The modes mixing reads and writes by rwmixread (``readwrite`` is fio's other name of ``rw``).
MIXED_MODES = frozenset(("rw", "readwrite", "randrw"))
# fio's documented defaults (fio HOWTO, "Job file parameters") the workload relies on: rw=read,
# bs=4096 bytes for each direction, rwmixread=50 for a mixed job (percentage_random=100 and
# kb_base=1024 are applied where they are read). ``ba`` (default: bs, for random I/O only) is not
# assumed: it says nothing bs does not.
FIO_DEFAULTS = {"rw": "read", "bs": "4096", "rwmixread": "50"}
OPTION_ALIASES = {"readwrite": "rw", "blocksize": "bs", "blockalign": "ba", "blocksize_range": "bsrange"}


# Workload -------------------------------------------------------------------------------------


def _options_key(job_options: JSONObject) -> Hashable:
    """What a job's options are known by in a file, whose global options are the same for every job
    (``_Known.stated``): what is worked out from them is worked out once per distinct set; ``None``
    for options that are not all text, which are worked out for each job."""
    # Options as fio writes them, all text, are shared; others (1 and True are equal keys) are not.
    values = tuple(job_options.values())
    return (tuple(job_options), values) if _TEXT.issuperset(map(type, values)) else None


def _stated_workload(global_options: JSONObject, job_options: JSONObject, where: _Where) -> tuple[str | None, Workload]:
    """``(rw, Workload)`` the options state, with fio's defaults (``FIO_DEFAULTS``) for what they
    leave out."""
    workload_options = {**_canonical(global_options), **_canonical(job_options)}
    workload_options.setdefault("rw", FIO_DEFAULTS["rw"])
    if not {"bs", "bssplit", "bsrange"} & workload_options.keys():
        workload_options["bs"] = FIO_DEFAULTS["bs"]
    rw = _rw_mode(workload_options, where)
    return rw, _workload(rw, workload_options, where)


def _defaults_taken(options: JSONObject) -> dict[str, str]:
    """The fio defaults (``FIO_DEFAULTS``) a job's workload took, by option, for its run's
    ``params["fio_defaults"]``: what the file did not state."""
    given = _canonical(options)
    taken = {}
    if "rw" not in given:
        taken["rw"] = FIO_DEFAULTS["rw"]
    rw = str(given.get("rw", FIO_DEFAULTS["rw"])).split(":")[0].strip().lower()
    if rw in MIXED_MODES and not {"rwmixread", "rwmixwrite"} & given.keys():
        taken["rwmixread"] = FIO_DEFAULTS["rwmixread"]
    sizes_given = {"bs", "bssplit", "bsrange"} & given.keys()
    if not sizes_given or sizes_given == {"bs"} and None in _per_direction(given["bs"]).values():
        taken["bs"] = FIO_DEFAULTS["bs"]
    return taken


def _canonical(options: JSONObject | None) -> JSONObject:
    """Job options under one name each (``readwrite`` is ``rw``, ``blocksize`` is ``bs``, ...)."""
    return {OPTION_ALIASES.get(key, key): value for key, value in (options or {}).items()}


def _rw_mode(options: JSONObject, where: _Where) -> str | None:
    given = options.get("rw")
    if given is None:
        return None
    rw = str(given).split(":")[0].strip().lower()
    if rw not in RW_MODES:
        raise ParseError(f"unknown rw mode {rw!r}", file=where.file, line=where.line, field="rw")
    return rw


def _workload(rw: str | None, options: JSONObject, where: _Where) -> Workload:
    """The signature the job options state (``rw=randrw`` without ``rwmixread`` / ``rwmixwrite``
    reads 50 %, fio's default)."""
    read_pct, random_pct = RW_MODES[rw]
    if rw in MIXED_MODES:
        if "rwmixread" in options:
            read_pct = _percent(options["rwmixread"], "rwmixread", where)
        elif "rwmixwrite" in options:
            read_pct = 100 - _percent(options["rwmixwrite"], "rwmixwrite", where)
        else:
            read_pct = _percent(FIO_DEFAULTS["rwmixread"], "rwmixread", where)
    shares = _direction_shares(rw, read_pct)
    if random_pct and "percentage_random" in options:
        random_pct = _mixed_percent(options["percentage_random"], "percentage_random", shares, where)
    kilo = 1000 if str(options.get("kb_base", "1024")).strip() == "1000" else 1024
    return Workload(
        read_pct=read_pct,
        random_pct=random_pct,
        transfer_sizes=_transfer_sizes(options, shares, kilo, where),
        alignment_bytes=_alignment_bytes(options, kilo, where),
    )


def _measured_workload(entries: list[JSONObject], where: _Where) -> Workload:
    """The workload a job's figures show when the file states no options (old fio versions): the
    read share of its I/Os and, per direction, the bytes per I/O where that is a whole number (a
    fraction is an average of several sizes, no size issued). Random % stays unknown: neither the
    figures nor the job name state it."""
    reads, writes = _direction_ios(entries, where)
    trims = sum(_ios(_object(entry, "trim", where), where) for entry in entries)
    if trims or not reads + writes:
        return Workload()  # trims are neither reads nor writes
    read_pct = 100.0 * reads / (reads + writes)
    directions = [d for d in ("read", "write") if (reads if d == "read" else writes)]
    sizes = {d: size for d in directions if (size := _bytes_per_io(entries, d, where)) is not None}
    if len(sizes) < len(directions):
        return Workload(read_pct=read_pct)
    mix: dict[int, float] = {}
    for direction, size in sizes.items():
        mix[size] = mix.get(size, 0.0) + (read_pct if direction == "read" else 100.0 - read_pct)
    transfer_sizes = [TransferSize(bytes=size, pct=round(pct, 6)) for size, pct in sorted(mix.items())]
    return Workload(read_pct=read_pct, transfer_sizes=transfer_sizes)


def _direction_ios(entries: list[JSONObject], where: _Where) -> tuple[float, float]:
    """(read I/Os, write I/Os) summed over a job group's entries (``total_ios``, else IOPS x runtime)."""
    reads = math.fsum(_ios(_object(entry, "read", where), where) for entry in entries)
    writes = math.fsum(_ios(_object(entry, "write", where), where) for entry in entries)
    return reads, writes


def _ios(stats: JSONObject, where: _Where) -> float:
    """A direction's I/Os: ``total_ios``, or, where fio did not write it (2.1.4), IOPS x runtime (ms), which
    fio rounded: a count to about a percent, enough for a read share and a block size."""
    if "total_ios" in stats:
        return where.number(stats, "total_ios", 0.0)
    return where.number(stats, "iops", 0.0) * where.number(stats, "runtime", 0.0) / 1000.0


def _bytes_per_io(entries: list[JSONObject], direction: str, where: _Where) -> int | None:
    """Bytes per I/O of one direction, ``None`` unless a whole number. fio 3 writes ``io_bytes`` in
    bytes beside ``io_kbytes``; fio 2 wrote ``io_bytes`` in KiB (4,392 reads of 4k are 17,568)."""
    total_bytes = total_ios = 0.0
    counted = True
    for entry in entries:
        stats = _object(entry, direction, where)
        if "io_bytes" not in stats:
            return None
        scale = 1 if "io_kbytes" in stats else 1024
        total_bytes += where.number(stats, "io_bytes") * scale
        total_ios += _ios(stats, where)
        counted = counted and "total_ios" in stats
    if not total_ios:
        return None
    if not counted:
        return _rounded_block(total_bytes / total_ios)
    if total_bytes % total_ios:
        return None
    size = int(total_bytes // total_ios)
    return size or None


def _rounded_block(bytes_per_io: float) -> int | None:
    """The block size an I/O count from rounded IOPS and runtime points to: the roundest size within 1 %, a
    multiple of the largest power of two from 1 MiB down to 512 B that has one (fio 2.1.4's 361,984 KiB over
    253 IOPS x 2.788 s is 525,500 B: 512 KiB, not 1,026 x 512 B), else none."""
    for power in range(20, 8, -1):
        size = round(bytes_per_io / 2**power) * 2**power
        if size and abs(bytes_per_io - size) <= 0.01 * size:
            return size
    return None


def _measured_fields(workload: Workload) -> list[str]:
    """The workload fields a job without options took from its figures, for ``measured_workload``."""
    return [name for name in ("read_pct", "transfer_sizes") if getattr(workload, name) not in (None, [])]


def _direction_shares(rw: str | None, read_pct: float | None) -> dict[str, float] | None:
    """Share (%) of the I/Os going each direction (read, write, trim); ``None`` when unknown."""
    if rw in ("trim", "randtrim"):
        return {"trim": 100.0}
    if rw == "trimwrite":
        return {"trim": 50.0, "write": 50.0}  # each block trimmed, then written
    if read_pct is None:
        return None
    return {"read": float(read_pct), "write": 100.0 - read_pct}


def _per_direction(spec: object) -> dict[str, str | None]:
    """fio's ``read,write,trim`` lists: a direction left out inherits the one before; an empty
    entry (``bs=,8k``) is fio's default for that direction (``None``: 4096 for ``bs``, unknown
    for the others)."""
    parts = [part.strip() for part in str(spec).split(",")][: len(DIRECTIONS)]
    parts += [parts[-1]] * (len(DIRECTIONS) - len(parts))
    return dict(zip(DIRECTIONS, (part or None for part in parts), strict=True))


def _mix(per_direction: Mapping[str, Hashable | None], shares: dict[str, float] | None) -> dict[Any, float]:
    """One value per direction (``None`` unknown) as {value: % of I/Os}; ``{}`` when unknown."""
    if len(set(per_direction.values())) == 1:
        value = per_direction["read"]
        return {} if value is None else {value: 100.0}
    if shares is None:
        return {}
    mix: dict[Any, float] = {}
    for direction, share in shares.items():
        if share and per_direction[direction] is None:
            return {}
        if share:
            mix[per_direction[direction]] = mix.get(per_direction[direction], 0.0) + share
    return mix


def _percent(value: object, option: str, where: _Where) -> float:
    pct = where.read(read_number, value, option)
    if pct is None or pct > 100:
        raise ParseError(f"{option}={value!r} is not a percentage", file=where.file, line=where.line, field=option)
    return pct


def _mixed_percent(spec: object, option: str, shares: dict[str, float] | None, where: _Where) -> float | None:
    per_direction = {d: None if v is None else _percent(v, option, where) for d, v in _per_direction(spec).items()}
    mix = _mix(per_direction, shares)
    return sum(value * share for value, share in mix.items()) / 100 if mix else None


def _transfer_sizes(
    options: JSONObject, shares: dict[str, float] | None, kilo: int, where: _Where
) -> list[TransferSize]:
    """Transfer-size mix from ``bssplit``, else a ``bsrange`` of one size, else ``bs``; a range of
    sizes says no mix (fio picks sizes in it at random) and leaves the mix unknown."""
    reader: Callable[[str], Any]
    if "bssplit" in options:
        option, reader = "bssplit", lambda text: _split_shares(text, kilo, where)
    elif "bsrange" in options:
        option, reader = "bsrange", lambda text: _range_size(text, kilo, where)
    elif "bs" in options:
        option, reader = "bs", lambda text: _size(text, "bs", kilo, where)
    else:
        return []
    texts = _per_direction(options[option])
    if option == "bs":  # an empty entry (bs=,8k) is fio's default for that direction
        texts = {d: FIO_DEFAULTS["bs"] if text is None else text for d, text in texts.items()}
    per_direction: dict[str, Any] = {d: None if text is None else reader(text) for d, text in texts.items()}
    combined: dict[int, float]
    if any(isinstance(value, dict) for value in per_direction.values()):
        # bssplit: each direction is itself a mix; weight it by the direction's share.
        splits = {d: None if v is None else tuple(sorted(v.items())) for d, v in per_direction.items()}
        combined = {}
        for split, share in _mix(splits, shares).items():
            for size, pct in split:
                combined[size] = combined.get(size, 0.0) + pct * share / 100
    else:
        combined = _mix(per_direction, shares)
    return [TransferSize(bytes=size, pct=round(pct, 6)) for size, pct in sorted(combined.items()) if pct > 0]


def _split_shares(spec: str, kilo: int, where: _Where) -> dict[int, float] | None:
    """``4k/10:64k/50:32k/`` -> {bytes: pct}; entries without a share split what is left equally."""
    shares: dict[int, float] = {}
    open_sizes: list[int] = []
    for item in filter(None, (part.strip() for part in spec.split(":"))):
        size_text, _, pct_text = item.partition("/")
        size = _size(size_text, "bssplit", kilo, where)
        if pct_text.strip():
            shares[size] = shares.get(size, 0.0) + _percent(pct_text, "bssplit", where)
        else:
            open_sizes.append(size)
    left = max(0.0, 100.0 - sum(shares.values()))
    for size in open_sizes:
        shares[size] = shares.get(size, 0.0) + left / len(open_sizes)
    return shares or None


def _range_size(spec: str, kilo: int, where: _Where) -> int | None:
    """``4k-4k`` is one size; a real range is no single size (``None``)."""
    low_text, _, high = spec.partition("-")
    low = _size(low_text, "bsrange", kilo, where)
    return low if _size(high or str(low), "bsrange", kilo, where) == low else None


def _size(text: str, option: str, kilo: int, where: _Where) -> int:
    return where.read(read_size, text, option, kilo=kilo)


def _alignment_bytes(options: JSONObject, kilo: int, where: _Where) -> int | None:
    """``ba`` / ``blockalign``; per-direction values that differ give no one alignment."""
    if "ba" not in options:
        return None
    values = set(_per_direction(options["ba"]).values())
    if len(values) != 1:
        return None
    value = values.pop()
    return None if value is None else _size(value, "ba", kilo, where)
