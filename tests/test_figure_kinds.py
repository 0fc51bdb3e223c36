"""Each run's figure by its kind: metadata, file and object rates are never written as IOPS nor compared with
block I/Os, and an MLPerf Storage throughput is read as the benchmark states it (accelerators supported at
its utilisation rule, throughput and its share per accelerator), never at a response-time threshold."""

import csv
import html
import io
import re

import pytest

from portal.analysis.figure_kinds import KINDS, figure_kind, stated_kind
from portal.models import Run, System
from portal.publishing import bundle_jobs
from tests.ingesting import store_file
from tests.samples import sample
from tests.test_catalogue_mlperf_storage import HUAWEI_REPORT, catalogue_import, commit_all
from tests.test_catalogue_mlperf_storage import clone as clone  # noqa: F401 (a fixture)

HUAWEI = "Huawei OceanStor_A800_51_hosts"
ACME = "Acme FastBox"
ACME_REPORT = "Closed/Acme/results/FastBox/mlperf_storage_report.json"


def text(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


@pytest.mark.parametrize(
    ("tool", "params", "workload", "metric", "words", "unit"),
    [
        ("fio", {}, "randread", "iops", "I/O operations per second", "IOPS"),
        ("fio", {}, "seqread", "mbps", "throughput in MB/s (10^6 bytes per second)", "MB/s"),
        ("mdtest", {"figure": "metadata operations per second"}, "File creation", "iops",
         "metadata operations per second", "metadata ops/s"),
        ("IO500", {"figure": "metadata operations per second"}, "mdtest-easy-write", "iops",
         "metadata operations per second", "metadata ops/s"),
        ("Bonnie++", {}, "Sequential file create", "iops", "metadata operations per second", "metadata ops/s"),
        ("Bonnie++", {}, "Random seeks", "iops", "I/O operations per second", "IOPS"),
        ("fs_mark", {}, "file creation", "iops", "files created per second", "files/s"),
        ("elbencho", {"figure": "metadata operations per second"}, "1048576x1KiB RMFILES", "iops",
         "metadata operations per second", "metadata ops/s"),
        ("elbencho", {}, "WRITE 1m", "iops", "I/O operations per second", "IOPS"),
        ("COSBench", {}, "read", "iops", "object operations per second", "object ops/s"),
        ("MLPerf Storage", {}, "unet3d (h100)", "mbps", "training throughput at the AU rule", "MB/s"),
    ],
)  # fmt: skip
def test_each_tool_names_what_its_rate_counts(tool, params, workload, metric, words, unit):
    kind = figure_kind(tool=tool, params=params, workload_name=workload, metric=metric)
    assert (kind.words, kind.unit) == (words, unit)
    assert kind.at_threshold == (tool != "MLPerf Storage")


@pytest.mark.parametrize(
    ("tool", "run_name", "key"),
    [
        ("IO500", "IO500 score", "io500_score"),
        ("IO500", "mdtest-easy-write", None),
        ("IO500", "ior-easy-write", None),
        ("mdtest", "IO500 score", None),
    ],
)
def test_a_comparison_states_io500s_score_as_a_figure_of_its_own(tool, run_name, key):
    # IO500's score run's rate is its metadata sub-score: a comparison states the score in its place, in its unit
    kind = stated_kind(tool=tool, run_name=run_name)
    assert (kind.key if kind else None) == key
    if kind is not None:
        assert (kind.unit, kind.words) == (
            "score",
            "IO500 score (geometric mean of the bandwidth and metadata sub-scores)",
        )
        assert KINDS["io500_score"] is kind


@pytest.fixture
def two_submissions(clone):  # noqa: F811
    """Huawei's unet3d h100 report and an Acme report alike but for its throughput, 600,000 MiB/s."""
    root, _ = clone
    acme = root / ACME_REPORT
    acme.parent.mkdir(parents=True)
    acme.write_text((root / HUAWEI_REPORT).read_text().replace("695480.2768186077", "600000.0", 1))
    commit = commit_all(root, "an Acme submission")
    catalogue_import(root)
    return commit


@pytest.mark.django_db
def test_an_mlperf_run_page_states_accelerators_throughput_and_au_rule_not_a_threshold(two_submissions, client):
    run = Run.objects.get(citation_table=HUAWEI_REPORT)
    page = text(client.get(f"/runs/{run.id}/"))
    # overall: 255 h100 accelerators, 695480.2768186077 MiB/s x 1.048576 = 729,264 MB/s, / 255 = 2,860 MB/s;
    # the unet3d rule is 90 % AU; the report states no AU and no DLIO summary is in its folder
    assert "255 accelerators (unet3d, h100) at 729,264 MB/s, 2,860 MB/s per accelerator, AU not stated (rule 90 %)."
    assert "255 accelerators (unet3d, h100) at 729,264 MB/s, 2,860 MB/s per accelerator, AU not stated" in page
    assert "at 20 ms" not in page and "published by the paper" not in page
    api = client.get(f"/api/v1/runs/{run.id}/", HTTP_ACCEPT="application/json").json()
    assert api["figure"] == {
        "kind": "training_throughput",
        "words": "training throughput at the AU rule",
        "unit": "MB/s",
        "at_threshold": False,
    }


@pytest.mark.django_db
def test_two_mlperf_submissions_compare_by_throughput_and_accelerators_with_citations(
    two_submissions, client, admin_user
):
    client.force_login(admin_user)
    query = {"a": HUAWEI, "b": ACME}
    page = text(client.get("/compare/", query))
    # A 729,264 MB/s; B 600,000 MiB/s x 1.048576 = 629,146 MB/s, / 255 = 2,467 MB/s per accelerator;
    # (695480.28 - 600000) / 600000 = +15.9 %; both 255 accelerators: +0.0 %
    sentence = (
        f"{HUAWEI} supports 255 accelerators (unet3d, h100) at 729,264 MB/s, 2,860 MB/s per accelerator, AU not"
        f" stated (rule 90 %) (cited: mlcommons/storage_results_v1.0, {HUAWEI_REPORT}, commit {two_submissions});"
        f" {ACME} 255 accelerators (unet3d, h100) at 629,146 MB/s, 2,467 MB/s per accelerator, AU not stated (rule"
        f" 90 %) (cited: mlcommons/storage_results_v1.0, {ACME_REPORT}, commit {two_submissions}). {HUAWEI} against"
        f" {ACME}: throughput +15.9 %, accelerators supported +0.0 %, throughput per accelerator +15.9 % (at the"
        " benchmark's utilisation rule, no response-time threshold)."
    )
    assert sentence in page
    assert "unet3d (h100): training throughput at the AU rule (MB/s" in page
    assert "unet3d (h100) at 20 ms" not in page
    api = client.get("/api/v1/compare/", query, HTTP_ACCEPT="application/json").json()
    (workload,) = api["comparisons"][0]["workloads"]
    assert workload["figure"]["kind"] == "training_throughput" and workload["training"] == [sentence]
    exported = client.get("/export/comparison/", {**query, "format": "csv"}).content.decode()
    rows = list(csv.reader(io.StringIO(exported)))
    assert any(row[:1] == ["unet3d (h100) (training throughput at the AU rule, MB/s)"] for row in rows)
    assert any(f"unet3d (h100): {sentence}" in cell for row in rows for cell in row)


@pytest.mark.django_db
def test_an_mdtest_rate_is_metadata_operations_and_not_compared_with_block_iops(client, admin_user):
    system = System.objects.create(name="Lab MDS")
    upload = store_file(sample("mdtest", "mdtest-3.4.0dev-daos-easy-write.txt"), system=system)
    assert upload.status == "done", upload.error
    run = Run.objects.get(config__system=system, workload_name__iexact="File creation")
    client.force_login(admin_user)
    page = text(client.get(f"/runs/{run.id}/"))
    # SUMMARY rate, "File creation" line 16: 8252636.649 ops/s
    assert "The figure: metadata operations per second." in page
    assert "No value at 20 ms: no response times were measured; the run measured 8,252,637 metadata ops/s." in page
    assert "IOPS" not in page
    api = client.get(f"/api/v1/runs/{run.id}/", HTTP_ACCEPT="application/json").json()
    assert api["figure"]["kind"] == "metadata_operations" and api["figure"]["unit"] == "metadata ops/s"


@pytest.mark.django_db
def test_two_metadata_servers_compare_their_measured_rates_not_at_a_threshold(client, admin_user):
    daos, lustre = System.objects.create(name="DAOS lab"), System.objects.create(name="Lustre lab")
    store_file(sample("mdtest", "mdtest-3.4.0dev-daos-easy-write.txt"), system=daos)
    store_file(sample("mdtest", "mdtest-1.9.3-lustre-gcp-easy-write.txt"), system=lustre)
    client.force_login(admin_user)
    query = {"a": "DAOS lab", "b": "Lustre lab"}
    page = text(client.get("/compare/", query))
    # File creation: 3.4 SUMMARY rate line 16 mean 8252636.649, 1.9.3 line 93 mean 49741.404;
    # (8252636.649 - 49741.404) / 49741.404 = 164.911: +16,491.1 %
    sentence = (
        "Metadata operations per second as measured: DAOS lab 8,252,637 metadata ops/s (mean of 1 point), Lustre lab"
        " 49,741 metadata ops/s (mean of 1 point): DAOS lab +16,491.1 % against Lustre lab (no response time was"
        " measured, so none is read at a threshold)."
    )
    assert sentence in page
    api = client.get("/api/v1/compare/", query, HTTP_ACCEPT="application/json").json()
    workloads = {workload["workload"]: workload for workload in api["comparisons"][0]["workloads"]}
    assert workloads["File creation"]["figure"]["unit"] == "metadata ops/s"
    assert workloads["File creation"]["rates"] == [sentence]


@pytest.mark.django_db
def test_files_created_are_not_compared_with_block_writes_of_the_same_size(client, admin_user):
    files, block = System.objects.create(name="Files lab"), System.objects.create(name="Block lab")
    # fs_mark -s 8192: 8 KiB files created, where the file system chooses; a fio sequential write of 8 KiB
    # blocks (the sample's lines 18-19 "rw" : "randwrite", "bs" : "4k" given as write and 8k).
    store_file(sample("fsmark", "fsmark-3.3-lkp.txt"), system=files)
    fio = sample("fio", "fio-3.26-windowsaio-vc.json").read_text()
    fio = fio.replace('"rw" : "randwrite"', '"rw" : "write"').replace('"bs" : "4k"', '"bs" : "8k"')
    store_file(stream=io.BytesIO(fio.encode()), name="write-8k.json", system=block)
    client.force_login(admin_user)
    said = (
        "Not compared: Files lab's figures are files created per second, Block lab's I/O operations per second;"
        " figures of different kinds are not compared."
    )
    # Matched by what they do, they are not the same workload: file creation states no random share.
    matched = text(client.get("/compare/", {"a": "Files lab", "b": "Block lab"}))
    assert "Only Files lab (A): File create" in matched and "Only Block lab (B): 8 KiB sequential write" in matched
    # nor when paired by hand (fs_mark's workload "File create", the fio job "write-8k")
    block_name = Run.objects.get(config__system=block).workload_name
    paired = {"a": "Files lab", "b": "Block lab", "pair": f"File create|{block_name}"}
    assert said in text(client.get("/compare/", paired))


@pytest.mark.django_db
def test_a_report_of_two_mlperf_submissions_states_and_cites_them_as_the_page_does(
    two_submissions, data_dir, client, monkeypatch
):
    sent = []
    monkeypatch.setattr("portal.publishing.services.bundle_task.delay", sent.append)
    query = {"a": HUAWEI, "b": ACME}
    client.get("/api/v1/reports/", query)
    (key,) = sent
    assert bundle_jobs.bundle_build(key) == "done"
    downloads = client.get("/api/v1/reports/", query).json()["downloads"]
    markdown = client.get(downloads["md"]).content.decode().replace("\\_", "_")  # Markdown escapes "_"
    # the table's caption and the sentence the compare page states, citing each report at its commit
    assert "unet3d (h100): training throughput at the AU rule (MB/s)" in markdown
    assert f"(cited: mlcommons/storage_results_v1.0, {ACME_REPORT}, commit {two_submissions})" in markdown
    assert "throughput +15.9 %, accelerators supported +0.0 %, throughput per accelerator +15.9 %" in markdown
    assert "unet3d (h100) at 20 ms" not in markdown


@pytest.mark.django_db
def test_a_catalogue_run_with_its_dlio_summary_states_the_utilisation_it_reached(clone, client):  # noqa: F811
    root, _ = clone
    catalogue_import(root)
    run = Run.objects.get(citation_table__contains="cosmoflow-h100")
    page = text(client.get(f"/runs/{run.id}/"))
    # report: 64 accelerators, 33867.86398140645 MiB/s x 1.048576 = 35,513 MB/s, / 64 = 555 MB/s;
    # run1/c002/summary.json metric.train_au_mean_percentage 70.2636...; the cosmoflow rule is 70 %
    assert "64 accelerators (cosmoflow, h100) at 35,513 MB/s, 555 MB/s per accelerator, AU 70.3 % (rule 70 %)." in page


@pytest.mark.django_db
def test_a_labs_own_mlperf_result_is_compared_with_a_catalogue_system_cited_on_its_side_only(
    two_submissions, client, admin_user
):
    lab = System.objects.create(name="Lab array")
    upload = store_file(sample("mlperf-storage", "v1.0-huawei-unet3d-h100-report.json"), system=lab)
    assert upload.status == "done", upload.error
    client.force_login(admin_user)
    page = text(client.get("/compare/", {"a": "Lab array", "b": ACME}))
    # the lab's upload of the Huawei report against Acme's: the same figures as the catalogue compare
    assert (
        "Lab array supports 255 accelerators (unet3d, h100) at 729,264 MB/s, 2,860 MB/s per accelerator, AU not"
        f" stated (rule 90 %); {ACME} 255 accelerators (unet3d, h100) at 629,146 MB/s, 2,467 MB/s per accelerator,"
        f" AU not stated (rule 90 %) (cited: mlcommons/storage_results_v1.0, {ACME_REPORT}, commit {two_submissions})."
        " Lab array against Acme FastBox: throughput +15.9 %, accelerators supported +0.0 %" in page
    )


@pytest.mark.django_db
def test_an_object_store_rate_is_read_at_the_threshold_in_object_operations(client, admin_user):
    system = System.objects.create(name="Object lab")
    upload = store_file(sample("cosbench", "cosbench-workload-summary-w55.csv"), system=system)
    assert upload.status == "done", upload.error
    run = Run.objects.filter(config__system=system, params__stage__startswith="s2-", params__op_type="read").get()
    client.force_login(admin_user)
    body = client.get(f"/runs/{run.id}/").content.decode()
    reading = html.unescape(re.search(r'id="at-threshold"><strong>(.*?)</strong>', body)[1])
    # line 3: Throughput 74.45 op/s at Avg-ResTime 2.75 ms, its one point under 20 ms: a lower bound
    assert reading.startswith("At least 74 object ops/s at 20 ms (a lower bound): measured at 2.75 ms")


@pytest.mark.django_db
def test_several_object_stores_against_a_baseline_are_tabled_in_object_operations(client, admin_user):
    summary = sample("cosbench", "cosbench-workload-summary-w55.csv").read_bytes()
    for copy, name in enumerate(("Object one", "Object two", "Object base")):
        system = System.objects.create(name=name)
        # the same file again is refused as a duplicate: each copy ends with one more line break
        upload = store_file(stream=io.BytesIO(summary + b"\n" * copy), name=f"w55-{copy}.csv", system=system)
        assert upload.status == "done", upload.error
    client.force_login(admin_user)
    query = {"a": ["Object one", "Object two"], "b": "Object base"}
    body = client.get("/compare/", query).content.decode()
    captions = [html.unescape(caption) for caption in re.findall(r"<caption>(.*?)</caption>", body)]
    # COSBench's Op-Type column: each operation a workload, its Throughput in op/s
    assert captions and all("IOPS" not in caption for caption in captions)
    assert any(caption.endswith("(object ops/s)") for caption in captions)
    exported = client.get("/export/comparison/", {**query, "format": "csv"}).content.decode()
    assert "object ops/s" in exported and " (IOPS)" not in exported
