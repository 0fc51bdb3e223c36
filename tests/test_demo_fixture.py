"""The demo fixture (fixtures/demo.yaml) against the seed papers it transcribes.

The fixture holds published figures typed in from the seed studies; these tests check that it is
whole (every run cites a seed file and names a known system and workload, no N/A cell became a
zero) and that its numbers are the papers' numbers: seed 000's six result tables are compared
cell for cell with the seed text, and the headline figures are spot-checked by hand.
"""

import json
import math
import re
from collections import Counter

import pytest
import yaml

from ingest.result import POINT_FIGURES
from tests.samples import REPO, SEEDS_DIR

FIXTURE = REPO / "fixtures" / "demo.yaml"
DS4500_PAPER = "000_f52f16ce4c762121.txt"
DS5020_PAPER = "001_22c77edb183857dc.txt"
EVA_PAPER = "002_a42e26287dbab2e7.txt"
DR550_PAPER = "004_bf9666ef551c1eb4.txt"
FIGURES = set(POINT_FIGURES)
CONFIG_KEYS = {
    "raid_level",
    "drive_count",
    "drives_per_array",
    "drive_type",
    "drive_rpm",
    "drive_capacity_gb",
    "segment_kb",
    "read_cache",
    "write_cache",
    "write_cache_mirroring",
    "prefetch",
    "stroke_pct",
    "extra",
}
# Seed 000's result tables: number, RAID level, and the table's column names mapped to workloads.
DS4500_TABLES = {
    "Table 1": "RAID-5",
    "Table 3": "RAID-5",
    "Table 4": "RAID-5",
    "Table 5": "RAID-10",
    "Table 7": "RAID-10",
    "Table 8": "RAID-10",
}
COLUMN_WORKLOAD = {"File Server [MBps]": "File Server", "Static Web Server [MBps]": "Web Server"}


@pytest.fixture(scope="module")
def demo():
    return yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def all_runs(demo):
    return demo["runs"] + demo["jetstress"] + demo["orion"]


def seed_lines(document):
    return (SEEDS_DIR / document).read_text(encoding="utf-8").splitlines()


def cell_number(text):
    return float(text.replace(",", ""))


def find_runs(runs, **wanted):
    """Runs whose system, workload, citation table and config attributes (incl. cache_setting) match."""
    found = []
    for run in runs:
        config = run["config"]
        values = {
            "system": run["system"],
            "workload": run["workload"],
            "table": run["citation"]["table"],
            "cache_setting": config["extra"].get("cache_setting"),
            **config,
        }
        if all(values.get(key) == value for key, value in wanted.items()):
            found.append(run)
    return found


def only_point(runs, **wanted):
    matches = find_runs(runs, **wanted)
    assert len(matches) == 1, f"{len(matches)} runs match {wanted}"
    (point,) = matches[0]["points"]
    return point


def citations(demo):
    """Every citation in the file, with where it sits."""
    for section in ("systems", "workloads", "runs", "stroke_multipliers", "jetstress", "orion"):
        for i, item in enumerate(demo[section]):
            yield f"{section}[{i}]", item.get("citation")
            if "worked_example" in item:
                yield f"{section}[{i}].worked_example", item["worked_example"].get("citation")


# ---------------------------------------------------------------- integrity


def test_the_file_has_the_documented_sections(demo):
    sections = {"documents", "mbps_units", "systems", "workloads", "runs", "stroke_multipliers", "jetstress", "orion"}
    assert set(demo) == sections


