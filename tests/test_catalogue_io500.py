"""``manage.py catalogue import io500 PATH``: a clone of IO500's submission data, built from the shared samples
at their paths in ``IO500/submission-data`` (MANIFEST.md's io500 rows), imported as one published system per
submission whose runs (a phase each and the score) cite repository, path and commit; importing it again
changes nothing, a newer commit updates."""

import io
import shutil

import pytest
from django.core.management import call_command

from portal.models import Point, Run, System
from tests.samples import sample
from tests.test_catalogue_mlperf_storage import commit_all, git

pytestmark = pytest.mark.django_db

AURORA = "Argonne National Laboratory/Aurora/DAOS/2023/submission-694/results/2023.10.08-18.11.45"
CORE42 = "Core42/Maximus-01/DAOS/2025/submission-781/results/2025.11.07-04.51.46"
GCP = "Google and DDN/Lustre on GCP/Exascaler 5.0 PRE - Lustre 2.11-56/2018/submission-147/results"
# Where each shared sample sits in IO500/submission-data (its MANIFEST row).
LAYOUT = {
    f"{AURORA}/result_summary.txt": "sc23-aurora-daos-result_summary.txt",
    f"{AURORA}/result.txt": "sc23-aurora-daos-result.txt",
    f"{AURORA}/config.ini": "sc23-aurora-daos-config.ini",
    f"{CORE42}/result_summary.txt": "sc25-core42-daos-result_summary.txt",
    f"{GCP}/result_summary.txt": "2018-gcp-ddn-lustre-result_summary.txt",
    f"{GCP}/io-500-summary.2018.11.11-21.32.04.txt": "2018-gcp-ddn-io-500-summary.txt",
}
AURORA_NAME = "Argonne National Laboratory Aurora DAOS (IO500 submission 694)"
CORE42_NAME = "Core42 Maximus-01 DAOS (IO500 submission 781)"
GCP_NAME = "Google and DDN Lustre on GCP Exascaler 5.0 PRE - Lustre 2.11-56 (IO500 submission 147)"
GIB_AS_MB = 1024**3 / 1e6


def build_clone(root):
    """A git clone of the repository's layout holding the shared samples (copied: they stay read-only)."""
    for path, name in LAYOUT.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sample("io500", name), root / path)
    git(root.parent, "init", "-q", str(root))
    git(root, "remote", "add", "origin", "https://github.com/IO500/submission-data.git")
    return commit_all(root, "submissions")


@pytest.fixture
def clone(tmp_path):
    root = tmp_path / "submission-data"
    return root, build_clone(root)


def catalogue_import(*arguments):
    out = io.StringIO()
    call_command("catalogue", "import", "io500", *map(str, arguments), stdout=out)
    return out.getvalue()


