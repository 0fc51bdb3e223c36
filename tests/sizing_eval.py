"""Print how far sizing and prediction can be trusted, each goal's figure under cross-validation.

    python -m tests.sizing_eval

1. Prediction on the fio-plot grids (samples/fio-grids): every cell off the row and column through the
   page's focal point (a quarter of the way up each axis) predicted from that row and column only, by total
   outstanding I/O; absolute relative error per grid, pooled and by kind (interpolated, extrapolated below or
   above the sweeps' totals), and how many cells fall within their kind's 90th percentile measured on the
   other devices. Then each candidate focal rule and reading (tests/grid_candidates.py) pooled, and the
   candidate chosen on the other devices, each device left out in turn: the goal's figure.
   ``--bands`` prints portal.analysis.prediction_bands.BANDS instead.
2. Sizing on seed 000's drive-count sweeps (Tables 1, 3, 4, 5, 7, 8 in fixtures/demo.yaml): each
   interior drive count left out and predicted from the others (the knee chosen on the others),
   per sweep with the model that answers it, and pooled; each knee forced everywhere and linear
   interpolation between the neighbours for reference. Then the question sizing asks: the drives needed
   for a left-out count's throughput, on the rising parts of the sweeps, with the gradual knee's margin
   fixed and chosen on the other sweeps (each sweep left out in turn); then each way of answering it
   (tests/sizing_candidates.py: the model, PCHIP and straight lines between the measured neighbours) and the
   way chosen on the other sweeps; answers helped by the other sweeps and bounds no answer reaches
   (tests/sizing_bounds.py). Each also on the clearly rising counts alone (those that gained at least half
   their own throughput per drive from the count before: portal.analysis.drives_error.CLEARLY_RISING_GAIN).
3. The DS4500's RAID-5 OLTP 8K (All Caches Disabled) sweep: drives for 12,000 and 20,000 IOPS at 20 ms.
4. Prediction along read % on the fio-plot grids with both randread (100 %) and randwrite (0 %):
   IOPS by total outstanding I/O (the mean over iodepth x numjobs of the same total), every 0 % cell
   but the focal one predicted from the 100 % sweep and the 0 % figure at the middle total, as the
   predict page's "along read %" does; per device and pooled, for the model chosen (on the same
   cells: the figure is the better of the two per device) and for each model everywhere.

Reads the files directly (no database); the portal's pages, API and command read the same sweeps
from the database through the same analysis functions.
"""

import math
import statistics
import sys
from collections import defaultdict

import yaml

from ingest import parse_paths
from portal import formatting
from portal.analysis import drive_scaling
from portal.analysis.drive_scaling import (
    GRADUAL_KNEE_SHARPNESS,
    KNEE_SHARPNESS,
    DriveCountFigure,
    drives_needed,
    fit,
    leave_one_out,
)
from portal.analysis.drives_error import CLEARLY_RISING_GAIN, RISING_PCT, drives_left_out
from portal.analysis.grid_prediction import Model, default_focal, percentile, predict_grid
from portal.analysis.prediction_bands import Band, Kind, band_of
from tests import grid_candidates, sizing_bounds, sizing_candidates
from tests.samples import REPO, sample

SEED_000 = "000_f52f16ce4c762121.txt"


def fio_grids() -> dict[tuple[str, str], dict[tuple[float, float], float]]:
    """IOPS by (iodepth, numjobs) of each device and rw grid."""
    grids = {}
    for folder in sorted(p for p in sample("fio-grids").iterdir() if p.is_dir()):
        for rw in ("randread", "randwrite", "randrw"):
            paths = sorted(folder.glob(f"{rw}-*.json"))
            if not paths:
                continue
            [result] = parse_paths(paths)
            cells = {}
            for run in result["runs"]:
                for point in run["points"]:
                    jobs = point["load"]["threads"]
                    cells[(point["load"]["outstanding_io"] / jobs, jobs)] = point["iops"]
            grids[(folder.name.removeprefix("fioplot_"), rw)] = cells
    return grids