def test_seed_000_mbps_are_declared_binary(demo):
    # 000_f52f16ce4c762121.txt Table 1, 20 HDDs, All Caches Disabled, OLTP 8K: 3000 I/Os and 23 MBps;
    # 3000 x 8192 bytes is 23.4 x 2^20 but 24.6 x 10^6, so the paper's MBps are binary.
    assert demo["mbps_units"] == {"000_f52f16ce4c762121.txt": "binary", DR550_PAPER: "binary"}
    (row,) = [
        r
        for r in demo["runs"]
        if r["system"] == "IBM DS4500"
        and r["workload"] == "OLTP 8K"
        and r["citation"]["table"] == "Table 1"
        and r["config"]["drive_count"] == 20
        and r["config"]["extra"]["cache_setting"] == "All Caches Disabled"
    ]
    point = row["points"][0]
    assert (point["iops"], point["mbps"]) == (3000, 23)
    assert round(point["iops"] * 8192 / 2**20) == point["mbps"]
    assert round(point["iops"] * 8192 / 1e6) != point["mbps"]


def test_every_citation_names_an_existing_seed_file_a_place_and_a_note(demo):
    seeds = {path.name for path in SEEDS_DIR.glob("*.txt")}
    assert len(seeds) == 5, f"expected the five seed papers in {SEEDS_DIR}"
    for where, citation in citations(demo):
        assert citation, f"{where}: no citation"
        assert citation["document"] in seeds, f"{where}: {citation['document']!r} is not a seed file"
        assert citation.get("table"), f"{where}: citation names no table or section"
        assert citation.get("note"), f"{where}: citation has no note"


def test_names_are_unique_and_every_run_names_a_known_system_and_workload(demo, all_runs):
    systems = [system["name"] for system in demo["systems"]]
    workloads = [workload["name"] for workload in demo["workloads"]]
    assert len(set(systems)) == len(systems)
    assert len(set(workloads)) == len(workloads)
    for i, run in enumerate(all_runs):
        assert run["system"] in systems, f"run {i}: unknown system {run['system']!r}"
        assert run["workload"] in workloads, f"run {i}: unknown workload {run['workload']!r}"
    for entry in demo["stroke_multipliers"]:
        assert entry["system"] in systems
        assert entry["workload"] in workloads


def test_every_point_holds_positive_figures_only(all_runs):
    # A paper's N/A becomes a missing run (or a missing figure), never a 0.
    for i, run in enumerate(all_runs):
        assert run["points"], f"run {i} has no points"
        for point in run["points"]:
            figures = {key: value for key, value in point.items() if key in FIGURES}
            assert set(point) - FIGURES <= {"load", "metrics"}, f"run {i}: unknown point keys {set(point)}"
            assert figures, f"run {i}: a point with no figure"
            for key, value in figures.items():
                assert isinstance(value, int | float) and not isinstance(value, bool), f"run {i}.{key}={value!r}"
                assert value > 0, f"run {i}: {key} is {value}; unknown figures are left out, never 0"


def test_run_attributes_use_the_documented_values(all_runs):
    for i, run in enumerate(all_runs):
        assert set(run["config"]) == CONFIG_KEYS, f"run {i}: config keys {sorted(run['config'])}"
        assert run["measurement"] in {"end_to_end", "cache_only"}, f"run {i}"
        assert run["rule"] in {"interpolate", "at_or_below", None}, f"run {i}"
        assert (run["threshold_ms"] is None) == (run["rule"] is None), f"run {i}: threshold without rule"
        stroke_pct = run["config"]["stroke_pct"]
        assert stroke_pct is None or 0 < stroke_pct <= 100, f"run {i}"
        assert run["config"]["drive_type"] in {"HDD", "SSD", "NVMe", None}, f"run {i}"


def test_published_iometer_runs_are_not_typed_twice(demo):
    keys = Counter(
        (run["system"], json.dumps(run["config"], sort_keys=True), run["workload"], run["measurement"])
        for run in demo["runs"]
    )
    assert [key for key, count in keys.items() if count > 1] == []


def test_transfer_size_mixes_add_up_to_100_pct(demo):
    for workload in demo["workloads"]:
        sizes = workload["transfer_sizes"]
        if sizes:
            assert math.isclose(sum(size["pct"] for size in sizes), 100), workload["name"]
            assert all(isinstance(size["bytes"], int) and size["bytes"] > 0 for size in sizes)


