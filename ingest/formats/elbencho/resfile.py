"""elbencho's ``--resfile`` text: a block per phase, rows of first-done and last-done figures."""

import re
from typing import Any

from ...errors import ParseError
from ...numbers import size_or_none
from ...source import Source
from ...units import convert_time
from .phases import MAX_COUNT_DIGITS, _command_setup, _number, _Phase

_RES_ROW = re.compile(r"^(\S+)?\s+(\S.*?)\s*:\s*(.*?)\s*$")
_RES_NAMES = {
    "elapsed ms": "elapsed_ms",
    "elapsed time": "elapsed_ms",
    "iops": "iops",
    "iops write": "iops",
    "iops read": "rwmix_read_iops",
    "throughput mib/s": "mib_per_s",
    "mib/s write": "mib_per_s",
    "mib/s read": "rwmix_read_mib_per_s",
    "throughput mb/s": "mb_per_s",
    "mb/s write": "mb_per_s",
    "mb/s read": "rwmix_read_mb_per_s",
    "total mib": "mib",
    "mib write": "mib",
    "mib read": "rwmix_read_mib",
    "ios total": "ios",
    "ios write": "ios",
    "ios read": "rwmix_read_ios",
    "cpu util %": "cpu_pct",
}
# Entry lines are named after the entry type: "Dirs/s", "Files/s read", "Files total".
_RES_ENTRY_RATE = re.compile(r"^\w+/s( write| read| total)?$")
_RES_ENTRY_COUNT = re.compile(r"^\w+ (total|write|read)$")
# elbencho 1.6 (2021) writes entry counts the other way round: "Total files", "Total dirs".
_RES_OLD_ENTRY_COUNT = re.compile(r"^total (?!mib$)\w+$")
# mtelbencho.sh (elbencho's contrib/storage_sweep) writes its settings before the results, then a line
# per test of its sweep ("Working on <dir>/<files>x<size> with <n> threads..."), elbencho's NOTE lines,
# and two closing lines.
_SWEEP_SETTINGS = frozenset(("range_to_sweep", "threads", "src_data_dir", "fs_block_size", "block_size"))
_SWEEP_SETTINGS |= frozenset(("buffered", "verbose", "dry_run", "cmd"))
_SWEEP_SETTING = re.compile(r"^(\w+)\s*:\s*(.*)$")
_SWEEP_TEST = re.compile(r"^Working on (\S+) with (\d+) threads\.\.\.$")
_SWEEP_TEST_SIZE = re.compile(r"^(\d+)x(\d+[KMGT]iB)$")
_SWEEP_CLOSING = ("===>", "Total test time:")
_RES_LATENCY = re.compile(r"min=(\S+)\s+avg=(\S+)\s+max=(\S+)")
_HUMAN_LATENCY = re.compile(r"^([\d.]+)(us|ms|s)$")
_HUMAN_ELAPSED = re.compile(r"^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:([\d.]+)s)?(?:(\d+)ms)?$")


# --- the --resfile text ---------------------------------------------------------------------


def _resfile_phases(source: Source, warnings: list[str]) -> list[_Phase]:
    phases: list[_Phase] = []
    setup: dict[str, Any] = {}
    sweep: dict[str, Any] = {}  # mtelbencho.sh's settings
    notes: dict[str, list[int]] = {}
    current: _Phase | None = None
    number = 0
    with source.open_text() as stream:
        for number, text in enumerate(stream, start=1):
            line = text.rstrip()
            if not phases and _sweep_setting(line, sweep, number):
                continue
            if line.startswith("Working on "):
                setup = _sweep_test(line, sweep, number)
            elif line.startswith("NOTE:"):
                notes.setdefault(line.partition(":")[2].strip(), []).append(number)
            elif line.startswith(_SWEEP_CLOSING):
                warnings.append(f"{source.name}:{number}: mtelbencho.sh's closing line not stored: {line.strip()!r}")
            elif line.startswith("ISO DATE:"):
                setup = {"started_at": line.partition(":")[2].strip()}
            elif line.startswith("COMMAND LINE:"):
                setup |= _command_setup(line.partition(":")[2], number)
            elif line.startswith("---"):
                current = None
            elif line.startswith(("OPERATION", "=====")) or not line.strip():
                continue
            else:
                current = _resfile_row(line, number, setup, current, phases)
    if current is not None:
        # elbencho closes every phase's block with a '---' line.
        warnings.append(
            f"{source.name}:{number}: the {current.operation} phase (line {current.line}) has no closing '---' "
            "line: the file looks cut short here, and the phase's results after this line are missing"
        )
    for note, lines in notes.items():
        shown = ", ".join(map(str, lines[:5])) + (", ..." if len(lines) > 5 else "")
        warnings.append(f"{source.name}: elbencho's note on {len(lines)} tests (lines {shown}): {note}")
    if phases and "threads" not in phases[0].setup:
        warnings.append("no COMMAND LINE before the results: the thread count and block size are unknown")
    return phases


