"""The web layers import downward only: pages, exports and the API share the charts, forms and selectors
they all need from the domain packages, and none of the three imports another one that imports it back."""

import ast
from itertools import permutations

from tests.samples import REPO

LAYERS = ("pages", "exports", "api")


def _imported_packages(package: str) -> set[str]:
    """The ``portal.<name>`` packages the modules of ``portal/<package>/`` import (at any depth of a module)."""
    found: set[str] = set()
    for path in (REPO / "portal" / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] == "portal" and len(parts) > 1:
                    found.add(parts[1])
                if name == "portal" and isinstance(node, ast.ImportFrom):
                    found.update(alias.name for alias in node.names)
    return found - {package}


def test_pages_exports_and_the_api_import_each_other_one_way_at_most():
    imports = {layer: _imported_packages(layer) for layer in LAYERS}
    both_ways = [(a, b) for a, b in permutations(LAYERS, 2) if a < b and b in imports[a] and a in imports[b]]
    assert both_ways == []


def test_neither_exports_nor_the_api_import_the_pages():
    # The pages are the top: what an export or the API draws or reads is in a package the pages import too.
    assert "pages" not in _imported_packages("exports")
    assert "pages" not in _imported_packages("api")


def _imports(path) -> list[str]:
    """The modules ``path`` imports, by their full names (``from portal.x import views`` names ``portal.x.views``)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return names


def test_the_api_imports_no_view_module_of_another_package():
    # What the API shares with the pages and exports (table parameters, upload limits) lives in modules both
    # import: a view module is the top of its own package.
    found = {
        f"{path.relative_to(REPO)}: {name}"
        for path in (REPO / "portal" / "api").rglob("*.py")
        for name in _imports(path)
        if name.startswith("portal.") and not name.startswith("portal.api.") and name.split(".")[-1] == "views"
    }
    assert found == set()


def test_the_pages_hold_no_sql():
    # The pages read through the domain packages' selectors; SQL written by hand lives beside its package.
    raw = ("connection.cursor", "RawSQL", ".raw(")
    found = {
        f"{path.relative_to(REPO)}: {marker}"
        for path in (REPO / "portal" / "pages").rglob("*.py")
        for marker in raw
        if marker in path.read_text()
    }
    assert found == set()
