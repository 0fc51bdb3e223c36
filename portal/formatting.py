"""Numbers and names as engineers write them: the one formatter of pages, exports and the API.

Whole IOPS with thousands separators (30,060); MB/s, ms and other measures to three significant
digits without dropping whole digits (0.0839 ms, 1,024 MB, 54.5 MB/s); percentages to one decimal
(12.7 %); counts with their noun in the right number (1 drive, 8 drives); format ids as the
tool's name. ``None`` is written as an en dash, the tables' "no figure".
"""

import math
import re
from typing import TYPE_CHECKING

from portal.analysis.compare import improvement_size
from portal.analysis.digits import NO_FIGURE, rounded_half_up, significant, written

# The words of configurations live with the vocabulary (pure, as the analysis needs them); pages and exports
# write them through this module.
from portal.analysis.vocabulary import config_words as config_words
from portal.analysis.vocabulary import count as count
from portal.analysis.vocabulary import drives as drives
from portal.analysis.vocabulary import raid_level_words as raid_level_words
from portal.analysis.vocabulary import raid_subject as raid_subject

if TYPE_CHECKING:  # the models and the curves format their numbers with this module
    from portal.analysis.curves import ThroughputAtThreshold
    from portal.models import Config, System

# The throughput metrics a figure is read in, as tables head them.
METRIC_UNITS = {"iops": "IOPS", "mbps": "MB/s"}

# A format as its reader knows it, where the tool's own name would mislead (a profile is no tool).
FORMAT_NAMES = {"array_profile": "storage array profile"}

# A published figure's note may carry the lines of the seed text it was typed from ("(seed line 141)",
# "(lines 17, 141)"); the page cites the paper by title and table instead.
_SEED_LINES = re.compile(r"\s*\((?:seed )?lines?\s[\d,\s\-–and]*\d\)|\bseed lines?\s[\d,\s\-–and]*\d", re.IGNORECASE)


def whole(value: float | None) -> str:
    """A whole number with thousands separators, rounded half up: 30060.0 gives "30,060"."""
    if value is None or not math.isfinite(value):
        return NO_FIGURE
    return written(rounded_half_up(value, 0), 0)


def iops(value: float | None) -> str:
    """IOPS as a whole number: "30,060"."""
    return whole(value)


def mbps(value: float | None) -> str:
    """MB/s to three significant digits: "54.5", "1,024"."""
    return significant(value)


def throughput(value: float | None, metric: str, *, unit: str | None = None) -> str:
    """A throughput figure with its unit: "30,060 IOPS", "54.5 MB/s" (``metric`` is "iops" or "mbps"); a rate
    of other operations than I/Os with the ``unit`` of its kind of figure: "4,212 metadata ops/s"."""
    if value is None:
        return NO_FIGURE
    number = iops(value) if metric == "iops" else mbps(value)
    return f"{number} {unit or METRIC_UNITS.get(metric, metric)}"


def ms(value: float | None) -> str:
    """A response time with its unit, to three significant digits: "0.0839 ms", "24 ms"."""
    return NO_FIGURE if value is None else f"{significant(value)} ms"


def percent(value: float | None) -> str:
    """A percentage with its sign: "12.7 %", "8 %", "118.8 %"; under one percent to two significant
    digits ("0.25 %")."""
    if value is None or not math.isfinite(value):
        return NO_FIGURE
    number = significant(value, 2) if abs(value) < 1 else written(rounded_half_up(value, 1), 1)
    return f"{number} %"


def improvement(pct: float | None) -> str:
    """A percentage improvement, signed and to one decimal as the comparisons print it: "+12.7 %",
    "+10.0 %", "-3.2 %" ('' when there is none)."""
    if pct is None or not math.isfinite(pct):
        return ""
    return f"{'+' if pct >= 0 else '-'}{improvement_size(pct)} %"


def marked_improvement(pct: float | None, mark: str | None) -> str:
    """An improvement as :func:`improvement` writes it after its bound's mark ("≤ +12.7 %": at most, against
    a lower bound; "≥": at least); '' where none is stated."""
    text = improvement(pct)
    return f"{mark} {text}" if text and mark else text


def transfer_size(size_bytes: int) -> str:
    """A transfer size in binary units, named as the workloads' descriptions name them ("8 KiB random read"),
    so a page has one vocabulary: 512 B, 1 KiB, 8 KiB, 1 MiB (a size no whole number of KiB stays in bytes:
    1,536 B)."""
    for unit, power in (("MiB", 2), ("KiB", 1)):
        if size_bytes >= 1024**power and size_bytes % 1024**power == 0:
            return f"{size_bytes // 1024**power:,} {unit}"
    return f"{size_bytes:,} B"


def load(value: float | None, kind: str | None) -> str:
    """A measured load in words: "at 8 outstanding I/Os", "with 4 threads" ('' when not known)."""
    if value is None or kind is None:
        return ""
    if kind == "threads":
        return f"with {count(value, 'thread')}"
    return f"at {count(value, 'outstanding I/O')}"