def _sweep_setting(line: str, sweep: dict[str, Any], number: int) -> bool:
    """Whether ``line`` is one of mtelbencho.sh's settings (``threads       : 56``), kept in ``sweep``."""
    match = _SWEEP_SETTING.match(line)
    if match is None or match.group(1) not in _SWEEP_SETTINGS:
        return False
    key, value = match.group(1), match.group(2).strip()
    if key == "block_size" and value:
        block = size_or_none(value)
        if block is None:
            raise ParseError(f"mtelbencho.sh's block_size {value!r} is not a size", line=number, field=key)
        sweep["block"] = block
    return True


def _sweep_test(line: str, sweep: dict[str, Any], number: int) -> dict[str, Any]:
    """The setup of one test of an mtelbencho.sh sweep: its thread count, and the file count and size
    its folder is named by (``1024x1GiB``), which names its runs."""
    match = _SWEEP_TEST.match(line)
    if match is None:
        raise ParseError("expected mtelbencho.sh's 'Working on <folder> with <n> threads...'", line=number)
    folder, threads = match.groups()
    label = folder.rstrip("/").rsplit("/", 1)[-1]
    setup: dict[str, Any] = {"threads": _option_count(threads, number), "label": label, **sweep}
    files = _SWEEP_TEST_SIZE.match(label)
    if files:
        setup["size"] = size_or_none(files.group(2))
    return setup


def _option_count(text: str, number: int) -> int:
    if len(text) > MAX_COUNT_DIGITS:
        raise ParseError(f"{text[:20]!r} threads is not a plausible count", line=number, field="threads")
    return int(text)


def _resfile_row(line: str, number: int, setup: dict[str, Any], current: _Phase | None, phases: list[_Phase]) -> _Phase:
    row = _RES_ROW.match(line)
    if row is None:
        raise ParseError("expected 'RESULT TYPE : FIRST LAST' (e.g. 'IOPS : 3486 3514')", line=number)
    operation, label, values = row.groups()
    if operation:
        current = _Phase(operation=operation, line=number, setup=dict(setup))
        phases.append(current)
    if current is None:
        raise ParseError(f"result {label!r} outside a phase: expected a phase name such as WRITE first", line=number)
    _resfile_value(current, label.lower(), values, number)
    return current


def _resfile_value(phase: _Phase, label: str, values: str, number: int) -> None:
    latency = _RES_LATENCY.search(values)
    if latency:
        name = _resfile_latency_name(label)
        statistics = zip(("min", "avg", "max"), latency.groups(), strict=True)
        phase.latency_us[name] = {key: _human_latency_us(text, number) for key, text in statistics}
        return
    parts = values.split()
    if len(parts) != 2:
        phase.last.setdefault("other", {})[label] = values
        return
    figure = _resfile_name(label)
    if figure == "other":
        phase.last.setdefault("other", {})[label] = values
    elif figure == "elapsed_ms" and label == "elapsed time":
        phase.first[figure], phase.last[figure] = (_human_elapsed_ms(part, number) for part in parts)
    elif figure:
        phase.first[figure], phase.last[figure] = (_number(part, number, label) for part in parts)


def _resfile_name(label: str) -> str | None:
    """The common name of a resfile result line; None for totals elbencho sums from its parts."""
    if label in _RES_NAMES:
        return _RES_NAMES[label]
    if label in ("iops total", "mib/s total", "mb/s total"):
        return None
    rate = _RES_ENTRY_RATE.match(label)
    if rate:
        return {None: "entries_per_s", " write": "entries_per_s", " read": "rwmix_read_entries_per_s"}.get(
            rate.group(1)
        )
    if _RES_OLD_ENTRY_COUNT.match(label):
        return "entries"
    count = _RES_ENTRY_COUNT.match(label)
    if count:
        return {"total": "entries", "write": "entries", "read": "rwmix_read_entries"}[count.group(1)]
    return "other" if not label.endswith(" total") else None


def _resfile_latency_name(label: str) -> str:
    base = "io_latency_us" if label.startswith("io") else "entry_latency_us"
    return f"rwmix_read_{base}" if " rd " in f" {label} " else base


def _human_latency_us(text: str, number: int) -> float:
    match = _HUMAN_LATENCY.match(text)
    if match is None:
        raise ParseError(f"latency {text!r} is not like '455us', '4.55ms' or '1.20s'", line=number)
    return convert_time(float(match.group(1)), match.group(2), "us")


def _human_elapsed_ms(text: str, number: int) -> float:
    match = _HUMAN_ELAPSED.match(text)
    if match is None or not any(match.groups()):
        raise ParseError(f"elapsed time {text!r} is not like '45.248s' or '2m3.456s'", line=number)
    hours, minutes, seconds, milliseconds = (float(g) if g else 0.0 for g in match.groups())
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds
