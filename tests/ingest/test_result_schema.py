"""The result contract published as a JSON Schema: generated from the result types, met by real
results (every format's contract tests validate its samples against it), failed by broken ones."""

import copy
import dataclasses

import jsonschema
import pytest

from ingest import Source
from ingest.contract import validate
from ingest.formats import array_profile, fio, iometer
from ingest.result import Point, ResultSet, Run, TransferSize, Workload, json_schema
from tests.ingest.helpers import parse_one
from tests.samples import sample

VALIDATOR = jsonschema.Draft202012Validator(json_schema())
# A real result: elbencho's --csvfile output of a 4-thread run (samples/elbencho).
CSV = sample("elbencho") / "glennklockwood_cgpu_bw-direct.04threads.2798687.csv"


@pytest.fixture(scope="module")
def result():
    return parse_one(CSV)


def problems(result):
    return sorted(f"{error.json_path}: {error.validator}" for error in VALIDATOR.iter_errors(result))


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(json_schema())
    assert json_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_schema_states_the_contracts_units_and_bounds():
    definitions = json_schema()["$defs"]
    assert definitions["Point"]["properties"]["cpu_pct"] == {
        "type": ["number", "null"],
        "minimum": 0,
        "maximum": 102400,
    }
    assert definitions["Workload"]["properties"]["read_pct"] == {
        "type": ["number", "null"],
        "minimum": 0,
        "maximum": 100,
    }
    assert definitions["Workload"]["properties"]["streams"] == {"type": ["integer", "null"], "exclusiveMinimum": 0}
    # The tool's own name of the workload: optional, and no part of what the workload is.
    assert definitions["Workload"]["properties"]["name"] == {"type": ["string", "null"], "pattern": r"\S"}
    assert definitions["Run"]["properties"]["phase"]["enum"] == ["measurement", "preparation", "warm-up"]
    assert definitions["Run"]["properties"]["verdict"]["enum"] == ["pass", "fail", None]
    assert definitions["Run"]["properties"]["points"]["minItems"] == 1
    assert definitions["Point"]["additionalProperties"] is False


def test_a_real_result_meets_it(result):
    assert result["format"] == "elbencho"
    assert problems(result) == []


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda r: r["runs"][0]["points"][0].update(iops=-5.0), "$.runs[0].points[0].iops: minimum"),
        (lambda r: r["runs"][0]["points"][0].update(iops="3486"), "$.runs[0].points[0].iops: type"),
        (lambda r: r["runs"][0]["points"][0].update(cpu_pct=200_000.0), "$.runs[0].points[0].cpu_pct: maximum"),
        (lambda r: r["runs"][0]["workload"].update(read_pct=101.0), "$.runs[0].workload.read_pct: maximum"),
        (lambda r: r["runs"][0].update(points=[]), "$.runs[0].points: minItems"),
        (lambda r: r["runs"][0].update(verdict="maybe"), "$.runs[0].verdict: enum"),
        (lambda r: r["runs"][0].update(name=" "), "$.runs[0].name: pattern"),
        (lambda r: r["runs"][0]["workload"].update(name=" "), "$.runs[0].workload.name: pattern"),
        (lambda r: r["runs"][0]["workload"].update(name=7), "$.runs[0].workload.name: type"),
        (lambda r: r["source"].update(sha256="abc"), "$.source.sha256: pattern"),
        (lambda r: r["runs"][0]["points"][0].update(iops_per_drive=1.0), "$.runs[0].points[0]: additionalProperties"),
        (lambda r: r.pop("warnings"), "$: required"),
    ],
)
def test_a_broken_result_fails_it(result, damage, problem):
    broken = copy.deepcopy(result)
    damage(broken)
    assert problems(broken) == [problem]


