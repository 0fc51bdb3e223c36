"""The portal stays readable: no module of ``portal/`` (migrations excepted, which are history) is over 400
lines; one that grows past it is split by what it does, as ``portal/publishing`` splits its formats and its
LaTeX."""

from tests.samples import REPO

PORTAL = REPO / "portal"
MAX_MODULE_LINES = 400


def test_no_portal_module_is_over_400_lines():
    lengths = {
        str(path.relative_to(REPO)): len(path.read_text().splitlines())
        for path in sorted(PORTAL.rglob("*.py"))
        if "migrations" not in path.relative_to(PORTAL).parts
    }
    long = {path: n for path, n in lengths.items() if n > MAX_MODULE_LINES}
    assert long == {}, f"over {MAX_MODULE_LINES} lines, split by what they do: {long}"
