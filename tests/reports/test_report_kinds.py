"""Reports of other comparisons the compare page shows: three systems whose fio files were uploaded
(the shared samples; each file one measured point, so at 1,000 ms each figure is a lower bound at its own
response time) and two firmware versions of one array."""

import io
import json

from docx import Document

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import multi_comparison
from portal.models import System
from portal.publishing.build import build_report
from portal.publishing.content import ReportOptions
from tests.ingesting import store_file
from tests.samples import sample

FILES = {
    "Lab SSD": "fioplot_fio-3.14_samsungpm833_randread-1-1.json",
    "Lab Ceph": "fioplot_fio-3.6_ceph-hdd_randread-16-16.json",
    "Lab RAID": "fioplot_fio-3.16_highpoint-raid5_randread-32-32.json",
}
LABELS = {"raid_level": "RAID-5", "drive_count": 8}


def read_iops(name):
    """The job's read IOPS as fio wrote it in the sample (its only job)."""
    (job,) = json.loads(sample("fio", name).read_text())["jobs"]
    return job["read"]["iops"]


def uploaded(name, file_name, **fields):
    system = System.objects.create(name=name, published=True, **fields)
    upload = store_file(sample("fio", file_name), system=system, labels=LABELS)
    assert upload.status == "done", upload.error
    return system


def cells(document):
    return [[cell.text for cell in row.cells] for table in document.tables for row in table.rows]


def test_three_fio_systems_each_against_the_baseline(db, data_dir):
    systems = {name: uploaded(name, file_name) for name, file_name in FILES.items()}
    multi = multi_comparison(
        candidates=[systems["Lab SSD"], systems["Lab Ceph"]],
        baseline=systems["Lab RAID"],
        query=ComparisonQuery(threshold_ms=1000.0),
    )
    built = build_report(multi.pairs, options=ReportOptions())
    assert built.notes == [] and built.files["pdf"].startswith(b"%PDF")
    document = Document(io.BytesIO(built.files["docx"]))
    assert document.paragraphs[0].text == "Lab SSD and Lab Ceph compared with Lab RAID"
    sections = [p.text for p in document.paragraphs if p.style.name == "Heading 3"]
    assert sections == ["Lab SSD against Lab RAID", "Lab Ceph against Lab RAID"]
    ssd, ceph, raid = (read_iops(FILES[name]) for name in ("Lab SSD", "Lab Ceph", "Lab RAID"))
    rows = [row for row in cells(document) if row[0] == "RAID-5, 8 drives"]
    # Configuration, A, B, improvement, confidence, how read: one row per system against the baseline.
    for a_iops, row in zip((ssd, ceph), rows, strict=True):
        # Every curve stays under 1,000 ms: each figure is a lower bound, marked "≥", and no difference is
        # stated between two lower bounds ("–"), as the sentences say.
        assert row[1:4] == [f"≥ {a_iops:,.0f}", f"≥ {raid:,.0f}", "–"]
        assert row[5] == "a lower bound (threshold not reached)"
    assert len(document.inline_shapes) == 2
    # The provenance names each upload by file name and sha256.
    provenance = [row[-1] for row in cells(document) if row[-1].startswith("fioplot_")]
    assert {p.split(",")[0] for p in provenance} == set(FILES.values())
    assert all(len(p.split("sha256 ")[1]) == 64 for p in provenance)


def test_two_firmware_versions_of_one_array(db, data_dir):
    old = uploaded("Array 1.0", FILES["Lab SSD"], vendor="Acme", model="A100", firmware="1.0.4")
    new = uploaded("Array 2.0", "fioplot_fio-3.34_randread-1-1.json", vendor="Acme", model="A100", firmware="2.0.1")
    (result,) = multi_comparison(candidates=[new], baseline=old, query=ComparisonQuery(threshold_ms=1.0)).pairs
    built = build_report([result], options=ReportOptions(title="A100 firmware 2.0.1 against 1.0.4"))
    assert built.notes == []
    document = Document(io.BytesIO(built.files["docx"]))
    assert document.paragraphs[0].text == "A100 firmware 2.0.1 against 1.0.4"
    assert ["Firmware", "2.0.1"] in cells(document) and ["Firmware", "1.0.4"] in cells(document)
    abstract = document.paragraphs[3].text
    assert abstract.startswith("This report compares Array 2.0, firmware 2.0.1 with Array 1.0, firmware 1.0.4")


def test_names_users_typed_are_text_in_every_format(db, data_dir):
    """A system named with HTML, Markdown and LaTeX specials, and a caption with a script tag: text in the
    HTML, escaped in LaTeX (the PDF compiles) and Markdown, as typed in Word."""
    odd = "Lab <b>A&B</b> 100%_x $1 #2"
    caption = "<script>alert(1)</script> 50% {x}"
    a = uploaded(odd, FILES["Lab SSD"])
    b = uploaded("Lab Base", "fioplot_fio-3.34_randread-1-1.json")
    (result,) = multi_comparison(candidates=[a], baseline=b, query=ComparisonQuery(threshold_ms=1.0)).pairs
    (workload,) = [w.workload for w in result.workloads if w.rows]
    built = build_report([result], options=ReportOptions(captions={workload: caption}))
    assert built.notes == [] and built.files["pdf"].startswith(b"%PDF")
    page = built.files["html"].decode()
    assert "<script>" not in page and "<b>A&B</b>" not in page
    assert "Lab &lt;b&gt;A&amp;B&lt;/b&gt; 100%_x $1 #2" in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert rb"Lab \textless{}b\textgreater{}A\&B\textless{}/b\textgreater{} 100\%\_x \$1 \#2" in built.files["tex"]
    document = Document(io.BytesIO(built.files["docx"]))
    assert document.paragraphs[0].text == f"{odd} compared with Lab Base"
    assert f"Figure 1. {caption}" in [p.text for p in document.paragraphs]
