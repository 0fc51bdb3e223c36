#!/usr/bin/env python
"""Django's command-line utility for ArrayBench."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    from django.core.management import execute_from_command_line
    from django.db.utils import ProgrammingError

    from portal import embedded

    try:
        execute_from_command_line(sys.argv)
    except ProgrammingError as error:
        if getattr(error.__cause__, "sqlstate", None) != "42P01":  # undefined_table
            raise
        from django.conf import settings

        sys.exit(
            f"The database has no ArrayBench tables yet ({error.__cause__}). Start the portal once with "
            f"`make run` (it creates them), or point this command at the portal's data: "
            f"ARRAYBENCH_DATA_DIR (here {settings.DATA_DIR}) or DATABASE_URL."
        )
    finally:
        # Servers this command had to start are stopped; servers `make run` or another command runs stay.
        embedded.stop_started()


if __name__ == "__main__":
    main()