def test_rows_of_one_table_share_one_configuration(demo):
    # The white-paper layout groups runs into rows by configuration: a row's runs must agree.
    rows = {}
    for run in find_runs(demo["runs"], system="IBM DS4500"):
        config = run["config"]
        row = (run["citation"]["table"], config["raid_level"], config["drive_count"], config["extra"]["cache_setting"])
        rows.setdefault(row, set()).add(json.dumps(config, sort_keys=True))
    assert all(len(configs) == 1 for configs in rows.values())


# ---------------------------------------------------------------- seed 000 tables, cell for cell


def seed_table(lines, table):
    """The cells of a seed-000 table read from the seed text: {(drives, setting, workload): {metric: text}}."""
    start = next(i for i, line in enumerate(lines) if line.startswith(f"**{table}."))
    rows = iter(lines[start + 1 :])
    line = next(rows)
    while not line.startswith("Workload"):
        line = next(rows)
    headers = [name for name in line.split("\t")[2:] if name]
    workloads = [COLUMN_WORKLOAD.get(name, name) for name in headers]
    per_workload = 1 if all(name in COLUMN_WORKLOAD for name in headers) else 2
    metrics = ["mbps"] if per_workload == 1 else ["iops", "mbps"]
    cells, drives = {}, None
    for line in rows:
        if line.startswith("\\*Results"):
            return cells
        columns = line.split("\t")
        if len(columns) < 3 or columns[1] not in ("All Caches Disabled", "Write Cache Enabled"):
            continue
        if columns[0]:
            drives = int(re.search(r"(\d+) HDDs", columns[0]).group(1))
        values = columns[2:]
        for i, workload in enumerate(workloads):
            chunk = values[i * per_workload : (i + 1) * per_workload]
            cells[(drives, columns[1], workload)] = dict(zip(metrics, chunk, strict=True))
    raise AssertionError(f"{table}: footnote not found")


@pytest.mark.parametrize("table", sorted(DS4500_TABLES))
def test_ds4500_table_matches_the_seed_cell_for_cell(demo, table):
    cells = seed_table(seed_lines(DS4500_PAPER), table)
    assert len(cells) >= 20
    runs = find_runs(demo["runs"], system="IBM DS4500", table=table)
    published = {
        (run["config"]["drive_count"], run["config"]["extra"]["cache_setting"], run["workload"]): run for run in runs
    }
    for key, printed in cells.items():
        if "N/A" in printed.values():
            assert key not in published, f"{table} {key} is N/A in the paper but has a run"
            continue
        run = published.pop(key)
        assert run["config"]["raid_level"] == DS4500_TABLES[table]
        (point,) = run["points"]
        for metric, text in printed.items():
            assert point[metric] == cell_number(text), f"{table} {key} {metric}"
        assert point["avg_response_ms"] == 20
        assert run["threshold_ms"] == 20
    assert published == {}, f"{table}: runs with no cell in the paper: {list(published)}"


def test_ds4500_table_run_counts(demo):
    counts = Counter(run["citation"]["table"] for run in find_runs(demo["runs"], system="IBM DS4500"))
    # 10 rows x 5 OLTP sizes; File Server 10 + Web Server 5 (N/A with write cache); random reads
    # 2 x 5 (N/A with write cache) + random writes 2 x 10.
    assert {table: counts[table] for table in DS4500_TABLES} == {
        "Table 1": 50,
        "Table 3": 15,
        "Table 4": 30,
        "Table 5": 50,
        "Table 7": 15,
        "Table 8": 30,
    }


# ---------------------------------------------------------------- headline values, by hand


