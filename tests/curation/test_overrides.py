"""A maintainer's word on what a file did not say: exclusions, a team's workload names, stated values."""

import pytest
from django.contrib.auth import get_user_model

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.curation import services
from portal.curation.selectors import alias_book
from portal.errors import ApplicationError, NotFoundError
from portal.models import AuditEvent, Config, Role, Run, RunStatement, System, Workload, WorkloadAlias
from portal.results.selectors import COMPARABLE, runs_filtered
from portal.uploads.services import upload_reingest
from tests.conftest import team_member
from tests.factories import RunFactory, SystemFactory
from tests.ingesting import run_job_of, store_file
from tests.samples import sample

pytestmark = pytest.mark.django_db

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")
VDBENCH = sample("vdbench", "vdbenchexplorer_flatfile_kstat.html")


def _user(name, role=None, team="Engineering lab"):
    user = get_user_model().objects.create_user(name, password="disk-arrays-42")
    if role is not None:
        team_member(user, role=role, team=team)
    return user


@pytest.fixture
def maintainer():
    return _user("maria", Role.MAINTAINER)


@pytest.fixture
def team_run(maintainer):
    """A run of the maintainer's team's private system, as a fio job file that names no read mix."""
    system = SystemFactory(name="Lab array", team=maintainer.memberships.get().team, published=False)
    config = Config.objects.create(system=system, raid_level="RAID-5", drive_count=8)
    return Run.objects.create(
        config=config,
        name="precondition",
        tool="fio",
        workload_name="job1",
        read_pct=None,
        random_pct=100,
        transfer_sizes=[{"bytes": 8192, "pct": 100}],
    )


def _events(action):
    return list(AuditEvent.objects.filter(action=action).values_list("actor_name", "subject"))


def test_a_maintainer_excludes_a_run_with_a_reason_and_compares_it_again(maintainer, team_run):
    services.run_exclude(run_id=team_run.id, reason="  preconditioning   pass ", actor=maintainer)
    team_run.refresh_from_db()
    assert (team_run.excluded_reason, team_run.excluded_by) == ("preconditioning pass", maintainer)
    assert team_run.excluded_at is not None
    assert not Run.objects.filter(COMPARABLE, id=team_run.id).exists()
    assert _events("exclude") == [("maria", f"run #{team_run.id} precondition of Lab array: preconditioning pass")]

    services.run_include(run_id=team_run.id, actor=maintainer)
    team_run.refresh_from_db()
    assert (team_run.excluded_reason, team_run.excluded_by, team_run.excluded_at) == ("", None, None)
    assert Run.objects.filter(COMPARABLE, id=team_run.id).exists()
    assert _events("include") == [("maria", f"run #{team_run.id} precondition of Lab array")]


def test_an_exclusion_needs_a_reason(maintainer, team_run):
    with pytest.raises(ApplicationError, match="Say why the run is excluded") as raised:
        services.run_exclude(run_id=team_run.id, reason="   ", actor=maintainer)
    assert raised.value.status == 400
    assert Run.objects.get(id=team_run.id).excluded_reason == ""


@pytest.mark.parametrize("role", [Role.VIEWER, Role.UPLOADER])
def test_readers_and_uploaders_of_the_team_are_refused(team_run, role):
    member = _user("ulla", role)
    for change in (
        lambda: services.run_exclude(run_id=team_run.id, reason="failed", actor=member),
        lambda: services.workload_alias_set(run_id=team_run.id, name="OLTP-ish", actor=member),
        lambda: services.run_statement_set(run_id=team_run.id, read_pct=67, actor=member),
    ):
        with pytest.raises(ApplicationError, match="Only a maintainer of the system's team") as raised:
            change()
        assert raised.value.status == 403
    assert not AuditEvent.objects.exists() and not WorkloadAlias.objects.exists()
    assert not RunStatement.objects.exists() and Run.objects.get(id=team_run.id).excluded_reason == ""


def test_a_maintainer_of_another_team_does_not_find_a_private_run(team_run):
    other = _user("otto", Role.MAINTAINER, team="Other lab")
    with pytest.raises(NotFoundError, match=f"There is no run #{team_run.id}"):
        services.run_exclude(run_id=team_run.id, reason="failed", actor=other)


def test_a_maintainer_of_another_team_may_not_change_a_published_run(team_run):
    System.objects.filter(id=team_run.config.system_id).update(published=True)
    other = _user("otto", Role.MAINTAINER, team="Other lab")
    with pytest.raises(ApplicationError) as raised:
        services.run_exclude(run_id=team_run.id, reason="failed", actor=other)
    assert raised.value.status == 403


def test_a_team_names_a_workload_for_its_members_only_and_can_remove_the_name(maintainer, data_dir):
    system = SystemFactory(name="Lab array", team=maintainer.memberships.get().team)
    # fioplot_fio-3.34_randread-1-1.json: job FIOJOB, rw=randread, bs=4k (lines 18 and 20).
    run = store_file(FIO, system=system, uploader=maintainer).runs.get()
    # The workload is titled by what it does; the tool's job name is an alias that finds it.
    assert (run.workload_name, run.workload.name) == ("FIOJOB", "4 KiB random read")
    assert "FIOJOB" in run.workload.names
    alias = services.workload_alias_set(run_id=run.id, name="Random read 4K", actor=maintainer)
    assert (alias.workload_id, alias.workload_name, alias.set_by) == (run.workload_id, "", maintainer)
    assert _events("alias") == [("maria", "workload 4 KiB random read as Random read 4K")]
    # Its members read the team's name; others, and the stored run, keep the tool's name.
    ids = [run.workload_id]
    assert alias_book(viewer=maintainer, workload_ids=ids).by_workload == {run.workload_id: "Random read 4K"}
    outsider = _user("otto", Role.ADMIN, team="Other lab")
    assert alias_book(viewer=outsider, workload_ids=ids).by_workload == {}
    assert Run.objects.get(id=run.id).workload_name == "FIOJOB"
    assert "Random read 4K" not in Workload.objects.get(id=run.workload_id).names
    # The team's name finds the runs for its members, not for others.
    asked = {"system": system, "workloads": ["Random read 4K"]}
    assert list(runs_filtered(**asked, viewer=maintainer).values_list("id", flat=True)) == [run.id]
    assert not runs_filtered(**asked, viewer=outsider).exists()
    assert not runs_filtered(**asked).exists()

    services.workload_alias_remove(run_id=run.id, actor=maintainer)
    assert not WorkloadAlias.objects.exists()
    assert _events("unalias") == [("maria", "workload 4 KiB random read (Random read 4K)")]