def grid_errors(cells) -> list[tuple[float, Kind]]:
    """Each off-axis cell's error (%) and kind, predicted from the row and column through the page's focal point
    alone, as the prediction page does."""
    focal = default_focal(cells)
    axes = {cell: value for cell, value in cells.items() if cell[0] == focal[0] or cell[1] == focal[1]}
    off = {cell: value for cell, value in cells.items() if cell not in axes}
    prediction = predict_grid(axes, focal=focal, outstanding=True, known=off)
    return [(cell.error_pct, cell.kind) for cell in prediction.cells if cell.error_pct is not None and cell.kind]


def device_errors() -> dict[str, list[tuple[float, Kind]]]:
    """Every off-axis cell's error and kind, by device (a device's grids pooled)."""
    by_device: dict[str, list[tuple[float, Kind]]] = defaultdict(list)
    for (device, _), cells in fio_grids().items():
        by_device[device] += grid_errors(cells)
    return by_device


def grid_bands() -> dict[Kind, Band]:
    """The band of each kind over every device's cells: what prediction_bands.BANDS holds."""
    pooled = [pair for errors in device_errors().values() for pair in errors]
    return {kind: band_of([e for e, k in pooled if k is kind]) for kind in Kind}


def _summary(errors: list[float]) -> str:
    median, p90 = statistics.median(errors), percentile(errors, 90)
    return f"median {formatting.percent(median)}, 90th percentile {formatting.percent(p90)}"


def report_grids() -> None:
    print("Prediction on the fio grids from the row and column through the page's focal point (a quarter of the way")
    print("up each axis), by total outstanding I/O, each cell read off both sweeps by its share of jobs")
    for (device, rw), cells in fio_grids().items():
        errors = [e for e, _ in grid_errors(cells)]
        print(f"  {device} {rw}: {len(errors)} cells: {_summary(errors)}")
    by_device = device_errors()
    pooled = [pair for errors in by_device.values() for pair in errors]
    print(f"  the page's rule on every device, pooled ({len(pooled)} cells): {_summary([e for e, _ in pooled])}")
    for kind in Kind:
        errors = [e for e, k in pooled if k is kind]
        print(f"    {kind} ({len(errors)} cells): {_summary(errors)}, worst {formatting.percent(max(errors))}")
    within = band_coverage(by_device)
    covered, total = sum(within), len(within)
    print(
        f"  goal (>= 80 %) band coverage, leave one device out: {covered} of {total} cells"
        f" ({formatting.percent(covered / total * 100)}) within the 90th percentile of their kind measured"
        " on the other devices"
    )
    for kind in Kind:
        mine = [
            ok
            for ok, k in zip(within, (k for errors in by_device.values() for _, k in errors), strict=True)
            if k is kind
        ]
        print(f"    {kind}: {sum(mine)} of {len(mine)} ({formatting.percent(sum(mine) / len(mine) * 100)})")
    report_grid_candidates()


def report_grid_candidates() -> None:
    """Each focal rule and reading pooled; the one chosen on the other devices, each device left out in turn."""
    errors = grid_candidates.candidate_errors(fio_grids())
    print("  each focal rule and reading (tests/grid_candidates.py), pooled over every device:")
    for (focal, reading), by_device in errors.items():
        print(f"    {focal}, {reading}: {_summary([e for device in by_device.values() for e in device])}")
    print(f"  chosen on all 16 devices (what the page does): {', '.join(grid_candidates.chosen(errors))}")
    pooled, choices = grid_candidates.cross_validated(errors)
    counts = ", ".join(f"{', '.join(c)} for {list(choices.values()).count(c)}" for c in dict.fromkeys(choices.values()))
    print(
        f"  goal (kept-aside grids: median <= 1.8 %, p90 <= 20 %), each device left out, its focal rule and reading"
        f" chosen on the other 15 ({counts} of {len(choices)} devices; {len(pooled)} cells):"
    )
    print(f"    {_summary(pooled)}, worst {formatting.percent(max(pooled))}")