def test_table_1_rows_as_printed(demo):
    # seed 000 Table 1, line 141: 20 HDDs, All Caches Disabled: 3095 12 | 3000 23 | 2790 43 | 2185 68 | 1660 104
    first_row = [(3095, 12), (3000, 23), (2790, 43), (2185, 68), (1660, 104)]
    # seed 000 Table 1, line 144: 60 HDDs, Write Cache Enabled: 11,360 44 | 10,960 85 | 9885 154 | 5525 172 | 3150 196
    wce_60_row = [(11360, 44), (10960, 85), (9885, 154), (5525, 172), (3150, 196)]
    for drives, setting, row in ((20, "All Caches Disabled", first_row), (60, "Write Cache Enabled", wce_60_row)):
        for kb, (iops, mbps) in zip((4, 8, 16, 32, 64), row, strict=True):
            point = only_point(
                demo["runs"],
                system="IBM DS4500",
                table="Table 1",
                drive_count=drives,
                cache_setting=setting,
                workload=f"OLTP {kb}K",
            )
            assert (point["iops"], point["mbps"]) == (iops, mbps)


def test_ds4500_and_ds4400_8k_random_reads_at_140_drives(demo):
    runs = demo["runs"]
    # seed 000 Table 4, line 272: RAID-5, 140 HDDs, All Caches Disabled, Random Reads 8K 30,020 IOps 234 MBps
    point = only_point(
        runs,
        system="IBM DS4500",
        table="Table 4",
        drive_count=140,
        cache_setting="All Caches Disabled",
        workload="Random Reads 8K",
    )
    assert (point["iops"], point["mbps"]) == (30020, 234)
    # seed 000 Table 8, line 425: RAID-10, 140 HDDs, All Caches Disabled, Random Reads 8K 30,060 IOps
    point = only_point(
        runs,
        system="IBM DS4500",
        table="Table 8",
        drive_count=140,
        cache_setting="All Caches Disabled",
        workload="Random Reads 8K",
    )
    assert point["iops"] == 30060
    # seed 000 Chart 6 text, line 295: "The DS4400 is capable of achieving approximately 26,640 8K IOPS"
    assert only_point(runs, system="IBM DS4400", raid_level="RAID-5", workload="Random Reads 8K") == {"iops": 26640}
    # seed 000 Chart 12 text, line 446: "The DS4400 is capable of achieving approximately 26,700 8K IOPs"
    assert only_point(runs, system="IBM DS4400", raid_level="RAID-10", workload="Random Reads 8K") == {"iops": 26700}


def test_ds4400_streaming_and_file_server_figures_with_their_configurations(demo):
    runs = demo["runs"]
    expected = [
        # (raid, workload, drive count, rpm, MB/s): seed 000 lines 195/201, 205/213 (twice), 244, 353/359, 363/371, 400
        ("RAID-5", "Streaming Reads 64K", 108, 10000, 388),
        ("RAID-5", "Streaming Writes 64K", 58, 10000, 233),
        ("RAID-5", "Streaming Writes, maximum over transfer sizes", 58, 10000, 240),
        ("RAID-5", "File Server", 140, 15000, 114),
        ("RAID-10", "Streaming Reads 64K", 96, 10000, 379),
        ("RAID-10", "Streaming Writes 64K", 58, 10000, 148),
        ("RAID-10", "File Server", 140, 15000, 163),
    ]
    for raid_level, workload, drives, rpm, mbps in expected:
        (run,) = find_runs(runs, system="IBM DS4400", raid_level=raid_level, workload=workload)
        assert (run["config"]["drive_count"], run["config"]["drive_rpm"]) == (drives, rpm), workload
        assert run["points"][0]["mbps"] == mbps, workload
    # The streaming writes were measured with write cache enabled and mirroring disabled (lines 205, 363).
    for run in find_runs(runs, system="IBM DS4400", workload="Streaming Writes 64K"):
        assert (run["config"]["write_cache"], run["config"]["write_cache_mirroring"]) == (True, False)


def test_ds4400_figures_point_at_the_ds4500_cell_the_paper_compares_them_with(demo):
    runs = demo["runs"]
    compared = [run for run in find_runs(runs, system="IBM DS4400") if "compared_with" in run.get("params", {})]
    assert len(compared) == 4
    for run in compared:
        target = run["params"]["compared_with"]
        point = only_point(
            runs,
            system=target["system"],
            table=target["table"],
            drive_count=target["drive_count"],
            cache_setting=target["cache_setting"],
            workload=run["workload"],
        )
        assert target["value"] in (point.get("iops"), point.get("mbps"))


