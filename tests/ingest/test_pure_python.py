"""The ingest package can be used from a script with no Django and no database."""

import json
import subprocess
import sys

from tests.samples import REPO


def test_importing_every_parser_loads_no_django():
    code = (
        "import sys, json, ingest, ingest.registry\n"
        "print(json.dumps([m for m in sys.modules if m == 'django' or m.startswith('django.')]))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_the_docs_format_table_lists_every_registered_format():
    from ingest.registry import FORMATS

    formats = (REPO / "docs" / "formats.md").read_text()
    for module in FORMATS.values():
        assert f"| `{module.FORMAT}` | {module.TOOL} | {module.READS} |" in formats
