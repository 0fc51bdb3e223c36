"""``manage.py catalogue import mlperf-storage PATH``: a clone of an MLPerf Storage results repository, built
from the shared samples in the repository's layout, imported as published systems citing repository, path
and commit; importing it again changes nothing, a newer commit updates."""

import io
import shutil
import subprocess

import pytest
from django.core.management import call_command

from portal.catalogue.clone import clone_repository
from portal.models import Point, Run, System
from tests.samples import sample

pytestmark = pytest.mark.django_db

DDN_ID = "AI400X2T_24x14TiB_nvme_8xNDR200_16clients"
DDN_REPORT = f"Closed/DDN/results/{DDN_ID}/cosmoflow-h100/runs/mlperf_storage_report.json"
HUAWEI_REPORT = "Closed/Huawei/results/OceanStor_A800_51_hosts/mlperf_storage_report.json"
RUN1 = f"Closed/DDN/results/{DDN_ID}/cosmoflow-h100/runs/run1/c002"
# Where each shared sample sits in mlcommons/storage_results_v1.0 (its MANIFEST row).
LAYOUT = {
    f"Closed/DDN/systems/{DDN_ID}.json": "v1.0-ddn-system.json",
    DDN_REPORT: "v1.0-ddn-cosmoflow-h100-report.json",
    f"{RUN1}/summary.json": "v1.0-ddn-cosmoflow-h100-run1-summary.json",
    f"{RUN1}/per_epoch_stats.json": "v1.0-ddn-cosmoflow-h100-run1-per_epoch_stats.json",
    HUAWEI_REPORT: "v1.0-huawei-unet3d-h100-report.json",
}