def test_ds4500_streaming_figures_quoted_in_the_text(demo):
    # seed 000 lines 201, 213, 359, 371: the DS4500 64K transfer rates the comparisons use.
    for raid_level, workload, mbps in (
        ("RAID-5", "Streaming Reads 64K", 722),
        ("RAID-5", "Streaming Writes 64K", 525),
        ("RAID-10", "Streaming Reads 64K", 728),
        ("RAID-10", "Streaming Writes 64K", 518),
    ):
        assert only_point(demo["runs"], system="IBM DS4500", raid_level=raid_level, workload=workload) == {"mbps": mbps}


def test_stroke_multipliers_and_the_worked_example(demo):
    entries = {(e["raid_level"], e["workload"]): e for e in demo["stroke_multipliers"]}
    assert len(entries) == len(demo["stroke_multipliers"]) == 6
    # seed 000 Table 2, line 168: RAID-5 OLTP 4K, 8K, and 16K: 0.88 0.80 0.74 0.72 0.66 0.65
    assert entries[("RAID-5", "OLTP 8K")]["multipliers"] == {
        8: 1.0,
        15: 0.88,
        30: 0.80,
        45: 0.74,
        60: 0.72,
        75: 0.66,
        90: 0.65,
    }
    # seed 000 Table 6, line 335: RAID-10 OLTP 4K, 8K, and 16K: 0.95 0.82 0.80 0.72 0.72 0.67
    assert entries[("RAID-10", "OLTP 16K")]["multipliers"] == {
        8: 1.0,
        15: 0.95,
        30: 0.82,
        45: 0.80,
        60: 0.72,
        75: 0.72,
        90: 0.67,
    }
    # seed 000 line 170: 14,320 I/Os (Table 1, 100 HDDs, all caches disabled, 8K) x 0.74 "equals 10,595";
    # the product is 10,596.8, so the paper's printed figure is kept apart from the multiplier.
    example = entries[("RAID-5", "OLTP 8K")]["worked_example"]
    base = only_point(
        demo["runs"],
        system="IBM DS4500",
        table="Table 1",
        drive_count=example["drive_count"],
        cache_setting=example["cache_setting"],
        workload="OLTP 8K",
    )
    assert base["iops"] == example["baseline_iops"] == 14320
    assert example["multiplier"] == entries[("RAID-5", "OLTP 8K")]["multipliers"][example["stroke_pct"]]
    assert example["printed_result_iops"] == 10595
    assert round(example["baseline_iops"] * example["multiplier"]) == 10597


def test_seed_000_workload_definitions(demo):
    workloads = {w["name"]: w for w in demo["workloads"]}
    # seed 000 line 52: OLTP is 100% random, 67% reads
    assert (workloads["OLTP 8K"]["read_pct"], workloads["OLTP 8K"]["random_pct"]) == (67, 100)
    # seed 000 lines 64-73: File Server 80% reads, 100% random, 60% of requests 4K
    file_server = workloads["File Server"]
    assert (file_server["read_pct"], file_server["random_pct"]) == (80, 100)
    assert {s["bytes"]: s["pct"] for s in file_server["transfer_sizes"]} == {
        512: 10,
        1024: 5,
        2048: 5,
        4096: 60,
        8192: 2,
        16384: 4,
        32768: 4,
        65536: 10,
    }
    # seed 000 lines 79-88: Web Server 100% reads, ten sizes, 1% of 512K and no 256K
    web = {s["bytes"]: s["pct"] for s in workloads["Web Server"]["transfer_sizes"]}
    assert len(web) == 10 and web[512] == 22 and web[524288] == 1 and 262144 not in web
    # seed 000 lines 56 and 60: streaming is 100% sequential, measured from 512 bytes to 512K
    assert workloads["Streaming Writes 512K"]["transfer_sizes"] == [{"bytes": 524288, "pct": 100}]
    assert (workloads["Streaming Reads 512B"]["read_pct"], workloads["Streaming Reads 512B"]["random_pct"]) == (100, 0)


