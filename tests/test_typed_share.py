"""``python -m tests.typed_share``: what it counts, and the share each package keeps at least."""

import subprocess
import sys

from tests.samples import REPO
from tests.typed_share import shares

# The least share (%) of fully annotated public functions per package, as the command prints it;
# a package not named here is printed and not held to a share.
MINIMUM_PCT = {
    "ingest": 90,
    **{
        f"portal/{package}": 90
        for package in (
            "accounts",
            "analysis",
            "api",
            "charts",
            "comparisons",
            "curation",
            "history",
            "management",
            "models",
            "pages",
            "publishing",
            "results",
            "sizing",
            "systems",
            "teams",
            "templatetags",
            "uploads",
        )
    },
    "portal (top-level modules)": 90,
}


def _printed_shares() -> dict[str, float]:
    result = subprocess.run(
        [sys.executable, "-m", "tests.typed_share"], cwd=REPO, capture_output=True, text=True, check=True
    )
    rows = {}
    for line in result.stdout.splitlines()[1:]:
        name, _typed, _public, pct = line.rsplit(maxsplit=3)
        rows[name.strip()] = float(pct.rstrip("%"))
    return rows


def test_each_package_keeps_its_share_of_typed_public_functions():
    printed = _printed_shares()
    assert "ingest" in printed and "portal/pages" in printed
    below = {name: printed[name] for name, least in MINIMUM_PCT.items() if printed[name] < least}
    assert below == {}


def _package(root, files):
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_public_functions_are_counted_typed_only_with_every_parameter_and_the_return(tmp_path):
    _package(
        tmp_path,
        {
            "ingest/__init__.py": "",
            "ingest/a.py": (
                "def typed(x: int, *rest: int, key: str = '', **more: str) -> int: ...\n"
                "def no_return(x: int): ...\n"
                "def one_bare(x: int, y) -> None: ...\n"
                "def bare_rest(*rest) -> None: ...\n"
                "def _private(x): ...\n"
                "class Reader:\n"
                "    def __init__(self, x): ...\n"
                "    def read(self, size: int) -> str: ...\n"
                "    @staticmethod\n"
                "    def make(text) -> 'Reader': ...\n"
                "    @classmethod\n"
                "    def of(cls, text: str) -> 'Reader': ...\n"
                "    class Inner:\n"
                "        def go(self) -> None: ...\n"
                "class _Hidden:\n"
                "    def shown(self, x): ...\n"
                "def outer() -> None:\n"
                "    def inner(x): ...\n"
            ),
            "portal/__init__.py": "",
            "portal/settings.py": "def top(x: int) -> int: ...\n",
            "portal/teams/__init__.py": "",
            "portal/teams/services.py": "def team_create(*, name) -> None: ...\n",
            "portal/migrations/__init__.py": "",
            "portal/migrations/0001.py": "def forwards(apps, schema_editor): ...\n",
        },
    )
    # ingest: typed, read, of, Inner.go, outer are typed; no_return, one_bare, bare_rest, make are not.
    assert [(s.package, s.typed, s.public) for s in shares(tmp_path)] == [
        ("ingest", 5, 9),
        ("portal/teams", 0, 1),
        ("portal (top-level modules)", 1, 1),
    ]
