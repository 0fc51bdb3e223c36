"""Every page, table and answer outside the compare page names a figure by what it counts: a report's workload
and provenance tables, the sizing and prediction pages and commands (which size and predict I/Os and bytes
only, and say so for other rates), the system page's tables and the upload list's live rows."""

import csv
import html
import io
import json
import re

import pytest
from django.core.management import CommandError, call_command

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import System
from portal.publishing.content import ReportOptions, report_content
from portal.publishing.document import TableBlock
from tests.ingesting import store_file
from tests.samples import sample

COSBENCH = sample("cosbench", "cosbench-workload-summary-w55.csv")


def object_stores(*names: str) -> list[System]:
    """Systems each holding the COSBench sample (the same file again is refused as a duplicate: each copy ends
    with one more line break)."""
    summary, systems = COSBENCH.read_bytes(), []
    for copy, name in enumerate(names):
        system = System.objects.create(name=name)
        upload = store_file(stream=io.BytesIO(summary + b"\n" * copy), name=f"w55-{copy}.csv", system=system)
        assert upload.status == "done", upload.error
        systems.append(system)
    return systems


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def table(report, key: str) -> list[list[str]]:
    (block,) = [block for block in report.blocks if isinstance(block, TableBlock) and block.key == key]
    return [[cell.text for cell in row] for row in block.rows]


@pytest.mark.django_db
def test_a_reports_workload_and_provenance_tables_name_object_operations():
    one, two = object_stores("Object one", "Object two")
    result = comparison(a=one, b=two, query=ComparisonQuery(threshold_ms=20.0))
    report = report_content([result], options=ReportOptions(), draw=False)
    # COSBench's read operations: its Op-Type column "read", each stage's Throughput in op/s
    assert table(report, "Workloads table") == [["read", "not stated by the file", "–", "–", "–", "object ops/s"]]
    provenance = table(report, "Provenance table")
    # line 3: stage s2's read, 74.45 op/s at 2.75 ms, its one point under 20 ms: a lower bound
    assert provenance[0][:3] == ["read, RAID level not stated", "A: Object one", "≥ 74 object ops/s"]
    assert not any("IOPS" in cell for row in provenance for cell in row)


def swept_object_store(name: str, copies: int = 0) -> System:
    """The COSBench sample stored twice on one system, as measured with 12 and with 24 drives."""
    summary, system = COSBENCH.read_bytes(), System.objects.create(name=name)
    for number, drives in enumerate((12, 24)):
        ends = b"\n" * (copies * 2 + number)  # the same file again is refused as a duplicate
        labels = {"drive_count": drives, "raid_level": "RAID-6"}
        upload = store_file(stream=io.BytesIO(summary + ends), name=f"w55-{drives}.csv", system=system, labels=labels)
        assert upload.status == "done", upload.error
    return system


# COSBench's Throughput column counts object operations (op/s): no drive-count model nor back-end formula.
NOT_SIZED = (
    "No drive-count sizing for object ops/s: read's figures are object operations per second; drive-count sizing"
    " and the back-end formula read I/O operations per second or MB/s at a response-time threshold."
)


@pytest.mark.django_db
def test_an_object_store_swept_over_drive_counts_is_said_to_have_no_drive_count_sizing(client, admin_user):
    system = swept_object_store("Object lab")
    client.force_login(admin_user)
    question = {"workload": "read", "target": 1000, "raid_level": "RAID-6"}
    page = text(client.get(f"/systems/{system.id}/sizing/", question))
    assert NOT_SIZED in page
    assert "IOPS a drive" not in page and "1,000 IOPS at 20 ms" not in page and "back-end IOPS" not in page
    api = client.get("/api/v1/sizing/", {**question, "system": "Object lab"}).json()
    assert (api["sweeps"], api["estimate"], api["not_sized"]) == ([], None, [NOT_SIZED])
    exported = client.get("/export/table/", {**question, "system": "Object lab", "preset": "sizing", "format": "csv"})
    assert exported.status_code == 404
    assert f"Object lab has no sizing answer to export for these choices. {NOT_SIZED}" in text(exported)
    with pytest.raises(CommandError, match=re.escape(NOT_SIZED)):
        call_command("size", "Object lab", "--workload", "read", "--target", "1000", "--as", admin_user.username)


@pytest.mark.django_db
def test_an_object_store_without_a_sweep_gets_no_back_end_estimate_whatever_raid_level_is_asked(client, admin_user):
    # The sample uploaded with no labels, as a lab does; the RAID level asked for is the formula's penalty.
    (system,) = object_stores("Object lab")
    client.force_login(admin_user)
    landing = text(client.get(f"/systems/{system.id}/sizing/"))
    assert "object, metadata and file rates get no drive count" in landing
    question = {"workload": "read", "target": 1000, "raid_level": "RAID-5"}
    page = text(client.get(f"/systems/{system.id}/sizing/", question))
    assert NOT_SIZED in page
    assert "needs the workload's read %" not in page and "back-end IOPS" not in page
    api = client.get("/api/v1/sizing/", {**question, "system": "Object lab"}).json()
    assert (api["sweeps"], api["estimate"], api["not_sized"]) == ([], None, [NOT_SIZED])
    with pytest.raises(CommandError, match=re.escape(NOT_SIZED)):
        call_command(
            "size",
            "Object lab",
            "--workload",
            "read",
            "--target",
            "1000",
            "--raid-level",
            "RAID-5",
            "--as",
            admin_user.username,
        )


