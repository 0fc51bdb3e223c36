"""Every page, table and answer outside the compare page names a figure by what it counts: a report's workload
and provenance tables, the sizing and prediction pages and commands (which size and predict I/Os and bytes
only, and say so for other rates), the system page's tables and the upload list's live rows."""

import io

import pytest

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