def test_a_run_without_a_workload_is_named_by_the_name_it_was_stored_under(maintainer, team_run):
    services.workload_alias_set(run_id=team_run.id, name="Preconditioning", actor=maintainer)
    alias = WorkloadAlias.objects.get()
    assert (alias.workload_id, alias.workload_name, alias.name) == (None, "job1", "Preconditioning")
    # Named again, the one name is changed, not a second one added.
    services.workload_alias_set(run_id=team_run.id, name="Fill", actor=maintainer)
    assert list(WorkloadAlias.objects.values_list("name", flat=True)) == ["Fill"]


def test_a_stated_read_pct_makes_the_run_the_same_workload_as_another_systems(maintainer, team_run):
    other = RunFactory(config__system=SystemFactory(name="Other array"), workload_name="OLTP 8K", read_pct=67)
    workload = Workload.objects.create(
        identity="x", read_pct=67, random_pct=100, transfer_sizes=[[8192, 100]], name="OLTP 8K", names=["OLTP 8K"]
    )
    workload.identity = workload.signature().identity
    workload.save()
    Run.objects.filter(id=other.id).update(workload=workload)
    assert team_run.workload_id is None

    services.run_statement_set(run_id=team_run.id, read_pct=67, actor=maintainer)
    team_run.refresh_from_db()
    assert team_run.workload_id == workload.id
    # The parsed values stay as the file gave them; the statement is beside the run.
    assert (team_run.read_pct, team_run.random_pct, team_run.transfer_sizes) == (
        None,
        100,
        [{"bytes": 8192, "pct": 100}],
    )
    statement = RunStatement.objects.get(run=team_run)
    assert (statement.read_pct, statement.stated_by, statement.parsed_workload_id) == (67, maintainer, None)
    assert _events("state") == [("maria", f"run #{team_run.id} precondition of Lab array: read % 67")]
    result = comparison(a=team_run.config.system, b=other.config.system, query=ComparisonQuery(threshold_ms=20))
    assert [w.workload for w in result.workloads] == ["OLTP 8K"]

    services.run_statement_remove(run_id=team_run.id, actor=maintainer)
    team_run.refresh_from_db()
    assert team_run.workload_id is None and not RunStatement.objects.exists()
    assert _events("unstate") == [("maria", f"run #{team_run.id} precondition of Lab array")]


def test_a_value_is_stated_for_every_run_of_a_job_name_in_the_system(maintainer, team_run):
    twin = Run.objects.create(
        config=team_run.config,
        name="precondition",
        tool="fio",
        workload_name="job1",
        random_pct=100,
        transfer_sizes=[{"bytes": 8192, "pct": 100}],
    )
    stated = services.run_statement_set(run_id=team_run.id, read_pct=0, same_name=True, actor=maintainer)
    assert sorted(s.run_id for s in stated) == sorted([team_run.id, twin.id])
    workloads = set(Run.objects.filter(id__in=[team_run.id, twin.id]).values_list("workload__read_pct", flat=True))
    assert workloads == {0}
    assert AuditEvent.objects.filter(action="state").count() == 2


def test_a_value_the_file_stated_is_not_overridden(maintainer, team_run):
    with pytest.raises(ApplicationError, match="The file stated these values already"):
        services.run_statement_set(run_id=team_run.id, random_pct=0, actor=maintainer)
    assert Run.objects.get(id=team_run.id).random_pct == 100 and not RunStatement.objects.exists()


def test_reading_the_upload_again_keeps_what_maintainers_said_of_runs_of_the_same_name(maintainer, data_dir):
    system = SystemFactory(name="Lab array", team=maintainer.memberships.get().team)
    # vdbenchexplorer_flatfile_kstat.html line 81: rd random_read_max_8k, among the file's other runs.
    upload = store_file(VDBENCH, system=system, uploader=maintainer)
    runs = {run.name: run for run in upload.runs.all()}
    excluded = next(run for name, run in runs.items() if "random_read_max_8k" in name)
    services.run_exclude(run_id=excluded.id, reason="a failed run", actor=maintainer)
    # Another run's read % taken away, as a file that did not say it, then stated.
    stated = next(run for run in runs.values() if run.id != excluded.id)
    Run.objects.filter(id=stated.id).update(read_pct=None)
    services.run_statement_set(run_id=stated.id, read_pct=100, actor=maintainer)

    assert upload_reingest(upload=upload, requested_by=maintainer)
    upload = run_job_of(upload)
    again = {run.name: run for run in upload.runs.all()}
    assert set(again) == set(runs) and again[excluded.name].id != excluded.id
    assert [(run.name, run.excluded_reason, run.excluded_by) for run in again.values() if run.excluded_reason] == [
        (excluded.name, "a failed run", maintainer)
    ]
    carried = RunStatement.objects.get()
    assert (carried.run_id, carried.read_pct, carried.stated_by) == (again[stated.name].id, 100, maintainer)
