"""Which measured runs are read as is: their one point is their figure at any threshold, as a published
figure is. A lab's own IO500 results state no response time; every other tool's measured runs are read at
the threshold."""

from portal.models import Run

IO500 = "IO500"


def measured_as_is(*, origin: str, tool: str, min_avg_response_ms: float | None) -> bool:
    """Whether a measured run's figure is its one point used as is, at any threshold: a lab's own IO500 run
    (its upload of ``result_summary.txt`` or a results folder), whose phases and score state no response time,
    read as the catalogue's published submissions are. Measured runs of any other tool are read at the
    threshold."""
    return origin == Run.Origin.MEASURED and tool == IO500 and min_avg_response_ms is None


def run_as_is(run: Run) -> bool:
    """:func:`measured_as_is` of ``run``."""
    return measured_as_is(origin=run.origin, tool=run.tool, min_avg_response_ms=run.min_avg_response_ms)