def format_name(format_id: str | None) -> str:
    """A stored format id as its reader knows the tool: "fio" stays "fio", "diskspd" is "DiskSpd", "cosbench" is
    "COSBench"; an upload read with files of other formats ("fio,iometer") names each: "fio, Iometer"."""
    if not format_id:
        return NO_FIGURE
    if "," in format_id:
        return ", ".join(format_name(part) for part in format_id.split(","))
    if format_id in FORMAT_NAMES:
        return FORMAT_NAMES[format_id]
    from ingest.registry import FORMATS

    module = FORMATS.get(format_id)
    return module.TOOL if module is not None else format_id


def format_names() -> str:
    """Every format ArrayBench reads, by name, for the uploads page."""
    from ingest.registry import FORMATS

    return ", ".join(format_name(format_id) for format_id in FORMATS)


def tags(values: object) -> str:
    """A list of tags (or any list a label holds) as a reader writes it: "lab, 2024 refresh"."""
    if isinstance(values, list | tuple):
        return ", ".join(str(value) for value in values)
    return str(values)


def citation_note(note: str) -> str:
    """A published figure's note without where in the seed text it was typed from."""
    return _SEED_LINES.sub("", note).strip()


# An upload's labels as the upload form names them.
LABEL_NAMES = {
    "raid_level": "RAID level",
    "drive_count": "drives",
    "drive_type": "drive type",
    "drive_rpm": "drive rpm",
    "drive_model": "drive model",
    "drive_capacity_gb": "drive capacity (GB)",
    "host_server": "host",
    "segment_kb": "segment size (KB)",
    "read_cache": "read cache",
    "write_cache": "write cache",
    "write_cache_mirroring": "write-cache mirroring",
    "stroke_pct": "stroke (%)",
    "measurement": "measurement",
    "firmware": "firmware",
    "tags": "tags",
    "notes": "notes",
}


def label_value(value: object) -> str:
    """One label's value in words: on/off for flags, lists comma-separated, numbers as written."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list | tuple):
        return tags(value)
    if isinstance(value, float):
        return significant(value)
    return str(value)


def labels(values: dict) -> str:
    """An upload's labels in words, in the upload form's order: "RAID level RAID-5; drives 140; read cache
    off; tags lab, refresh"."""
    order = list(LABEL_NAMES)
    named = sorted(values.items(), key=lambda item: (order.index(item[0]) if item[0] in order else len(order), item[0]))
    return "; ".join(f"{LABEL_NAMES.get(name, name.replace('_', ' '))} {label_value(value)}" for name, value in named)


def _point(point, load_kind: str | None) -> str:
    """A measured point of a curve in words: "7.1 ms at 4 outstanding I/Os"."""
    return " ".join(part for part in (ms(point.response_ms), load(point.load, load_kind)) if part)


def reading(
    answer: "ThroughputAtThreshold",
    *,
    metric: str,
    latency_text: str = "average",
    load_kind: str | None = None,
    phase: str = "measurement",
    published_as: str = "",
    unit: str | None = None,
    measured: float | None = None,
) -> str:
    """How the figure at a threshold was obtained, in the sentence pages, charts, exports and the API state
    (``answer`` a ``ThroughputAtThreshold``, ``metric`` "iops" or "mbps"): interpolated between two
    measured points, measured, a lower bound at its own response time, no value (and why), or a figure a
    paper published. ``load_kind`` ("outstanding_io" or "threads") names the measured points' loads; an
    interpolated load is never written, only the two measured points the figure lies between. A run whose
    points did no I/O (a format or fill pass: ``phase`` "preparation") makes no throughput claim.
    ``published_as`` (:func:`published_as`) names a published or measured figure that states no response time,
    the same at any threshold: it is said as published (``answer`` a single point) or as measured, at none.
    ``unit``: the unit of the figure's kind where it counts
    other operations than I/Os ("metadata ops/s"); ``measured``: the rate of a run's one point that states no
    response time (mdtest, fs_mark), said with "no value"."""
    from portal.analysis.curves import Rule, Status

    # A figure with no response time, used as is: a paper's or a catalogue's (a single point), or a lab's own.
    stated_as = {Status.SINGLE_POINT: "as published", Status.MEASURED: "as measured"}
    at = f"at {threshold(answer.threshold_ms)}"
    if latency_text != "average":
        at += f" ({latency_text} response time)"
    status, below, above = answer.status, answer.below, answer.above
    if answer.value == 0 and status is not Status.SINGLE_POINT:
        what = "this format or fill pass measured no I/O" if phase == "preparation" else "the run measured no I/O"
        return f"No value {at}: {what}, so it gives no throughput."
    if answer.value is None:
        if status is Status.FIRST_POINT_OVER and above is not None:
            where = "its only point is" if answer.point_count == 1 else "the first point, at the lowest load, is"
            return f"No value {at}: {where} at {_point(above, load_kind)}, over {threshold(answer.threshold_ms)}."
        rate = "" if measured is None else f"; the run measured {throughput(measured, metric, unit=unit)}"
        return f"No value {at}: no response times were measured{rate}."
    figure = throughput(answer.value, metric, unit=unit)
    if status is Status.INTERPOLATED:
        return f"{figure} {at}: interpolated between {_point(below, load_kind)} and {_point(above, load_kind)}."
    if status is Status.NOT_REACHED:
        return f"At least {figure} {at} (a lower bound): measured at {_point(below, load_kind)}."
    if status in stated_as and published_as and (below is None or below.response_ms is None):
        return f"{figure}: {published_as} {stated_as[status]}, with no response time (the same at any threshold)."
    if status is Status.SINGLE_POINT:
        stated = "" if below is None or below.response_ms is None else f" at {ms(below.response_ms)}"
        return f"{figure} {at}: published by the paper{stated}."
    if answer.rule is Rule.AT_OR_BELOW or (below is not None and below.response_ms != answer.threshold_ms):
        return f"{figure} {at}: the best point measured at or under the threshold, {_point(below, load_kind)}."
    return f"{figure} {at}: measured at {_point(below, load_kind)}."


