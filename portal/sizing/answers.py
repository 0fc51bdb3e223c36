"""The sizing answers: one measured sweep and what it answers, or the back-end estimate, in sentences."""

from dataclasses import dataclass

from portal import formatting
from portal.analysis.drive_scaling import BackEnd, DriveScaling, DrivesNeeded, ScalingError
from portal.analysis.drives_error import RISING_PCT, DrivesError
from portal.analysis.tables import NumberFormat, format_number

# The sizing tables' numbers, on the page and in every export: whole IOPS with separators (30,060),
# MB/s and percentages to one decimal; "–" where no figure.
WHOLE = NumberFormat(decimals=0, group_from=1000, na_text="–")
ONE_DECIMAL = NumberFormat(decimals=1, trim_zeros=False, group_from=1000, na_text="–")


@dataclass(frozen=True)
class SweepSizing:
    """One measured sweep and what it answers; every figure here is modelled from measured ones."""

    workload: str
    raid_level: str
    cache_setting: str
    metric: str
    threshold_ms: float
    drives_per_array: int | None
    scaling: DriveScaling
    error: ScalingError
    drives_error: DrivesError
    needed: DrivesNeeded | None
    with_drives: int | None

    @property
    def label(self) -> str:
        return ", ".join(part for part in (self.raid_level, self.cache_setting, self.workload) if part)

    def lines(self) -> list[str]:
        """The answer in sentences, as the page, the API and the command give it."""
        found = [self._measured_line(), self._model_line()]
        if self.needed is not None:
            found.append(self._needed_line(self.needed))
            found.append(self._drives_error_line())
        if self.with_drives is not None:
            found.append(self._with_drives_line(self.with_drives))
        found.append(self._error_line())
        return found

    def table_rows(self) -> list[dict[str, str]]:
        """The measured sweep, each interior drive count with its prediction from the others, the numbers
        written as the exports write them (:func:`portal.sizing.output.sizing_tables`)."""
        left_out = {x.drive_count: x for x in self.error.left_out}
        unit = formatting.METRIC_UNITS.get(self.metric, self.metric)
        number = self.number_format
        rows = []
        for figure in self.scaling.measured:
            out = left_out.get(figure.drive_count)
            rows.append(
                {
                    "drives": formatting.whole(figure.drive_count),
                    "measured": f"{format_number(figure.throughput, number)} {unit}",
                    "predicted": f"{format_number(out.predicted, number)} {unit}" if out else formatting.NO_FIGURE,
                    "error": f"{format_number(out.error_pct, ONE_DECIMAL)} %" if out else formatting.NO_FIGURE,
                }
            )
        return rows

    @property
    def number_format(self) -> NumberFormat:
        return WHOLE if self.metric == "iops" else ONE_DECIMAL

    def _figure(self, value: float | None) -> str:
        return formatting.throughput(value, self.metric)

    def _measured_line(self) -> str:
        counts = [f.drive_count for f in self.scaling.measured]
        return (
            f"Figures at {formatting.threshold(self.threshold_ms)} (measured, or published by a paper) at"
            f" {len(counts)} drive counts: {', '.join(formatting.whole(n) for n in counts)} drives."
        )

    def _model_line(self) -> str:
        scaling = self.scaling
        per_drive = f"{self._figure(scaling.per_drive)} a drive"
        if scaling.base:
            per_drive += f" over a fixed {self._figure(scaling.base)}"
        if scaling.plateau is None:
            return f"Model: {scaling.model_name}, {per_drive}."
        return (
            f"Model: {scaling.model_name} (chosen by its error on this sweep's drive counts), {per_drive},"
            f" levelling off at {self._figure(scaling.plateau)}."
        )

    def _needed_line(self, needed: DrivesNeeded) -> str:
        wanted = f"{self._figure(needed.target)} at {formatting.threshold(self.threshold_ms)}"
        if not needed.reachable:
            return (
                f"{wanted} is not reachable on this system: it levels off at about {self._figure(needed.plateau)}"
                f" from about {formatting.drives(round(needed.knee_drives or 0))}."
            )
        arrays = ""
        if self.drives_per_array and needed.drives and needed.drives % self.drives_per_array:
            whole = -(-needed.drives // self.drives_per_array) * self.drives_per_array
            arrays = f" ({formatting.drives(whole)} in the arrays of {self.drives_per_array} measured)"
        return (
            f"{wanted} needs {formatting.drives(needed.drives)}{arrays}: the model gives"
            f" {self._figure(needed.throughput)} with them, {self._how(needed.drives or 0)}."
        )

    def _with_drives_line(self, drives: int) -> str:
        return (
            f"With {formatting.drives(drives)}: about {self._figure(self.scaling.throughput_with(drives))}"
            f" at {formatting.threshold(self.threshold_ms)}, {self._how(drives)}."
        )

    def _how(self, drives: int) -> str:
        scaling = self.scaling
        if not scaling.extrapolated(drives):
            return f"modelled within the drive counts measured ({scaling.fewest_drives} to {scaling.most_drives})"
        if drives > scaling.most_drives and scaling.plateau is not None:
            return (
                f"extrapolated beyond the {formatting.drives(scaling.most_drives)} measured,"
                f" no more than the plateau of {self._figure(scaling.plateau)}"
            )
        side = "beyond" if drives > scaling.most_drives else "below"
        edge = scaling.most_drives if drives > scaling.most_drives else scaling.fewest_drives
        return f"extrapolated {side} the {formatting.drives(edge)} measured, at the measured figure per drive"

    def _drives_error_line(self) -> str:
        """The error of the drives asked for, measured that way round on this sweep."""
        error = self.drives_error
        if not error.left_out:
            return (
                "No error of the drive count measured: the sweep has no interior drive count on a rising part"
                f" (each {formatting.percent(RISING_PCT)} above the one before) to leave out."
            )
        counts = ", ".join(formatting.whole(x.drive_count) for x in error.left_out)
        line = (
            f"Error of the drive count on this sweep: median {formatting.percent(error.median_pct)},"
            f" worst {formatting.percent(error.worst_pct)} (each of {counts} drives left out, and the drives"
            " for its throughput predicted from the others)."
        )
        loose = [formatting.whole(x.drive_count) for x in error.left_out if not x.clearly_rising]
        if loose:
            line += (
                f" At {', '.join(loose)} drives the sweep gained under half its throughput per drive from the count"
                " before, so a throughput there names the drive count only loosely."
            )
        return line

    def _error_line(self) -> str:
        if not self.error.left_out:
            return "No error measured: the sweep has no interior drive count to leave out."
        counts = ", ".join(formatting.whole(x.drive_count) for x in self.error.left_out)
        return (
            f"Error on this sweep: median {formatting.percent(self.error.median_pct)},"
            f" worst {formatting.percent(self.error.worst_pct)}"
            f" (each of {counts} drives left out and predicted from the others)."
        )


@dataclass(frozen=True)
class Estimate:
    """No sweep: the back-end formula, with where its per-drive figure came from."""

    workload: str
    backend: BackEnd
    per_drive_source: str

    def lines(self) -> list[str]:
        result = self.backend
        found = [f"An estimate, not a measurement: back-end IOPS = {result.formula}."]
        if result.drives is None:
            found.append("No per-drive figure is known for these drives, so no drive count.")
        else:
            found.append(
                f"At {formatting.throughput(result.per_drive_iops, 'iops')} a drive ({self.per_drive_source}):"
                f" {formatting.drives(result.drives)}."
            )
        return found


@dataclass(frozen=True)
class Sizing:
    sweeps: tuple[SweepSizing, ...]
    estimate: Estimate | None
    # How many runs of the workload (with the filters asked) the answer was read from: 0 is no data at all.
    runs_read: int = 0
    # Why figures of the workload of other kinds than I/Os or bytes (object, metadata, file rates) are not
    # sized: "No drive-count sizing for object ops/s: ...", a sentence a kind.
    not_sized: tuple[str, ...] = ()
