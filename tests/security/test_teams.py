"""Teams as a lab uses them: members and roles, uploads private to the team, publishing, the audit log."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.test import Client

from portal.models import AuditEvent, Membership, Role, System, Team, Upload
from portal.systems.selectors import system_by_name
from portal.uploads.services import uploads_receive
from tests.factories import RunFactory, SystemFactory
from tests.ingesting import run_job_of, store_file
from tests.samples import sample

pytestmark = pytest.mark.django_db

FIO = sample("fio", "fioplot_fio-3.16_highpoint-raid5_randread-32-32.json")


def _user(name, *, team=None, role=Role.VIEWER, **fields):
    user = get_user_model().objects.create_user(name, password="disk-arrays-42", **fields)
    if team is not None:
        Membership.objects.create(team=team, user=user, role=role)
    return user


def _signed_in(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def acme():
    return Team.objects.create(name="Acme storage lab", slug="acme")


def test_the_team_command_creates_the_team_adds_and_changes_members():
    alice, _bob = _user("alice"), _user("bob")
    out = io.StringIO()
    call_command("team", "add", "Acme storage lab", "alice", "--role", "admin", stdout=out)
    call_command("team", "add", "acme storage lab", "bob", "--role", "uploader", stdout=out)
    assert out.getvalue().splitlines() == [
        "alice is admin of Acme storage lab (acme-storage-lab)",
        "bob is uploader of Acme storage lab (acme-storage-lab)",
    ]
    team = Team.objects.get()
    call_command("team", "add", "Acme storage lab", "bob", "--role", "maintainer", stdout=out)
    assert Membership.objects.get(user__username="bob").role == "maintainer"
    listed = io.StringIO()
    call_command("team", "list", "Acme storage lab", stdout=listed)
    assert listed.getvalue().splitlines() == ["alice\tadmin", "bob\tmaintainer"]
    # The last admin cannot leave: nobody could manage the members then.
    with pytest.raises(CommandError, match="alice is the last admin of Acme storage lab"):
        call_command("team", "remove", "Acme storage lab", "alice", stdout=out)
    call_command("team", "remove", "Acme storage lab", "bob", stdout=out)
    assert list(team.memberships.values_list("user__username", flat=True)) == [alice.username]
    actions = list(AuditEvent.objects.order_by("id").values_list("action", "subject"))
    assert actions == [
        ("member_add", "user alice as admin"),
        ("member_add", "user bob as uploader"),
        ("member_role", "user bob to maintainer"),
        ("member_remove", "user bob"),
    ]
    with pytest.raises(CommandError, match="invalid choice: 'chief'"):
        call_command("team", "add", "Acme storage lab", "bob", "--role", "chief")


def test_a_user_creates_a_team_and_its_admin_adds_a_member(acme):
    carol = _user("carol")
    _user("dave")
    client = _signed_in(carol)
    response = client.post("/teams/create", {"name": "Zenith labs"}, follow=True)
    assert "Team Zenith labs created; you are its admin." in response.content.decode()
    assert Membership.objects.get(user=carol).role == "admin"
    client.post("/teams/zenith-labs/members", {"username": "dave", "role": "uploader"})
    page = client.get("/teams/zenith-labs/").content.decode()
    assert "dave" in page and "member added" in page and "user dave as uploader" in page
    # A team of the same name cannot be made by another user; its admins are asked instead.
    response = _signed_in(_user("eve")).post("/teams/create", {"name": "zenith LABS"}, follow=True)
    assert "exists already" in response.content.decode()


def test_only_admins_manage_members(acme):
    uploader = _user("uploader", team=acme, role=Role.MAINTAINER)
    _user("frank")
    client = _signed_in(uploader)
    assert client.post("/teams/acme/members", {"username": "frank", "role": "admin"}).status_code == 404
    assert not Membership.objects.filter(user__username="frank").exists()
    # A maintainer sees the audit log, not the member form.
    page = client.get("/teams/acme/").content.decode()
    assert "Audit log" in page and "Add a member" not in page


def test_an_upload_is_private_to_the_team_until_published(acme, data_dir):
    engineer = _user("engineer", team=acme, role=Role.UPLOADER)
    with open(FIO, "rb") as file:
        [upload] = uploads_receive(
            files=[file], uploader=engineer, team=acme, system=None, labels={},
            new_system={"name": "Acme A9000", "vendor": "Acme", "model": "A9000"},
        )  # fmt: skip
    upload = run_job_of(upload)
    assert upload.status == Upload.Status.DONE
    system = System.objects.get(name="Acme A9000")
    assert (system.team, system.published) == (acme, False)
    assert Client().get(f"/systems/{system.id}/").status_code == 404
    assert _signed_in(_user("outsider")).get(f"/systems/{system.id}/").status_code == 404
    assert _signed_in(engineer).get(f"/systems/{system.id}/").status_code == 200
    # An uploader cannot publish; a maintainer can.
    _signed_in(engineer).post(f"/teams/systems/{system.id}/publish", {"publish": "1", "confirmed": "1"})
    assert Client().get(f"/systems/{system.id}/").status_code == 404
    maintainer = _user("maintainer", team=acme, role=Role.MAINTAINER)
    _signed_in(maintainer).post(f"/teams/systems/{system.id}/publish", {"publish": "1", "confirmed": "1"})
    assert Client().get(f"/systems/{system.id}/").status_code == 200
    events = list(AuditEvent.objects.order_by("id").values_list("actor_name", "action", "subject"))
    assert events == [
        ("engineer", "upload", f"upload #{upload.id} {upload.original_name}"),
        ("maintainer", "publish", "system Acme A9000"),
    ]


def test_the_same_file_in_two_teams_is_read_for_each(acme, data_dir):
    other = Team.objects.create(name="Other lab", slug="other")
    first, second = _user("first", team=acme, role=Role.UPLOADER), _user("second", team=other, role=Role.UPLOADER)
    uploads = []
    for user, team in ((first, acme), (second, other)):
        with open(FIO, "rb") as file:
            uploads += uploads_receive(
                files=[file], uploader=user, team=team, system=None, labels={}, new_system={"name": "Lab array"}
            )
    # The second team's copy is not a "duplicate of" the first team's upload (that would reveal it).
    assert [upload.status for upload in uploads] == [Upload.Status.QUEUED, Upload.Status.QUEUED]
    for upload in uploads:
        assert run_job_of(upload).status == Upload.Status.DONE
    assert sorted(System.objects.filter(name="Lab array").values_list("team__slug", flat=True)) == ["acme", "other"]
    # Within one team the copy is a duplicate, as before.
    with open(FIO, "rb") as file:
        [again] = uploads_receive(files=[file], uploader=first, team=acme, system=None, labels={})
    assert (again.status, again.duplicate_of_id) == (Upload.Status.DUPLICATE, uploads[0].id)


def test_a_name_published_by_another_cannot_be_published_twice(acme):
    SystemFactory(name="IBM DS5000", published=True)
    private = SystemFactory(name="IBM DS5000", team=acme, published=False)
    maintainer = _user("maintainer", team=acme, role=Role.MAINTAINER)
    response = _signed_in(maintainer).post(
        f"/teams/systems/{private.id}/publish", {"publish": "1", "confirmed": "1"}, follow=True
    )
    assert "a published system is already named 'IBM DS5000'; rename this one before publishing it" in (
        response.content.decode().replace("&#x27;", "'")
    )
    private.refresh_from_db()
    assert private.published is False
    # The team's members mean their own system by the name; everyone else the published one.
    public = System.objects.get(name="IBM DS5000", published=True)
    assert system_by_name(name="IBM DS5000", viewer=maintainer) == private
    assert system_by_name(name="ibm ds5000", viewer=_user("someone")) == public


def test_staff_who_are_not_superusers_see_only_what_they_may_read_in_the_admin(acme):
    RunFactory(config__system=SystemFactory(name="Hidden array", team=acme, published=False))
    RunFactory(config__system=SystemFactory(name="Open array"))
    staff = _user("staff", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["view_system", "view_run"]))
    client = _signed_in(staff)
    for page in ("/admin/portal/system/", "/admin/portal/run/"):
        text = client.get(page).content.decode()
        assert "Open array" in text and "Hidden array" not in text
    assert client.get("/admin/portal/team/").status_code == 403
    superuser = _user("root", is_staff=True, is_superuser=True)
    assert "Hidden array" in _signed_in(superuser).get("/admin/portal/system/").content.decode()


def test_a_maintainer_relabels_and_deletes_an_upload_of_the_team(acme, data_dir, django_capture_on_commit_callbacks):
    engineer = _user("engineer", team=acme, role=Role.UPLOADER)
    with open(FIO, "rb") as file:
        [upload] = uploads_receive(
            files=[file], uploader=engineer, team=acme, system=None,
            labels={"raid_level": "RAID-5", "host_os": "Linux"}, new_system={"name": "Acme A9000"},
        )  # fmt: skip
    upload = run_job_of(upload)
    assert set(upload.runs.values_list("config__raid_level", flat=True)) == {"RAID-5"}
    maintainer = _signed_in(_user("maintainer", team=acme, role=Role.MAINTAINER))
    response = maintainer.post(
        f"/uploads/{upload.id}/relabel",
        {"relabel-raid_level": "RAID 6", "relabel-drive_count": "24", "relabel-measurement": "end_to_end"},
        follow=True,
    )
    assert "queued to be stored again with the new labels" in response.content.decode()
    upload = run_job_of(upload)
    # The new labels, the one the form does not show kept; the runs stored again under them.
    assert upload.labels == {"raid_level": "RAID 6", "drive_count": 24, "measurement": "end_to_end", "host_os": "Linux"}
    assert set(upload.runs.values_list("config__raid_level", "config__drive_count")) == {("RAID-6", 24)}
    original = data_dir / "uploads" / upload.stored_path
    assert original.is_file()
    # Deleting needs the tick; then the upload, its runs and its original are gone.
    maintainer.post(f"/uploads/{upload.id}/delete")
    assert Upload.objects.filter(id=upload.id).exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = maintainer.post(f"/uploads/{upload.id}/delete", {"confirm": "yes"}, follow=True)
    assert f"Upload #{upload.id} and its 1 run(s) are deleted." in response.content.decode()
    assert not Upload.objects.filter(id=upload.id).exists()
    assert System.objects.get(name="Acme A9000").configs.filter(runs__isnull=False).count() == 0
    assert not original.exists()
    events = list(AuditEvent.objects.order_by("id").values_list("action", "subject"))
    assert events[1:] == [
        ("relabel", f"upload #{upload.id} {upload.original_name}: host_os=Linux, raid_level=RAID 6, drive_count=24, "
                    "measurement=end_to_end"),
        ("delete", f"upload #{upload.id} {upload.original_name} (1 run)"),
    ]  # fmt: skip
    # A viewer of the team can do neither.
    with open(FIO, "rb") as file:
        [viewer_upload] = uploads_receive(
            files=[file], uploader=engineer, team=acme, system=None, labels={}, new_system={"name": "Acme A9000"}
        )
    viewer = _signed_in(_user("viewer", team=acme, role=Role.VIEWER))
    viewer.post(f"/uploads/{viewer_upload.id}/delete", {"confirm": "yes"})
    assert Upload.objects.filter(id=viewer_upload.id).exists()


def test_a_private_workload_name_stays_with_the_team_until_published(acme, data_dir):
    """Workloads are shared by every system with the same read %, random % and sizes: the name a
    team gave its runs is not shown with another system's runs until the team publishes."""
    public = store_file(FIO, new_system={"name": "Open array"})
    engineer = _user("engineer", team=acme, role=Role.MAINTAINER)
    with open(FIO, "rb") as file:
        [upload] = uploads_receive(
            files=[file], uploader=engineer, team=acme, system=None, labels={"workload_name": "Project Z read"},
            new_system={"name": "Acme A9000"},
        )  # fmt: skip
    upload = run_job_of(upload)
    [public_run], [private_run] = public.runs.all(), upload.runs.all()
    assert public_run.workload_id == private_run.workload_id
    assert "Project Z read" not in private_run.workload.names
    page = Client().get(f"/runs/{public_run.id}/").content.decode()
    assert "Project Z read" not in page
    assert "Project Z read" in _signed_in(engineer).get(f"/runs/{private_run.id}/").content.decode()
    # Published: the name joins the workload's names, by which any reader may ask for it.
    _signed_in(engineer).post(
        f"/teams/systems/{private_run.config.system_id}/publish", {"publish": "1", "confirmed": "1"}
    )
    private_run.workload.refresh_from_db()
    assert "Project Z read" in private_run.workload.names