def band_coverage(by_device: dict[str, list[tuple[float, Kind]]]) -> list[bool]:
    """Each cell (device by device, in order): within the 90th percentile of its kind on the other devices."""
    within = []
    for device, errors in by_device.items():
        others = [pair for other, pairs in by_device.items() if other != device for pair in pairs]
        p90 = {kind: percentile([e for e, k in others if k is kind], 90) for kind in Kind}
        within += [error <= p90[kind] for error, kind in errors]
    return within


def bands_source() -> str:
    """prediction_bands.BANDS as Python source, from the shared grids."""
    lines = ["BANDS = {"]
    for kind, band in grid_bands().items():
        lines.append(
            f"    Kind.{kind.name}: Band(cells={band.cells}, median_pct={band.median_pct},"
            f" p90_pct={band.p90_pct}, worst_pct={band.worst_pct}),"
        )
    return "\n".join([*lines, "}"])


def seed_000_sweeps() -> dict[tuple[str, str, str, str], list[DriveCountFigure]]:
    """Seed 000's published figures by (system, RAID level, cache setting, workload) against drive count:
    IOPS where the table prints them, else MB/s (as printed; the ratio is what the errors measure)."""
    demo = yaml.safe_load((REPO / "fixtures" / "demo.yaml").read_text())
    sweeps: dict = defaultdict(dict)
    for run in demo["runs"]:
        citation, config = run["citation"], run["config"]
        if citation["document"] != SEED_000 or not config.get("drive_count") or not run["points"]:
            continue
        key = (run["system"], config["raid_level"], config["extra"]["cache_setting"], run["workload"])
        point = run["points"][0]
        sweeps[key][config["drive_count"]] = point.get("iops") or point["mbps"]
    return {
        key: [DriveCountFigure(n, value) for n, value in sorted(by_count.items())]
        for key, by_count in sweeps.items()
        if len(by_count) >= 3
    }


def report_sizing() -> None:
    sweeps = seed_000_sweeps()
    pooled: dict[str, list[float]] = defaultdict(list)
    print("Sizing on seed 000's drive-count sweeps: each interior drive count left out, the knee chosen on the others")
    for (system, raid_level, cache, workload), figures in sweeps.items():
        errors = [x.error_pct for x in leave_one_out(figures).left_out]
        pooled["chosen"] += errors
        for name, sharpness in (("sharp", KNEE_SHARPNESS), ("gradual", GRADUAL_KNEE_SHARPNESS)):
            pooled[name] += drive_scaling._left_out_errors(figures, sharpness)
        pooled["linear"] += _linear_errors(figures)
        worst = formatting.percent(max(errors))
        print(
            f"  {system} {raid_level} {cache} {workload}: {fit(figures).model_name};"
            f" errors {', '.join(formatting.percent(e) for e in errors)} (worst {worst})"
        )
    print(f"  pooled, knee chosen per sweep ({len(pooled['chosen'])} drive counts): {_summary(pooled['chosen'])}")
    print(f"  pooled, sharp knee everywhere: {_summary(pooled['sharp'])}")
    print(f"  pooled, gradual knee everywhere: {_summary(pooled['gradual'])}")
    print(f"  pooled, linear interpolation between neighbours: {_summary(pooled['linear'])}")
    report_drives_needed(sweeps)


def _with_worst(errors: list[float]) -> str:
    return f"{_summary(errors)}, worst {formatting.percent(max(errors))}"


def _both(scored: list[tuple[float, bool]]) -> str:
    """Errors on every rising count, then on the clearly rising ones."""
    clearly = [error for error, clear in scored if clear]
    return f"{_with_worst([e for e, _ in scored])}; clearly rising: {_with_worst(clearly)}"


