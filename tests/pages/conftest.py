import io

import pytest
from django.core.management import call_command

from portal.models import System


@pytest.fixture
def demo(db):
    """The seed papers' published figures, as `make run` loads them, inside the test's transaction."""
    call_command("loaddemo", stdout=io.StringIO())
    return {system.name: system for system in System.objects.all()}