# ---------------------------------------------------------------- seed 002 and seed 001


def test_eva4400_vs_eva4100_end_to_end_table(demo):
    runs = demo["runs"]
    # seed 002 Table 1, lines 87 and 90: Random Reads IOPs 13,800 vs 26,000; Sequential Reads MB/s 350 vs 775
    for workload, metric, eva4100, eva4400 in (
        ("EVA Random Reads", "iops", 13800, 26000),
        ("EVA Sequential Reads", "mbps", 350, 775),
    ):
        for system, value in (("HP EVA4100", eva4100), ("HP EVA4400", eva4400)):
            (run,) = find_runs(runs, system=system, workload=workload)
            assert run["points"] == [{metric: value}]
            assert (run["measurement"], run["threshold_ms"], run["rule"]) == ("end_to_end", 30, "at_or_below")
    # seed 002 Table 1, line 89: RAID 5 Random Writes 4,000 vs 7,200; line 80: 56 and 96 drives
    assert only_point(runs, system="HP EVA4400", workload="EVA Random Writes", raid_level="RAID-5") == {"iops": 7200}
    assert find_runs(runs, system="HP EVA4100")[0]["config"]["drive_count"] == 56
    assert {run["config"]["drive_count"] for run in find_runs(runs, system="HP EVA4400")} == {96}
    assert len(find_runs(runs, table="Table 1", system="HP EVA4400")) == 6


def test_eva_cache_only_figures_are_kept_apart(demo):
    # seed 002 Table 2, lines 97-98: "> 154,000" / "> 140,000" small reads, 1,385 / 1550 MB/s large reads
    cache_runs = [run for run in demo["runs"] if run["measurement"] == "cache_only"]
    assert len(cache_runs) == 4
    assert all(run["threshold_ms"] is None and run["citation"]["table"] == "Table 2" for run in cache_runs)
    assert only_point(cache_runs, system="HP EVA4100", workload="EVA Cache Small Reads") == {"iops": 154000}
    assert only_point(cache_runs, system="HP EVA4400", workload="EVA Cache Large Reads") == {"mbps": 1550}


def test_ds5020_jetstress_four_tile_figures(demo):
    (run,) = [run for run in demo["jetstress"] if run["params"].get("tiles") == 4 and "machine" not in run["params"]]
    params = run["params"]
    # seed 001 line 105: "4,127 IOPS over 32 database drives, delivered 129 IOPS per drive"
    assert run["points"] == [{"iops": 4127}]
    assert params["drive_count"] == run["config"]["drive_count"] == 32
    assert round(4127 / params["drive_count"]) == params["iops_per_drive_quoted"] == 129
    # seed 001 line 103: 8,254 users at 0.5 IOPS each (the highlights, lines 17 and 141, say 8,252)
    assert 4127 / params["iops_per_mailbox"] == params["mailboxes_quoted"] == 8254
    assert params["mailboxes_quoted_in_summary"] == 8252
    assert run["citation"]["document"] == DS5020_PAPER


def test_ds5020_jetstress_appendix_report(demo):
    (run,) = [run for run in demo["jetstress"] if run["params"].get("machine") == "JS-01"]
    (point,) = run["points"]
    # seed 001 lines 182-183 and 199: achieved 1101.114 of 1140 target IOPS; DB read 0.015 s, write 0.010 s
    assert (point["iops"], run["params"]["target_iops"]) == (1101.114, 1140)
    assert math.isclose(point["read_iops"] + point["write_iops"], point["iops"])
    assert (point["avg_read_response_ms"], point["avg_write_response_ms"]) == (15, 10)
    assert run["verdict"] == "pass"