def git(folder, *arguments):
    done = subprocess.run(["git", "-C", str(folder), *arguments], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def commit_all(folder, message):
    git(folder, "add", "-A")
    git(folder, "-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "-q", "-m", message)
    return git(folder, "rev-parse", "HEAD")


@pytest.fixture
def clone(tmp_path):
    """A git clone of the repository's layout holding the shared samples (copied: the samples stay read-only)."""
    root = tmp_path / "storage_results_v1.0"
    for path, name in LAYOUT.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sample("mlperf-storage", name), root / path)
    git(tmp_path, "init", "-q", str(root))
    git(root, "remote", "add", "origin", "https://github.com/mlcommons/storage_results_v1.0.git")
    return root, commit_all(root, "v1.0 results")


def catalogue_import(*arguments):
    out = io.StringIO()
    call_command("catalogue", "import", "mlperf-storage", *map(str, arguments), stdout=out)
    return out.getvalue()


def test_a_clone_is_imported_as_published_systems_citing_repository_path_and_commit(clone):
    root, commit = clone
    out = catalogue_import(root)
    assert out.splitlines()[0] == (
        f"mlcommons/storage_results_v1.0 at commit {commit}: 2 systems (2 added, 0 updated); "
        "runs: 2 added, 0 replaced, 0 removed, 0 unchanged"
    )
    ddn = System.objects.get(name=f"DDN {DDN_ID}")
    # the operator's (no team) and read by everyone, like the seed studies
    assert ddn.published and ddn.team is None
    # systems/<id>.json: storage_system.vendor_name, solution_name, version; hardware_components controller x 2
    assert (ddn.vendor, ddn.model, ddn.firmware, ddn.controllers) == (
        "DDN",
        "AI400X2 Turbo",
        "EXA6.3.0 - SFAOS12.4.0",
        2,
    )
    assert ddn.profile["details"]["benchmark_hosts"] == {"client": 16}
    assert ddn.profile["details"]["nodes"][0]["DRAM"]["capacity_MiB"] == 94208
    assert ddn.profile["catalogue"] == {
        "catalogue": "mlperf-storage",
        "division": "Closed",
        "organisation": "DDN",
        "system_id": DDN_ID,
        "citation": {
            "repository": "mlcommons/storage_results_v1.0",
            "path": f"Closed/DDN/systems/{DDN_ID}.json",
            "commit": commit,
        },
    }
    run = Run.objects.get(config__system=ddn)
    assert run.origin == Run.Origin.PUBLISHED and run.tool == "MLPerf Storage"
    assert (run.citation_document, run.citation_table, run.citation_note) == (
        "mlcommons/storage_results_v1.0",
        DDN_REPORT,
        f"commit {commit}",
    )
    assert run.workload_name == "cosmoflow (h100)" and run.verdict == "pass"
    [point] = run.points.all()
    # overall.train_num_accelerators "64"; overall.train_throughput_mean_MB_per_second 33867.86398140645 MiB/s
    assert point.load == {"accelerators": 64}
    assert point.mbps == pytest.approx(35513.03, abs=0.01)
    assert run.published_mbps_binary == pytest.approx(33867.86398140645)
    # the accelerator utilisation of the one DLIO summary below the report's folder (run1/c002/summary.json:
    # metric.train_au_mean_percentage, train_au_meet_expectation "success")
    assert point.metrics["au_runs"] == {
        "columns": ["run", "au_pct", "verdict"],
        "rows": [["run1/c002", 70.26363970313434, "pass"]],
    }
    assert point.metrics["au_pct_lowest"] == 70.26363970313434
    # The Huawei folder has no systems/ description: a system of the folder's name, its vendor the organisation
    huawei = System.objects.get(name="Huawei OceanStor_A800_51_hosts")
    assert huawei.vendor == "Huawei" and huawei.published
    huawei_point = Point.objects.get(run__config__system=huawei)
    assert "au_runs" not in huawei_point.metrics  # no summary in its folder
    # overall.train_throughput_mean_MB_per_second 695480.2768186077 MiB/s, 255 accelerators
    assert huawei_point.mbps == pytest.approx(729263.93, abs=0.01)
    assert huawei_point.load == {"accelerators": 255}


def test_a_second_import_of_the_same_commit_changes_nothing(clone):
    root, _ = clone
    catalogue_import(root)
    before = {
        "systems": list(System.objects.order_by("id").values_list("id", "updated_at")),
        "runs": list(Run.objects.order_by("id").values_list("id", "citation_note")),
        "points": list(Point.objects.order_by("id").values_list("id", "mbps")),
    }
    out = catalogue_import(root)
    assert "2 systems (0 added, 0 updated); runs: 0 added, 0 replaced, 0 removed, 2 unchanged" in out
    assert before == {
        "systems": list(System.objects.order_by("id").values_list("id", "updated_at")),
        "runs": list(Run.objects.order_by("id").values_list("id", "citation_note")),
        "points": list(Point.objects.order_by("id").values_list("id", "mbps")),
    }


def test_a_newer_commit_updates_figures_and_citations_and_removes_what_it_withdrew(clone):
    root, first = clone
    catalogue_import(root)
    report = root / HUAWEI_REPORT
    report.write_text(report.read_text().replace("695480.2768186077", "700000.0", 1))
    (root / DDN_REPORT).unlink()
    newer = commit_all(root, "a corrected Huawei report; DDN's cosmoflow result withdrawn")
    out = catalogue_import(root)
    assert "2 systems (0 added, 1 updated); runs: 0 added, 1 replaced, 1 removed, 0 unchanged" in out
    [run] = Run.objects.all()
    assert run.citation_note == f"commit {newer}" != f"commit {first}"
    # 700,000 MiB/s x 1.048576
    assert run.points.get().mbps == pytest.approx(734003.2)
    # the DDN system keeps its description, now cited at the newer commit, without runs
    ddn = System.objects.get(name=f"DDN {DDN_ID}")
    assert ddn.profile["catalogue"]["citation"]["commit"] == newer


def test_a_folder_that_is_no_clone_is_cited_as_given_without_a_commit(tmp_path):
    root = tmp_path / "results"
    (root / HUAWEI_REPORT).parent.mkdir(parents=True)
    shutil.copyfile(sample("mlperf-storage", "v1.0-huawei-unet3d-h100-report.json"), root / HUAWEI_REPORT)
    out = catalogue_import(root, "--repository", "mlcommons/storage_results_v1.0")
    assert out.startswith("mlcommons/storage_results_v1.0 at no commit (not a git clone): 1 systems")
    run = Run.objects.get()
    assert run.citation_note == "read from a folder that is no git clone: no commit"


def test_a_file_that_cannot_be_read_is_named_and_the_rest_imported(clone):
    root, _ = clone
    report = root / HUAWEI_REPORT
    report.write_text(report.read_text().replace('"train_num_accelerators": "255"', '"train_num_accelerators": "many"'))
    out = catalogue_import(root)
    assert "1 systems (1 added, 0 updated); runs: 1 added" in out
    # the report's line 6: "train_num_accelerators": "255" in "overall"
    assert f"not read   {HUAWEI_REPORT}:6: field 'train_num_accelerators': 'many' is not a number" in out.splitlines()
    assert Run.objects.get().citation_table == DDN_REPORT
    assert not System.objects.filter(name__startswith="Huawei").exists()


def test_a_json_schema_among_the_system_descriptions_is_named_as_not_read(clone):
    # Closed/Hammerspace/systems/Schema.json of the repository: the descriptions' JSON Schema, no system
    root, _ = clone
    schema = root / "Closed/DDN/systems/Schema.json"
    schema.write_text('{\n    "$schema": "https://json-schema.org/draft/2020-12/schema",\n    "properties": {}\n}\n')
    out = catalogue_import(root)
    assert any(line.startswith("not read   Closed/DDN/systems/Schema.json:") for line in out.splitlines())
    assert sorted(System.objects.values_list("name", flat=True)) == [f"DDN {DDN_ID}", "Huawei OceanStor_A800_51_hosts"]


def test_an_open_submission_with_its_description_in_its_results_folder(tmp_path):
    # Open/Volumez/results/File-Direct/systems/file-direct.json and .../unet3d/h100/mlperf_storage_report.json in
    # the repository, with a macOS "._" copy beside the description
    root = tmp_path / "storage_results_v1.0"
    folder = root / "Open/Volumez/results/File-Direct"
    (folder / "systems").mkdir(parents=True)
    (folder / "unet3d/h100").mkdir(parents=True)
    shutil.copyfile(sample("mlperf-storage", "v1.0-ddn-system.json"), folder / "systems/file-direct.json")
    (folder / "systems/._file-direct.json").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X")
    shutil.copyfile(
        sample("mlperf-storage", "v1.0-huawei-unet3d-h100-report.json"),
        folder / "unet3d/h100/mlperf_storage_report.json",
    )
    out = catalogue_import(root, "--repository", "mlcommons/storage_results_v1.0")
    assert "not read" not in out
    system = System.objects.get()
    assert system.name == "Volumez File-Direct" and system.profile["catalogue"]["division"] == "Open"
    assert (
        system.profile["catalogue"]["citation"]["path"] == "Open/Volumez/results/File-Direct/systems/file-direct.json"
    )
    assert Run.objects.get().citation_table == "Open/Volumez/results/File-Direct/unet3d/h100/mlperf_storage_report.json"


def test_the_run_page_of_a_published_run_shows_the_lowest_utilisation_of_its_runs_and_the_citation(clone, client):
    root, commit = clone
    catalogue_import(root)
    run = Run.objects.get(citation_table=DDN_REPORT)
    body = client.get(f"/runs/{run.id}/").content.decode()
    # run1/c002/summary.json: metric.train_au_mean_percentage 70.2636...
    assert "Accelerator utilisation (lowest of the runs)</th>" in body
    assert '<td class="num" id="mlperf-au">70.3 %</td>' in body
    assert DDN_REPORT in body and commit in body


@pytest.mark.parametrize(
    ("remote", "cited"),
    [
        ("https://github.com/mlcommons/storage_results_v1.0.git", "mlcommons/storage_results_v1.0"),
        ("git@github.com:mlcommons/storage_results_v1.0.git", "mlcommons/storage_results_v1.0"),
        ("https://user:secret@github.com/mlcommons/storage_results_v1.0", "mlcommons/storage_results_v1.0"),
        ("https://user:secret@git.example.com/mirror/results.git", "https://git.example.com/mirror/results.git"),
    ],
)
def test_the_repository_is_cited_from_the_clones_origin_without_credentials(tmp_path, remote, cited):
    git(tmp_path, "init", "-q", str(tmp_path / "clone"))
    git(tmp_path / "clone", "remote", "add", "origin", remote)
    assert clone_repository(path=tmp_path / "clone", given=None) == cited
    assert clone_repository(path=tmp_path / "clone", given="acme/results") == "acme/results"
