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
