"""Rates of file-system tests headed by what they count: Bonnie++'s file create, stat and delete tests and
elbencho's metadata phases in metadata ops/s (never MB/s nor IOPS), on the compare command, page and API."""

import io
import re

import pytest
from django.core.management import call_command

from portal.models import Run, System
from tests.ingesting import store_file
from tests.samples import sample

BONNIE = sample("bonnie++", "bonnie-1.96-pkb-csv.txt")


def systems_holding(path, *names: str) -> None:
    """Systems each holding the file at ``path`` (the same file again is refused as a duplicate: each copy
    ends with one more line break)."""
    for copy, name in enumerate(names):
        system = System.objects.create(name=name)
        stream = io.BytesIO(path.read_bytes() + b"\n" * copy)
        upload = store_file(stream=stream, name=f"{copy}-{path.name}", system=system)
        assert upload.status == "done", upload.error


def headings(out: str) -> dict[str, str]:
    """The compare command's workload headings: "Random file stat (metadata ops/s; matched ...)"."""
    return dict(re.findall(r"^([^(\n]+) \(([^;\n]+); matched", out, flags=re.MULTILINE))


@pytest.mark.django_db
def test_bonnies_file_tests_are_headed_in_metadata_operations_even_when_too_fast_to_time(client, admin_user):
    systems_holding(BONNIE, "Bonnie one", "Bonnie two")
    out = io.StringIO()
    call_command("compare", "Bonnie one", "Bonnie two", "--as", admin_user.username, stdout=out)
    # bonnie-1.96-pkb-csv.txt: fields 25, 29, 31 and 35 are the file tests' files/s (49223, 54405, 2898, 59089);
    # fields 27 and 33, the stat tests, are '+++++' (too fast to time): no rate, yet still file stats.
    # Fields 10, 12 and 16 are the block output, rewrite and block input K/sec; field 18 the random seeks/s.
    assert headings(out.getvalue()) == {
        "Random file create": "metadata ops/s",
        "Random file delete": "metadata ops/s",
        "Random file stat": "metadata ops/s",
        "Random seeks": "IOPS",
        "Sequential file create": "metadata ops/s",
        "Sequential file delete": "metadata ops/s",
        "Sequential file stat": "metadata ops/s",
        "Sequential input, block": "MB/s",
        "Sequential output, block": "MB/s",
        "Sequential rewrite": "MB/s",
    }
    client.force_login(admin_user)
    answer = client.get("/api/v1/compare/", {"a": "Bonnie one", "b": "Bonnie two"}).json()
    figures = {w["workload"]: (w["metric"], w["figure"]["unit"]) for w in answer["comparisons"][0]["workloads"]}
    assert figures["Random file stat"] == figures["Sequential file stat"] == ("iops", "metadata ops/s")
    assert figures["Sequential rewrite"] == ("mbps", "MB/s")
    stat = Run.objects.filter(workload_name="Random file stat").first()
    run = client.get(f"/api/v1/runs/{stat.id}/").json()
    assert run["figure"]["unit"] == "metadata ops/s"


ELBENCHO_SWEEP = sample("elbencho", "elbencho-2021-mtelbencho-sweep-losf.txt")


@pytest.mark.django_db
def test_elbenchos_metadata_phases_are_headed_in_metadata_operations(client, admin_user):
    systems_holding(ELBENCHO_SWEEP, "Small files one", "Small files two")
    out = io.StringIO()
    call_command("compare", "Small files one", "Small files two", "--as", admin_user.username, stdout=out)
    found = headings(out.getvalue())
    # elbencho-2021-mtelbencho-sweep-losf.txt, test 1048576x1KiB: MKDIRS "Dirs/s 21201 18716" (line 16) and
    # RMFILES "Files/s 77300 77381" (line 30) count directories created and files deleted; its WRITE states
    # "Files/s 53679 53757" and "Throughput MiB/s 52 52" (lines 22-23) and no IOPS: its figure is its MB/s.
    assert found["1048576x1KiB MKDIRS"] == found["1048576x1KiB RMFILES"] == "metadata ops/s"
    assert found["1048576x1KiB WRITE 1k"] == "MB/s"
    assert "IOPS" not in out.getvalue()
    # The measured rates, with no response time stated, compared as measured: the same file on both sides.
    assert (
        "Metadata operations per second as measured: Small files one 77,381 metadata ops/s (mean of 1 point), "
        "Small files two 77,381 metadata ops/s (mean of 1 point)"
    ) in out.getvalue()
    client.force_login(admin_user)
    answer = client.get("/api/v1/compare/", {"a": "Small files one", "b": "Small files two"}).json()
    figures = {w["workload"]: (w["metric"], w["figure"]["unit"]) for w in answer["comparisons"][0]["workloads"]}
    assert figures["1048576x1KiB RMFILES"] == ("iops", "metadata ops/s")