@pytest.mark.parametrize(
    ("figures", "problem"),
    [
        ({"iops": float("nan")}, "runs[0].points[0].iops: expected a number or null, got nan"),
        ({"iops": float("inf")}, "runs[0].points[0].iops: infinite value inf"),
        ({"mbps": -1.0}, "runs[0].points[0].mbps: -1.0 is below 0"),
        ({"cpu_pct": 102_401.0}, "runs[0].points[0].cpu_pct: 102401.0 is above 102400"),
        ({"max_response_ms": True}, "runs[0].points[0].max_response_ms: expected a number or null, got True"),
        ({"iops": 1e308, "mbps": 1e308}, None),  # a sum too large for a float, each figure finite
    ],
)
def test_point_figures_checked_together_give_each_problem_by_name(result, figures, problem):
    broken = copy.deepcopy(result)
    broken["runs"][0]["points"][0].update(figures)
    assert validate(broken) == ([problem] if problem else [])


def test_metrics_a_format_checked_are_not_walked_again(result):
    broken = copy.deepcopy(result)
    broken["runs"][0]["points"][0]["metrics"]["made_up"] = [{"ms": float("inf")}]
    assert validate(broken) == ["runs[0].points[0].metrics.made_up[0].ms: inf is not a finite number"]
    assert validate(broken, metrics_checked=True) == []
    # Everything but the metrics is checked whatever the format says.
    broken["runs"][0]["points"][0]["load"]["threads"] = float("nan")
    assert validate(broken, metrics_checked=True) == ["runs[0].points[0].load.threads: nan is not a finite number"]


@pytest.mark.parametrize("name", [" ", 7])
def test_the_contract_refuses_a_blank_or_non_text_workload_name(result, name):
    broken = copy.deepcopy(result)
    broken["runs"][0]["workload"]["name"] = name
    assert validate(broken) == [f"runs[0].workload.name: expected a non-empty name or null, got {name!r}"]


# A result of runs of one point each, whose metrics its parser checked: fio's JSON output of two
# group-reporting jobs (samples/fio); the contract checks all points' figures at once first.
FIO = sample("fio") / "pkb_fio-2.17_multijob_group_reporting.json"


@pytest.fixture(scope="module")
def fio_result():
    return parse_one(FIO)


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda p: p.update(iops=float("nan")), "iops: expected a number or null, got nan"),
        (lambda p: p.update(read_mbps=-0.5), "read_mbps: -0.5 is below 0"),
        (lambda p: p.update(cpu_pct=102_401.0), "cpu_pct: 102401.0 is above 102400"),
        (lambda p: p.update(mbps="12"), "mbps: expected a number or null, got '12'"),
        (lambda p: p["load"].update(threads=float("inf")), "load.threads: inf is not a finite number"),
        (lambda p: p.update(load=[2]), "load: expected an object"),
        (lambda p: p.update(metrics=[]), "metrics: expected an object"),
    ],
)
def test_a_damaged_point_of_a_later_run_is_named(fio_result, damage, problem):
    last = len(fio_result["runs"]) - 1
    broken = copy.deepcopy(fio_result)
    damage(broken["runs"][last]["points"][0])
    assert validate(broken, metrics_checked=True) == [f"runs[{last}].points[0].{problem}"]


def test_damaged_parameters_and_transfer_sizes_are_named(fio_result):
    broken = copy.deepcopy(fio_result)
    broken["runs"][0]["params"]["ramp"] = {"seconds": [1.0, float("nan")]}
    broken["runs"][1]["workload"]["transfer_sizes"][0]["pct"] = 100.5
    assert validate(broken, metrics_checked=True) == [
        "runs[0].params.ramp.seconds[1]: nan is not a finite number",
        "runs[1].workload.transfer_sizes[0].pct: 100.5 is above 100",
    ]


def test_finite_figures_too_large_to_add_up_are_kept(fio_result):
    result = copy.deepcopy(fio_result)
    result["runs"][0]["params"]["limits"] = [1e308, 1e308, None, "x"]
    result["runs"][0]["points"][0]["load"]["threads"] = 1e308
    result["runs"][0]["points"][0].update(iops=1e308, mbps=1e308)
    assert validate(result, metrics_checked=True) == []


@pytest.mark.parametrize(
    ("module", "path"),
    [
        (fio, FIO),
        (iometer, sample("iometer") / "quarchpy_an016_testfile_1.1.0_multitest.csv"),
        (array_profile, sample("profile") / "supportbundle_storageArrayProfile.txt"),  # a system, its drives
    ],
)
def test_the_dict_form_holds_every_field_of_the_result(module, path):
    parsed = module.parse(Source(path))
    assert parsed.to_dict() == dataclasses.asdict(parsed)