def report_drives_needed(sweeps: dict) -> None:
    """Drives for a left-out count's throughput: the portal's answer, other answers, and bounds."""
    scored = [(x.error_pct, x.clearly_rising) for f in sweeps.values() for x in drives_left_out(f).left_out]
    clearly = [error for error, clear in scored if clear]
    print(
        f"  goal (median <= 3 %, p90 <= 15 %) drives needed for a left-out point's throughput, {len(scored)} points"
        f" on rising parts (each {formatting.percent(RISING_PCT)} above the one before):"
        f" {_with_worst([e for e, _ in scored])}"
    )
    print(
        f"    the {len(clearly)} of them clearly rising (each gained at least {CLEARLY_RISING_GAIN:g} of its own"
        f" throughput per drive from the count before, a rule fixed before scoring): {_with_worst(clearly)}"
    )
    scored, chosen = margin_cross_validated(sweeps)
    print(
        f"    with the gradual knee's margin chosen on the other sweeps (leave one sweep out; chosen:"
        f" {', '.join(f'{m:g}' for m in sorted(set(chosen)))} points): {_both(scored)}"
    )
    report_candidates(sweeps)
    print("    with help from the other sweeps (each sweep left out):")
    for name, way in (
        ("the knee that predicts the same workload's other sweeps best", sizing_bounds.knee_of_the_workload),
        ("one shape learnt on the other sweeps' left-out counts", sizing_bounds.shared_shape),
        (
            "the closest other sweep, its measured count included (not available between measured counts)",
            sizing_bounds.nearest_sweep,
        ),
    ):
        print(f"      {name}: {_both(way(sweeps))}")
    print("    bounds no answer reaches (each sees the counts asked):")
    for name, way in (
        ("the knee's roundness known (chosen per sweep on its own asked counts)", sizing_bounds.knee_known),
        ("the model fitted with the count asked among its counts", sizing_bounds.fitted_with_it),
    ):
        print(f"      {name}: {_both(way(sweeps))}")


def report_candidates(sweeps: dict) -> None:
    """The ways of answering drives needed, each pooled, and the one chosen on the other sweeps."""
    pooled, errors, choices = sizing_candidates.compared(sweeps)
    pooled_clearly, errors_clearly, choices_clearly = sizing_candidates.compared(sweeps, clearly=True)
    print("    each way of answering, everywhere (every rising count; clearly rising):")
    for name, values in pooled.items():
        print(f"      {name}: {_with_worst(values)}; {_with_worst(pooled_clearly[name])}")
    for label, found, made in (("", errors, choices), (", clearly rising", errors_clearly, choices_clearly)):
        counts = ", ".join(f"{name} for {made.count(name)}" for name in dict.fromkeys(made))
        print(
            f"    the way chosen on the other sweeps{label} (leave one sweep out; chosen: {counts} of {len(made)}"
            f" sweeps): {_with_worst(found)}"
        )


MARGINS_PCT = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, math.inf)


def _score_without(errors_by_sweep: dict, left_out) -> tuple[float, float]:
    pooled = [e for key, errors in errors_by_sweep.items() if key != left_out for e in errors]
    return percentile(pooled, 90), statistics.median(pooled)


def margin_cross_validated(sweeps: dict) -> tuple[list[tuple[float, bool]], list[float]]:
    """The gradual knee's margin chosen without the sweep it is scored on: for each sweep left out, the
    margin of :data:`MARGINS_PCT` with the lowest 90th percentile (then median) of drives-needed error on
    the other sweeps' rising counts; that sweep's errors with it. Returns each error with whether its count
    is clearly rising, and the margins chosen."""
    by_margin = {
        margin: {key: drives_left_out(f, gradual_margin_pct=margin).left_out for key, f in sweeps.items()}
        for margin in MARGINS_PCT
    }
    errors = {m: {key: [x.error_pct for x in left] for key, left in by.items()} for m, by in by_margin.items()}
    scored, chosen = [], []
    for key in sweeps:
        margin = min(MARGINS_PCT, key=lambda m, left=key: _score_without(errors[m], left))
        chosen.append(margin)
        scored += [(x.error_pct, x.clearly_rising) for x in by_margin[margin][key]]
    return scored, chosen


