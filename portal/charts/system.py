"""A system's sweep chart: throughput at the threshold against one parameter."""

from portal import formatting
from portal.charts import Chart, Series
from portal.comparisons.sweeps import SWEEP_PARAMETERS
from portal.models import System


def sweep_chart(
    sweep_series: dict[tuple[str, str], dict[str, list[tuple[float, float, int]]]],
    *,
    system: System,
    parameter: str,
    threshold_ms: float,
) -> Chart:
    """Throughput at the threshold against one parameter; one line per combination of the others."""
    series: list[Series] = []
    metric_titles: list[str] = []
    for (metric, unit), lines in sweep_series.items():
        metric_titles.append(unit)
        for label, points in lines.items():
            series.append(
                Series(
                    f"{label} ({unit})",
                    [x for x, _, _ in points],
                    [value for _, value, _ in points],
                    hover=[f"run #{run_id}: {formatting.throughput(y, metric, unit=unit)}" for _, y, run_id in points],
                    style=len(series),
                )
            )
    against = SWEEP_PARAMETERS[parameter].lower()
    title = f"{system.name}: throughput at {formatting.threshold(threshold_ms)} against {against}"
    y_title = " or ".join(metric_titles) or "Throughput"
    return Chart(
        title,
        SWEEP_PARAMETERS[parameter],
        f"{y_title} at {formatting.threshold(threshold_ms)}",
        series,
        x_log=parameter == "transfer_bytes",
    )