def test_the_dict_form_holds_only_the_fields_of_the_result():
    parsed = fio.parse(Source(FIO))
    parsed.runs[0].points[0].note = "set on the object"  # type: ignore[attr-defined]
    point = parsed.to_dict()["runs"][0]["points"][0]
    assert "note" not in point
    assert list(point) == [item.name for item in dataclasses.fields(parsed.runs[0].points[0])]


def test_the_dict_form_taken_from_the_objects_is_the_copied_one():
    taken = fio.parse(Source(FIO)).take_dict()
    assert taken == fio.parse(Source(FIO)).to_dict()
    # pkb_fio-2.17_multijob_group_reporting.json, jobs[0]: read.iops, and iodepth 1 x numjobs 2
    assert taken["runs"][0]["points"][0]["iops"] == 8086.673998
    assert taken["runs"][0]["points"][0]["load"] == {"outstanding_io": 2, "threads": 2}


def test_an_object_met_twice_gives_a_dict_form_of_its_own_each_time():
    workload = Workload(read_pct=70.0, transfer_sizes=[TransferSize(bytes=8192, pct=100.0)])
    runs = [Run(name=name, workload=workload, points=[Point(load={"outstanding_io": 1})]) for name in ("a", "b")]
    taken = ResultSet(format="fio", tool={"name": "fio"}, source={"name": "x"}, runs=runs).take_dict()
    taken["runs"][0]["workload"]["read_pct"] = 30.0
    assert taken["runs"][1]["workload"]["read_pct"] == 70.0
    assert taken["runs"][1]["workload"]["transfer_sizes"] == [{"bytes": 8192, "pct": 100.0}]


def test_a_point_made_elsewhere_may_leave_figures_out(fio_result):
    result = copy.deepcopy(fio_result)
    for name in ("cpu_pct", "max_response_ms"):
        del result["runs"][1]["points"][0][name]
    assert validate(result) == []
    result["runs"][1]["points"][0]["iops"] = -1.0
    assert validate(result) == ["runs[1].points[0].iops: -1.0 is below 0"]


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda w: w.update(read_pct=101), "read_pct: 101 is above 100"),
        (lambda w: w.update(random_pct=float("nan")), "random_pct: expected a number or null, got nan"),
        (lambda w: w.update(streams=0), "streams: expected a positive whole number or null, got 0"),
        (
            lambda w: w.update(alignment_bytes=512.0),
            "alignment_bytes: expected a positive whole number or null, got 512.0",
        ),
        (lambda w: w.update(name=" "), "name: expected a non-empty name or null, got ' '"),
        (lambda w: w["transfer_sizes"][0].pop("bytes"), "transfer_sizes[0].bytes: expected a positive whole number"),
        (lambda w: w["transfer_sizes"][0].update(pct=-1), "transfer_sizes[0].pct: -1 is below 0"),
    ],
)
def test_a_damaged_workload_of_a_later_run_is_named(fio_result, damage, problem):
    broken = copy.deepcopy(fio_result)
    damage(broken["runs"][1]["workload"])
    assert validate(broken, metrics_checked=True) == [f"runs[1].workload.{problem}"]


def test_parameters_that_are_no_object_are_named(fio_result):
    broken = copy.deepcopy(fio_result)
    broken["runs"][1]["params"] = [float("inf")]
    assert validate(broken, metrics_checked=True) == ["runs[1].params[0]: inf is not a finite number"]


def test_the_dict_form_keeps_each_runs_points_apart():
    parsed = iometer.parse(Source(sample("iometer") / "quarchpy_an016_testfile_1.1.0_multitest.csv"))
    parsed.runs[0].points.append(dataclasses.replace(parsed.runs[0].points[0], iops=1.0))
    runs = parsed.to_dict()["runs"]
    assert [len(run["points"]) for run in runs] == [len(run.points) for run in parsed.runs]
    assert [point["iops"] for point in runs[0]["points"]] == [parsed.runs[0].points[0].iops, 1.0]