def _linear_errors(figures: list[DriveCountFigure]) -> list[float]:
    errors = []
    for index in range(1, len(figures) - 1):
        low, point, high = figures[index - 1], figures[index], figures[index + 1]
        share = (point.drive_count - low.drive_count) / (high.drive_count - low.drive_count)
        linear = low.throughput + (high.throughput - low.throughput) * share
        errors.append(abs(linear - point.throughput) / point.throughput * 100)
    return errors


def report_ds4500() -> None:
    figures = seed_000_sweeps()[("IBM DS4500", "RAID-5", "All Caches Disabled", "OLTP 8K")]
    scaling = fit(figures)
    error = leave_one_out(figures)
    print(f"IBM DS4500, RAID-5, All Caches Disabled, OLTP 8K at 20 ms (seed 000 Table 1): {scaling.model_name}")
    print(
        "  measured: "
        + ", ".join(f"{f.drive_count} drives {formatting.throughput(f.throughput, 'iops')}" for f in figures)
    )
    for target in (12_000, 20_000):
        answer = drives_needed(scaling, target=target, raid_level="RAID-5")
        wanted = formatting.throughput(target, "iops")
        if answer.reachable:
            print(f"  {wanted}: {formatting.drives(answer.drives)}")
        else:
            print(
                f"  {wanted}: not reachable, it levels off at about {formatting.throughput(answer.plateau, 'iops')}"
                f" from about {formatting.drives(round(answer.knee_drives or 0))}"
            )
    print(
        f"  leave-one-out error: median {formatting.percent(error.median_pct)},"
        f" worst {formatting.percent(error.worst_pct)}"
    )


def read_share_cells(folder) -> dict[tuple[float, float], float]:
    """Mean IOPS by (total outstanding I/O, read %) of a device's randread and randwrite grids."""
    by_cell: dict[tuple[float, float], list[float]] = defaultdict(list)
    for rw, read_pct in (("randread", 100.0), ("randwrite", 0.0)):
        paths = sorted(folder.glob(f"{rw}-*.json"))
        if paths:
            [result] = parse_paths(paths)
            for point in result["runs"][0]["points"]:
                by_cell[(float(point["load"]["outstanding_io"]), read_pct)].append(point["iops"])
    return {cell: statistics.mean(values) for cell, values in by_cell.items()}


def report_read_share() -> None:
    from portal.analysis import grid_prediction

    print("Prediction along read % on the fio grids (randwrite from randread and one randwrite figure)")
    pooled: dict[str, list[float]] = defaultdict(list)
    for folder in sorted(p for p in sample("fio-grids").iterdir() if p.is_dir()):
        cells = read_share_cells(folder)
        if len({read_pct for _, read_pct in cells}) < 2:
            continue
        totals = sorted({total for total, _ in cells})
        focal = (totals[len(totals) // 2], 100.0)
        prediction = predict_grid(cells, focal=focal, outstanding=False)
        errors = [cell.error_pct for cell in prediction.cells if cell.error_pct is not None]
        pooled["chosen"] += errors
        sweeps = grid_prediction._sweeps(cells, focal)
        off = {cell: value for cell, value in cells.items() if cell[0] != focal[0] and cell[1] != focal[1]}
        for model in (Model.PRODUCT, Model.SUM):
            pooled[str(model)] += [
                abs(grid_prediction._predict(model, sweeps, focal, cell) - value) / value * 100
                for cell, value in off.items()
            ]
        print(f"  {folder.name.removeprefix('fioplot_')}: {len(errors)} cells, {prediction.model}: {_summary(errors)}")
    print(f"  pooled, model chosen per device ({len(pooled['chosen'])} cells): {_summary(pooled['chosen'])}")
    for model in (Model.PRODUCT, Model.SUM):
        print(f"  pooled, {model} everywhere: {_summary(pooled[str(model)])}")


def main() -> None:
    if sys.argv[1:] == ["--bands"]:
        print(bands_source())
        return
    report_grids()
    print()
    report_sizing()
    print()
    report_ds4500()
    print()
    report_read_share()


if __name__ == "__main__":
    main()