def test_each_submission_is_a_published_system_whose_phases_and_score_cite_the_results_file(clone):
    root, commit = clone
    out = catalogue_import(root)
    # Aurora: 12 phases and the score; Core42: 12, the unscored ior-rnd4K-easy-read and the score; GCP: 12 and
    # the score (the timestamp step states no figure)
    assert out.splitlines()[0] == (
        f"IO500/submission-data at commit {commit}: 3 systems (3 added, 0 updated); "
        "runs: 40 added, 0 replaced, 0 removed, 0 unchanged"
    )
    aurora = System.objects.get(name=AURORA_NAME)
    assert aurora.published and aurora.team is None and aurora.model == "DAOS"
    assert aurora.profile["catalogue"] == {
        "catalogue": "io500",
        "institution": "Argonne National Laboratory",
        "system": "Aurora",
        "file_system": "DAOS",
        "year": "2023",
        "submission": "694",
        "citation": {"repository": "IO500/submission-data", "path": f"{AURORA}/result.txt", "commit": commit},
    }
    runs = {run.name: run for run in Run.objects.filter(config__system=aurora)}
    assert len(runs) == 13
    score = runs["IO500 score"]
    assert score.origin == Run.Origin.PUBLISHED and score.tool == "IO500"
    assert (score.citation_document, score.citation_table, score.citation_note) == (
        "IO500/submission-data",
        f"{AURORA}/result.txt",
        f"commit {commit}",
    )
    point = score.points.get()
    # result.txt [SCORE]: MD = 11336.265046, BW = 734.502697, SCORE = 2885.570524
    assert point.metrics["score"] == 2885.570524
    assert point.iops == pytest.approx(11336265.046)
    assert point.mbps == pytest.approx(734.502697 * GIB_AS_MB)
    # result.txt [ior-easy-write] score = 1313.924246 (GiB/s); [run] procs = 2080
    easy_write = runs["ior-easy-write"].points.get()
    assert easy_write.mbps == pytest.approx(1313.924246 * GIB_AS_MB) and easy_write.threads == 2080
    # config.ini [ior-easy]: "transferSize = 16m", "API = DFS --dfs.pool=mypool ..."
    assert runs["ior-easy-write"].params["config"]["transferSize"] == "16m"
    assert runs["ior-easy-write"].params["config"]["API"].startswith("DFS --dfs.pool=mypool")
    # result.txt [find] score = 50044.411930 (kIOPS)
    assert runs["find"].points.get().iops == pytest.approx(50044411.93)
    # The 2018 layout: results/result_summary.txt, "[SCORE] Bandwidth 4.3002 GB/s : IOPS 38.521 kiops : TOTAL 12.8704"
    gcp_score = Point.objects.get(run__config__system__name=GCP_NAME, run__name="IO500 score")
    assert gcp_score.metrics["score"] == 12.8704 and gcp_score.iops == pytest.approx(38521)
    assert gcp_score.run.citation_table == f"{GCP}/result_summary.txt"
    # sc25: "[      ]  ior-rnd4K-easy-read       14.908312 GiB/s" outside the score, stored
    rnd = Run.objects.get(config__system__name=CORE42_NAME, name="ior-rnd4K-easy-read")
    assert rnd.params["scored"] is False and rnd.points.get().metrics["gib_per_s"] == 14.908312


def test_a_second_import_of_the_same_commit_changes_nothing(clone):
    root, _ = clone
    catalogue_import(root)
    before = {
        "systems": list(System.objects.order_by("id").values_list("id", "updated_at")),
        "runs": list(Run.objects.order_by("id").values_list("id", "citation_note")),
        "points": list(Point.objects.order_by("id").values_list("id", "mbps", "iops")),
    }
    out = catalogue_import(root)
    assert "3 systems (0 added, 0 updated); runs: 0 added, 0 replaced, 0 removed, 40 unchanged" in out
    assert before == {
        "systems": list(System.objects.order_by("id").values_list("id", "updated_at")),
        "runs": list(Run.objects.order_by("id").values_list("id", "citation_note")),
        "points": list(Point.objects.order_by("id").values_list("id", "mbps", "iops")),
    }


def test_a_newer_commit_updates_the_figure_it_changed_and_the_citations(clone):
    root, first = clone
    catalogue_import(root)
    summary = root / CORE42 / "result_summary.txt"
    summary.write_text(summary.read_text().replace("find     2944.113971 kIOPS", "find     3000.000000 kIOPS"))
    newer = commit_all(root, "Core42's find phase corrected")
    out = catalogue_import(root)
    # every run cites the commit: all 40 are replaced, and each system's citation changes
    assert "3 systems (0 added, 3 updated); runs: 0 added, 40 replaced, 0 removed, 0 unchanged" in out
    find = Run.objects.get(config__system__name=CORE42_NAME, name="find")
    assert find.citation_note == f"commit {newer}" != f"commit {first}"
    assert find.points.get().iops == pytest.approx(3000000)
    assert System.objects.get(name=CORE42_NAME).profile["catalogue"]["citation"]["commit"] == newer


def test_a_submission_whose_results_cannot_be_read_is_named_and_the_rest_imported(clone):
    root, _ = clone
    summary = root / GCP / "result_summary.txt"
    summary.write_text(summary.read_text().replace("[SCORE] Bandwidth 4.3002 GB/s", "[SCORE] Bandwidth lots"))
    (root / "Acme/Box/XFS/2024/submission-9").mkdir(parents=True)
    out = catalogue_import(root, "--repository", "IO500/submission-data")
    assert "2 systems (2 added, 0 updated)" in out.splitlines()[0]
    assert any(line.startswith(f"not read   {GCP}/result_summary.txt:13:") for line in out.splitlines())
    assert "not read   Acme/Box/XFS/2024/submission-9: no results/ folder with result.txt or result_summary.txt" in out
    assert not System.objects.filter(name=GCP_NAME).exists()
