"""The console transcript of ``benchmark.sh reportgen``: the lines it logs of the report it writes.

::

    2024-09-03 08:36:27 Model: resnet50
    2024-09-03 08:36:27 Accelerator: h100
    2024-09-03 08:36:27 Number of benchmark runs: 5
    2024-09-03 08:36:27 Overall number of accelerators: 1
    2024-09-03 08:36:27 Overall Training Throughput (samples/second): 1778.69 (0.164602360097374)
    2024-09-03 08:36:27 Overall Training Throughput (MB/second): 194.50 (0.0179989987668249)

Each line may begin with the logger's time; a figure is followed by its standard deviation in
parentheses. A transcript saved from the console holds the shell's prompt and the command too: such
lines are passed over with a warning. The means are printed to two decimals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...errors import ParseError
from ...numbers import Printed, read_number, read_whole
from ...result import Run
from ...source import Source
from .training import TrainingFigures, training_run

_LOGGED = re.compile(
    r"^(?:\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\s+)?(?:(?:INFO|WARNING|ERROR)\s*:?\s*)?"
    r"(?P<key>Model|Accelerator|Number of benchmark runs|Overall number of accelerators|"
    r"Overall Training Throughput \((?P<unit>samples|MB)/second\))\s*:\s*(?P<value>.*?)\s*$"
)
# What reportgen logs besides the report's figures: passed over quietly.
_KNOWN = re.compile(r"^(?:\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\s+)?(?:-{10,}|Final report generated\b.*)$")
_FIGURE = re.compile(r"^(?P<mean>\S+)(?:\s*\((?P<stdev>[^)]*)\))?$")
_PRINTED = Printed(required=True, refusal="{short!r} is not a number")
_REQUIRED = ("Model", "Accelerator", "Overall number of accelerators", "samples", "MB")
_SHOWN_SKIPPED = 2


@dataclass
class _Block:
    """The lines of one printed report, by key (``samples`` and ``MB`` for the two throughputs)."""

    line: int
    values: dict[str, tuple[int, str]] = field(default_factory=dict)


def transcript_runs(source: Source, warnings: list[str]) -> list[Run]:
    """A run per report the transcript prints (one per ``Model:`` line)."""
    blocks: list[_Block] = []
    skipped: list[tuple[int, str]] = []
    with source.open_text() as stream:
        for number, line in enumerate(stream, 1):
            text = line.strip()
            match = _LOGGED.match(text)
            if match is None:
                if text and not _KNOWN.match(text):
                    skipped.append((number, text))
                continue
            key = match["unit"] or match["key"]
            if key == "Model" or not blocks:
                blocks.append(_Block(number))
            blocks[-1].values[key] = (number, match["value"])
    if skipped:
        shown = "; ".join(f"line {number}: {text[:60]!r}" for number, text in skipped[:_SHOWN_SKIPPED])
        more = f" and {len(skipped) - _SHOWN_SKIPPED} more" if len(skipped) > _SHOWN_SKIPPED else ""
        lines = "line that is" if len(skipped) == 1 else "lines that are"
        warnings.append(f"{source.name}: passed over {len(skipped)} {lines} not reportgen's ({shown}{more})")
    if not blocks:
        raise ParseError(
            "no 'Model:' or 'Overall Training Throughput' line of benchmark.sh reportgen", file=source.name
        )
    return [_run(source.name, block) for block in blocks]


def _run(name: str, block: _Block) -> Run:
    missing = [key for key in _REQUIRED if key not in block.values]
    if missing:
        words = ", ".join(
            f"Overall Training Throughput ({key}/second)" if key in ("samples", "MB") else key for key in missing
        )
        raise ParseError(
            f"the report printed from this line lacks its {words} line: the transcript may be cut short",
            file=name,
            line=block.line,
        )
    mib, mib_stdev = _mean_and_stdev(name, block, "MB")
    samples, samples_stdev = _mean_and_stdev(name, block, "samples")
    count_line, count = block.values["Overall number of accelerators"]
    accelerators = read_whole(count, file=name, line=count_line, field="Overall number of accelerators") or 0
    if accelerators < 1:
        raise ParseError("the number of simulated accelerators must be at least 1", file=name, line=count_line)
    run = training_run(
        TrainingFigures(
            model=_name(name, block, "Model"),
            accelerator=_name(name, block, "Accelerator"),
            accelerators=accelerators,
            mib_per_second=mib,
            mib_per_second_stdev=mib_stdev,
            samples_per_second=samples,
            samples_per_second_stdev=samples_stdev,
        ),
        verdict="pass",
    )
    if "Number of benchmark runs" in block.values:
        runs_line, runs = block.values["Number of benchmark runs"]
        run.params["benchmark_runs"] = read_whole(runs, file=name, line=runs_line, field="Number of benchmark runs")
    return run


def _name(file: str, block: _Block, key: str) -> str:
    line, value = block.values[key]
    if not value:
        raise ParseError(f"the {key} line names none", file=file, line=line, field=key)
    return value


def _mean_and_stdev(file: str, block: _Block, unit: str) -> tuple[float, float | None]:
    line, value = block.values[unit]
    field_name = f"Overall Training Throughput ({unit}/second)"
    match = _FIGURE.match(value)
    if match is None:
        raise ParseError(
            f"expected a figure and its standard deviation in parentheses, found {value[:40]!r}",
            file=file,
            line=line,
            field=field_name,
        )
    mean = read_number(match["mean"], file=file, line=line, field=field_name, printed=_PRINTED) or 0.0
    stdev = None
    if match["stdev"] is not None:
        stdev = read_number(match["stdev"], file=file, line=line, field=field_name, printed=_PRINTED)
    return mean, stdev
