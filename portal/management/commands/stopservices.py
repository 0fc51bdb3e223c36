from typing import Any

from django.conf import settings
from django.core.management import BaseCommand

from portal import embedded


class Command(BaseCommand):
    help = "Stop the embedded PostgreSQL and Redis of the data directory."

    def handle(self, *args: Any, **options: Any) -> None:
        stopped = embedded.stop_all(settings.DATA_DIR)
        self.stdout.write("Stopped: " + (", ".join(stopped) or "nothing was running"))
