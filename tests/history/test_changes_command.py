"""``manage.py changes``: detection on demand, the new alerts listed to those who may read them."""

import io

import pytest
from django.core.management import CommandError, call_command

from portal.models import Alert, AlertSummary
from tests.factories import SystemFactory

from .conftest import upload_version


@pytest.fixture
def history(engineer, lab):
    system = SystemFactory(name="IBM DS5020", team=lab, published=False)
    for day, (firmware, level) in enumerate(zip(("8.3.2", "8.3.10", "8.10.0"), (1.0, 1.0, 1.1), strict=True)):
        upload_version(system, firmware, level, engineer, day=day)
    Alert.objects.all().delete()
    AlertSummary.objects.all().delete()
    return system


def changes(*args):
    out = io.StringIO()
    call_command("changes", *args, stdout=out)
    return out.getvalue()


def test_changes_finds_the_step_again_and_lists_it_to_the_team(history, engineer):
    printed = changes("--system", "ibm ds5020", "--as", "engineer")
    line, total = printed.splitlines()
    assert line.startswith(
        "IBM DS5020, RAID-5, 16 drives, FIOJOB, throughput at 20 ms: +10.0 % from 8.10.0 (10,103 IOPS before, "
        "11,113 IOPS after; p < 0.0001, tentative)"
    )
    # The runs spread 1 % (101 IOPS) in every version: t = 1,010 / (101 x sqrt(1/6 + 1/3)) = 14.1 with 6
    # degrees of freedom, p about 1e-5.
    assert total == "1 new alert"
    assert Alert.objects.get().version == "8.10.0"
    assert changes("--as", "engineer") == "0 new alerts\n"


def test_changes_does_not_print_a_private_systems_alerts_to_others(history):
    assert changes() == "1 new alert (1 on systems you may not read: use --as USERNAME)\n"


def test_changes_names_a_bad_date_or_system(history):
    with pytest.raises(CommandError, match="--since '25/11/2026': expected a date as YYYY-MM-DD"):
        changes("--since", "25/11/2026")
    with pytest.raises(CommandError, match="there is no system of that name"):
        changes("--system", "EMC CX4")