def test_ds5020_orion_figures(demo):
    totals = [run for run in demo["orion"] if run["params"].get("drive_count") == 16]
    small = only_point(totals, workload="ORION small random 8K")
    # seed 001 lines 117-120: 3,580 small IOPS, 468 large MBPS, 5.44 ms small latency, 224 IOPS per drive
    assert small == {"iops": 3580, "avg_response_ms": 5.44}
    assert only_point(totals, workload="ORION large random 1M") == {"mbps": 468}
    assert round(3580 / 16) == 224
    # seed 001 lines 245-247: one test's summary, each figure at its own load point
    (sample,) = find_runs(demo["orion"], workload="ORION small random 8K", drive_count=None)
    assert [p.get("iops") for p in sample["points"]] == [None, 882]
    assert sample["points"][0]["avg_response_ms"] == 5.42
    assert sample["points"][1]["load"] == {"small_outstanding": 25, "large_outstanding": 0}


def test_each_paper_contributes_its_runs(demo, all_runs):
    per_document = Counter(run["citation"]["document"] for run in all_runs)
    # 190 table cells + 13 text quotes; 12 end-to-end + 4 cache-only; 3 Jetstress + 4 ORION + 3 Iometer;
    # seed 004: four stated FFSB maxima
    assert per_document == {DS4500_PAPER: 203, EVA_PAPER: 16, DS5020_PAPER: 10, DR550_PAPER: 4}


# ---------------------------------------------------------------- seed 004


def test_dr550_stated_maxima_with_threads_and_gateway_cache(demo):
    runs = find_runs(demo["runs"], system="IBM DR550")
    found = {
        (run["workload"].split(",")[0], run["config"]["extra"]["gateway_cache"]): (run, only_point([run]))
        for run in runs
    }
    expected = {
        # 004_bf9666ef551c1eb4.txt line 147 (chart 1): random reads, FSG cache disabled: 23 MB/sec at four threads
        ("DR550 FSG Random Reads", False): (23, {"threads": 4}, 147),
        # line 165 (chart 3): random reads, FSG cache enabled: 63 MB/sec with "either 8 or 16" threads
        ("DR550 FSG Random Reads", True): (63, {"threads_either_of": [8, 16]}, 165),
        # line 183 (chart 5): random writes, FSG cache disabled: 28 MB/sec with a single thread
        ("DR550 FSG Random Writes", False): (28, {"threads": 1}, 183),
        # line 201 (chart 7): random writes, FSG cache enabled: 31 MB/sec with two threads
        ("DR550 FSG Random Writes", True): (31, {"threads": 2}, 201),
    }
    assert set(found) == set(expected)
    lines = seed_lines(DR550_PAPER)
    for key, (mbps, load, line) in expected.items():
        run, point = found[key]
        assert (point["mbps"], point["load"]) == (mbps, load), key
        assert f"{mbps} MB/sec" in lines[line - 1], key
        citation = run["citation"]
        assert citation["document"] == DR550_PAPER
        assert f"seed line {line}" in citation["note"], key
        assert citation["table"] in {text.strip() for text in lines[line - 10 : line]}, "the chart's heading"
        # The FSG cache is the gateway's; the DS4200 behind it kept write cache and mirroring on (line 132).
        config = run["config"]
        assert (config["write_cache"], config["write_cache_mirroring"], config["read_cache"]) == (True, True, None)
        assert config["extra"]["cache_setting"] == ("FSG cache enabled" if key[1] else "FSG cache disabled")
        assert (run["tool"]["name"], run["tool"]["version"]) == ("FFSB", "5.2.1")


def test_dr550_workloads_are_random_reads_and_writes_at_an_unstated_size(demo):
    workloads = {w["name"]: w for w in demo["workloads"]}
    # 004_bf9666ef551c1eb4.txt lines 113-117: 512 B to 8K objects, random reads and writes from a random point
    reads = workloads["DR550 FSG Random Reads, maximum over transfer sizes"]
    writes = workloads["DR550 FSG Random Writes, maximum over transfer sizes"]
    assert (reads["read_pct"], reads["random_pct"], writes["read_pct"], writes["random_pct"]) == (100, 100, 0, 100)
    assert reads["transfer_sizes"] == writes["transfer_sizes"] == []
