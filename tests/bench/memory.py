"""Child process of the benchmark's memory figure: parse and store one file, then roll back."""

import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")


def main(path):
    import django

    django.setup()
    from django.db import transaction

    from ingest import parse_paths
    from portal.models import System, Upload
    from portal.results.services import result_sets_store

    results = parse_paths([path])
    with transaction.atomic():
        system = System.objects.create(name="memory benchmark")
        upload = Upload.objects.create(original_name="huge.csv", size_bytes=1, sha256="0" * 64, stored_path="-")
        result_sets_store(results=results, upload=upload, system=system)
        transaction.set_rollback(True)


if __name__ == "__main__":
    main(sys.argv[1])