@pytest.mark.django_db
def test_object_stores_side_by_side_are_said_to_have_no_drive_count_sizing(client, admin_user):
    swept_object_store("Object one")
    swept_object_store("Object two", copies=1)
    client.force_login(admin_user)
    query = {"system": ["Object one", "Object two"], "workload": "read", "target": 1000}
    answer = client.get("/api/v1/sizing/side-by-side/", query).json()
    assert answer["systems"] == []
    assert answer["fewer"] == f"Object one: {NOT_SIZED} Object two: {NOT_SIZED}"
    page = text(client.get("/compare/sizing/", query))
    assert f"Object one: {NOT_SIZED}" in page and "does not reach" not in page


@pytest.mark.django_db
def test_the_system_tables_head_an_object_stores_rates_in_object_operations(client, admin_user):
    swept_object_store("Object lab")
    client.force_login(admin_user)
    for preset in ("whitepaper", "pivot"):
        exported = client.get("/export/table/", {"system": "Object lab", "preset": preset, "format": "csv"})
        lines = exported.content.decode().splitlines()
        # The file's operations of its measured stages s2 to s19 (column Op-Type: read, write, delete); the
        # preparation stages s1-prepare (prepare) and s20-cleanup (cleanup) are no columns, as in comparisons
        assert lines[1] == "Workload,,delete,,read,,write,", lines[1]
        (api,) = client.get(f"/api/v1/tables/{preset}/", {"system": "Object lab"}).json()["tables"]
        assert [group["label"] for group in api["column_groups"]] == ["delete", "read", "write"]
        # every workload column of COSBench's operations: object ops/s beside the table's binary MBps
        assert lines[2].endswith(",object ops/s,MBps" * 3), lines[2]
        # "read": the four stages' Throughput 74.45, 326.41, 551.75 and 1,857.36 op/s (lines 3, 6, 8, 11),
        # each a lower bound under 20 ms: mean 702.49
        assert lines[3].endswith(",≥ 702,≥ 2.7,N/A,N/A")
        assert any(line.endswith('read object ops/s."') for line in lines)
        assert "I/Os" not in exported.content.decode() and "IOPS" not in exported.content.decode()


@pytest.mark.django_db
def test_object_stores_compared_under_the_threshold_are_told_in_object_operations(client, admin_user):
    swept_object_store("Object one")
    swept_object_store("Object two", copies=1)
    client.force_login(admin_user)
    query = {"a": "Object one", "b": "Object two"}
    # "read": the four stages' Throughput 74.45, 326.41, 551.75 and 1,857.36 op/s (lines 3, 6, 8, 11), each
    # a lower bound under 20 ms: mean 702.49
    said = (
        "Neither Object one nor Object two reaches 20 ms on average for RAID-6 read (RAID-6, 12 drives): Object one"
        " at least 702 object ops/s, Object two at least 702 object ops/s; no difference is stated"
    )
    assert said in text(client.get("/compare/", query))
    workloads = client.get("/api/v1/compare/", query).json()["comparisons"][0]["workloads"]
    (read,) = [workload for workload in workloads if workload["workload"] == "read"]
    assert said in read["summaries"]
    out = io.StringIO()
    call_command("compare", "Object one", "Object two", "--as", admin_user.username, stdout=out)
    assert "read (object ops/s; matched by name only" in out.getvalue() and "IOPS" not in out.getvalue()
    for format in ("csv", "json"):
        out = io.StringIO()
        call_command("compare", "Object one", "Object two", "--format", format, "--as", admin_user.username, stdout=out)
        rows = (
            json.loads(out.getvalue())["rows"]
            if format == "json"
            else list(csv.DictReader(io.StringIO(out.getvalue())))
        )
        (read,) = [row for row in rows if row["workload"] == "read" and "12 drives" in row["configuration"]]
        # the mean of the four stages' 74.45, 326.41, 551.75 and 1,857.36 op/s, in object operations
        assert (read["metric"], read["unit"], float(read["a"])) == (
            "iops",
            "object ops/s",
            pytest.approx(702.49, abs=0.01),
        )


@pytest.mark.django_db
def test_an_object_stores_charts_name_object_operations(client, admin_user):
    system = swept_object_store("Object lab")
    client.force_login(admin_user)
    run = system.configs.get(drive_count=12).runs.get(params__stage__startswith="s2-", params__op_type="read")
    curve = str(client.get(f"/runs/{run.id}/charts/curve.json").json())
    # line 3: 74.45 op/s at an Avg-ResTime of 2.75 ms, its one point, under 20 ms: a lower bound
    assert "at 20 ms: at least 74 object ops/s (a lower bound)" in curve and "object ops/s: 74" in curve
    assert "IOPS" not in curve
    sweep = client.get(f"/systems/{system.id}/sweep.json", {"parameter": "drive_count"}).json()
    drawn = str(sweep)
    assert "read, RAID-6 (object ops/s)" in drawn and f"run #{run.id}: 74 object ops/s" in drawn
    assert sweep["layout"]["yaxis"]["title"]["text"] == "object ops/s at 20 ms"
    assert "IOPS" not in drawn


@pytest.mark.django_db
def test_an_object_store_is_said_to_have_no_prediction_along_a_parameter(client, admin_user):
    system = swept_object_store("Object lab")
    client.force_login(admin_user)
    # COSBench's stages differ in read % (r80w15d5, r100w0d0, r0w100d0) but count object operations
    said = (
        "Object lab has no runs that differ in read % only (no prediction for object ops/s: prediction reads I/O"
        " operations per second against outstanding I/O)."
    )
    answer = client.get(f"/systems/{system.id}/predict/", {"along": "read_pct"})
    assert answer.status_code == 400 and said in text(answer)
    api = client.get("/api/v1/predict/along/", {"system": "Object lab", "parameter": "read_pct"})
    assert said in str(api.json())