def published_as(*, tool: str, run_name: str, published: bool) -> str:
    """What a run's figure is where its benchmark states no response time, for :func:`reading`: "the IO500
    score", "the IO500 phase figure"; '' for any other run (a paper's figure is stated at its own). ``published``:
    whether the run's figure is used as is, at any threshold: a published run, or a lab's own IO500 run
    (:func:`portal.results.as_is.measured_as_is`)."""
    if not published or tool != "IO500":
        return ""
    return "the IO500 score" if run_name == "IO500 score" else "the IO500 phase figure"


def cache_setting(config: "Config") -> str:
    """A configuration's cache setting in the papers' words: from its read and write cache flags, else
    the setting its paper named in words no flags stand for ('' when neither is known)."""
    from portal.analysis.vocabulary import cache_setting_name

    named = cache_setting_name(read_cache=config.read_cache, write_cache=config.write_cache)
    return named or str((config.extra or {}).get("cache_note") or "")


def status_words(status: str) -> str:
    """How a figure was obtained, in a few words for a table's "How read" column."""
    from portal.analysis.curves import Status

    if status == Status.NOT_REACHED:
        return "a lower bound (threshold not reached)"
    return Status(status).words


def threshold(value: float | None) -> str:
    """A response-time threshold as the reader chose it, to the microsecond: "20 ms", "2.025 ms"."""
    if value is None or not math.isfinite(value):
        return NO_FIGURE
    return f"{written(rounded_half_up(value, 3), 3)} ms"


def p_value(value: float | None) -> str:
    """A significance as statisticians write it: "p = 0.0004", "p < 0.0001"."""
    if value is None or not math.isfinite(value):
        return NO_FIGURE
    return "p < 0.0001" if value < 0.0001 else f"p = {significant(value, 2)}"


def configuration(config: "Config") -> str:
    """A configuration in words: "RAID-5, 16 HDDs" (what is not stated is left out)."""
    return config_words(config.raid_level, config.drive_count, drive_type=config.drive_type)


def compared_side(system: "System", firmware: str = "") -> str:
    """A side of a comparison by its system, and its firmware when one was chosen: "IBM DS5020 firmware 07.15"."""
    return f"{system.name} firmware {firmware}" if firmware else system.name


def figure(value: float | None, metric: str, *, unit: str | None = None) -> str:
    """A throughput ("30,060 IOPS", "54.5 MB/s", with the ``unit`` of its kind of figure: "74 object ops/s")
    or a response time ("0.0839 ms") by its metric."""
    return ms(value) if metric == "ms" else throughput(value, metric, unit=unit)


def training_reading(
    *,
    accelerators: int | None,
    model: str,
    accelerator: str,
    mbps: float | None,
    au_pct: float | None,
    rule_pct: float | None,
) -> str:
    """An AI training throughput as MLPerf Storage states it: the simulated accelerators the storage kept
    busy at the benchmark's accelerator utilisation (AU) rule, the throughput and its share per accelerator:
    "255 accelerators (unet3d, h100) at 729,264 MB/s, 2,860 MB/s per accelerator, AU 70.3 % (rule 90 %)".
    No response-time threshold applies."""
    what = ", ".join(part for part in (model, accelerator) if part)
    who = f"{count(accelerators, 'accelerator')}{f' ({what})' if what else ''}" if accelerators else what
    each = f", {mbps_text(mbps / accelerators)} per accelerator" if mbps is not None and accelerators else ""
    au = "AU not stated" if au_pct is None else f"AU {percent(au_pct)}"
    rule = f" (rule {percent(rule_pct)})" if rule_pct is not None else ""
    return f"{who} at {mbps_text(mbps)}{each}, {au}{rule}"


def mbps_text(value: float | None) -> str:
    """MB/s with its unit: "2,860 MB/s"."""
    return throughput(value, "mbps")
