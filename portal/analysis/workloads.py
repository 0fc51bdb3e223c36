"""What a workload does, independent of what it was called: its signature and identity.

Two runs measured the same workload when their read %, random % and transfer-size mix are the
same, whatever the tool or the name ("OLTP 8K" in Iometer, a fio ``randrw`` job with
``rwmixread=67`` and ``bs=8k``, vdbench ``rdpct=67,seekpct=100,xfersize=8k``). The rule for "the
same": read % and random % that round to the same whole percent, the same transfer sizes in
bytes with shares that round to the same whole percent, and the same alignment and number of
sequential streams where a tool states them. An alignment equal to the smallest transfer size is what
every tool does unstated (fio's ``blockalign``, DiskSpd's ``-r``, vdbench's ``align`` default to the
block size), so a file that states it ("alignment: 4096" of a 4 KiB DiskSpd run) is the same workload
as one that does not. Load (outstanding I/Os, threads, jobs x iodepth) is
the axis of the curve, not part of the workload.
"""

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property

KIB = 1024


def _whole_pct(value: float) -> int:
    """Half up, as the papers round (66.5 -> 67), not to even."""
    return int(float(value) + 0.5)


@dataclass(frozen=True)
class Signature:
    read_pct: int
    random_pct: int
    # ((bytes, pct), ...) in increasing size; empty for a figure over all sizes of a family
    transfer_sizes: tuple[tuple[int, int], ...]
    alignment_bytes: int | None = None
    streams: int | None = None

    @property
    def family(self) -> tuple[int, int]:
        """The workloads that differ only by transfer size (Streaming Writes 512 B ... 512 KB)."""
        return (self.read_pct, self.random_pct)

    # Read for each run of a workload when thousands are stored at once: hashed once.
    @cached_property
    def identity(self) -> str:
        payload = json.dumps(
            {
                "read_pct": self.read_pct,
                "random_pct": self.random_pct,
                "transfer_sizes": [list(size) for size in self.transfer_sizes],
                "alignment_bytes": self.alignment_bytes,
                "streams": self.streams,
            },
            sort_keys=True,
            separators=(",", ":"),
        )
        return hashlib.sha256(payload.encode()).hexdigest()


def signature(
    *,
    read_pct: float | None,
    random_pct: float | None,
    transfer_sizes: list[dict] | None,
    alignment_bytes: int | None = None,
    streams: int | None = None,
    sizes_required: bool = True,
) -> Signature | None:
    """The signature of a workload, or None when the file did not say enough to know it (such a
    run is matched by its name only). ``sizes_required=False`` accepts a figure stated over all
    transfer sizes (a maximum), which belongs to a family but to no single workload."""
    if read_pct is None or random_pct is None:
        return None
    sizes: dict[int, float] = {}
    for size in transfer_sizes or []:
        if size.get("bytes"):
            sizes[int(size["bytes"])] = sizes.get(int(size["bytes"]), 0.0) + float(size.get("pct") or 0)
    if sizes_required and not sizes:
        return None
    if alignment_bytes and sizes and int(alignment_bytes) == min(sizes):
        alignment_bytes = None  # the default of every tool: no difference in what the I/O does
    return Signature(
        read_pct=_whole_pct(read_pct),
        random_pct=_whole_pct(random_pct),
        transfer_sizes=tuple((size, _whole_pct(pct)) for size, pct in sorted(sizes.items())),
        alignment_bytes=alignment_bytes or None,
        streams=streams or None,
    )


def size_text(size_bytes: int) -> str:
    """512 B, 8 KiB, 1 MiB: sizes as engineers say them (binary units, as the tools mean them)."""
    for unit, factor in (("MiB", KIB * KIB), ("KiB", KIB)):
        if size_bytes >= factor and size_bytes % factor == 0:
            return f"{size_bytes // factor} {unit}"
    return f"{size_bytes} B"


def describe(sig: Signature) -> str:
    """A signature in an engineer's words: "8 KiB random read", "64 KiB sequential write", "8 KiB random,
    67 % read", "4 KiB 60 % / 64 KiB 40 %, random, 80 % read" (binary sizes, as the tools mean them)."""
    access = {100: "random", 0: "sequential"}.get(sig.random_pct, f"{sig.random_pct} % random")
    if not sig.transfer_sizes:
        sizes = ""
    elif len(sig.transfer_sizes) == 1:
        sizes = size_text(sig.transfer_sizes[0][0])
    else:
        sizes = " / ".join(f"{size_text(size)} {pct} %" for size, pct in sig.transfer_sizes) + ","
    direction = {100: "read", 0: "write"}.get(sig.read_pct)
    words = f"{sizes} {access}".strip()
    words = f"{words} {direction}" if direction else f"{words}, {sig.read_pct} % read"
    if not sig.transfer_sizes:
        words += ", best over transfer sizes"
    if sig.alignment_bytes:
        words += f", aligned to {size_text(sig.alignment_bytes)}"
    if sig.streams:
        words += f", {sig.streams} streams"
    return words[0].upper() + words[1:]


def describe_family(family: tuple[int, int]) -> str:
    """A family of workloads in words: "Sequential write, best over transfer sizes"."""
    return describe(Signature(read_pct=family[0], random_pct=family[1], transfer_sizes=()))