def test_a_maintainer_renames_a_system_to_publish_it_beside_another_of_that_name(acme):
    SystemFactory(name="IBM DS5000", published=True)
    private = SystemFactory(name="IBM DS5000", team=acme, published=False)
    SystemFactory(name="Acme spare", team=acme, published=False)
    maintainer = _signed_in(_user("maintainer", team=acme, role=Role.MAINTAINER))
    # A name the team already uses is refused; so is an empty one.
    response = maintainer.post(f"/teams/systems/{private.id}/rename", {"name": "acme  SPARE"}, follow=True)
    assert "Acme storage lab has a system named &#x27;acme SPARE&#x27; already." in response.content.decode()
    maintainer.post(f"/teams/systems/{private.id}/rename", {"name": "   "})
    private.refresh_from_db()
    assert private.name == "IBM DS5000"
    # An uploader may not rename.
    uploader = _signed_in(_user("uploader", team=acme, role=Role.UPLOADER))
    uploader.post(f"/teams/systems/{private.id}/rename", {"name": "Whatever"})
    private.refresh_from_db()
    assert private.name == "IBM DS5000"
    response = maintainer.post(f"/teams/systems/{private.id}/rename", {"name": "Acme DS5000 lab unit"}, follow=True)
    assert "IBM DS5000 is now named Acme DS5000 lab unit." in response.content.decode()
    maintainer.post(f"/teams/systems/{private.id}/publish", {"publish": "1", "confirmed": "1"})
    private.refresh_from_db()
    assert (private.name, private.published) == ("Acme DS5000 lab unit", True)
    # Published, it cannot take the other published system's name.
    maintainer.post(f"/teams/systems/{private.id}/rename", {"name": "ibm ds5000"})
    private.refresh_from_db()
    assert private.name == "Acme DS5000 lab unit"
    actions = list(AuditEvent.objects.order_by("id").values_list("action", "subject"))
    assert actions == [
        ("rename", "system IBM DS5000 to Acme DS5000 lab unit"),
        ("publish", "system Acme DS5000 lab unit"),
    ]
