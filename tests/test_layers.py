"""Each package of ``portal/`` imports only the packages under it. ``LAYERS`` names every package and top-level
module from the bottom (what the project runs on) to the top (where a request or a command comes in), so two
packages never import each other and a new piece's place is read from its neighbours. Every import counts:
at any depth of a module (inside a function too), relative ones, and the URLconfs an ``include()`` names."""

import ast
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

from tests.samples import REPO

PORTAL = REPO / "portal"

LAYERS = (
    # What the project runs on: settings, the app, the Celery app, the SQL the migrations install.
    "embedded",
    "settings",
    "settings_typecheck",
    "apps",
    "celery",
    "csp",
    "staticfiles",
    "sql",
    # Foundations: the one application error, the analysis maths (pure Python), CSV safe for spreadsheets.
    "errors",
    "analysis",
    "spreadsheets",
    # The schema (every model), the words and units figures are written with, the page of a missing service.
    "models",
    "formatting",
    "unavailable",
    # Domains, each with its services (write) and selectors (read): who may read what comes first.
    "teams",
    "systems",
    "results",
    "curation",
    "forms",
    "comparisons",
    "sizing",
    "charts",
    # Each tool's portal side (its run view, charts and table presets): the pages and the exports read it.
    "tools",
    "history",
    "uploads",
    "catalogue",
    # Pages, files and endpoints: what people and other programs read and send.
    "accounts",
    "publishing",
    "pages",
    "docs",
    "templatetags",
    "api",
    # Entry points: Celery tasks, the health check, the admin, the commands, the URLconf, WSGI.
    "tasks",
    "health",
    "views",
    "admin",
    "management",
    "urls",
    "wsgi",
)


def _package_of(path: Path) -> str:
    """``results`` for ``portal/results/selectors.py``, ``charts`` for ``portal/charts.py``."""
    return path.relative_to(PORTAL).parts[0].removesuffix(".py")


def _modules() -> Iterator[Path]:
    # portal/__init__.py loads the Celery app (as Celery's Django guide asks); migrations are history.
    for path in sorted(PORTAL.rglob("*.py")):
        if path != PORTAL / "__init__.py" and "migrations" not in path.relative_to(PORTAL).parts:
            yield path


def _imported(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, dotted name)`` of what ``path`` imports, relative imports made absolute (``from portal.x import
    y`` names both ``portal.x`` and ``portal.x.y``); an ``include()`` of a URLconf by name counts as an import."""
    package = ["portal", *path.relative_to(PORTAL).parts[:-1]]
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            yield node.lineno, module
            yield from ((node.lineno, f"{module}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.Call) and (urlconf := _included(node)) is not None:
            yield node.lineno, urlconf


def _included(node: ast.Call) -> str | None:
    """The URLconf ``include("portal.x.urls")`` names, None for any other call."""
    if not (isinstance(node.func, ast.Name) and node.func.id == "include"):
        return None
    named = node.args[0] if node.args else None
    return named.value if isinstance(named, ast.Constant) and isinstance(named.value, str) else None


def _imports_across() -> list[tuple[str, str, str]]:
    """``(importing package, imported package, "portal/x/y.py:12: from portal.z.w import v")``, once per import
    statement of one portal package by another."""
    found = set()
    for path in _modules():
        mine, lines = _package_of(path), path.read_text().splitlines()
        for line, name in _imported(path):
            parts = name.split(".")
            other = parts[1] if parts[0] == "portal" and len(parts) > 1 else mine
            if other != mine and ((PORTAL / other).is_dir() or (PORTAL / f"{other}.py").is_file()):
                found.add((mine, other, f"{path.relative_to(REPO)}:{line}: {lines[line - 1].strip()}"))
    return sorted(found)


def test_every_package_has_its_place_in_the_layers():
    packages = {_package_of(path) for path in _modules()}
    assert len(LAYERS) == len(set(LAYERS)), "a package is named twice in LAYERS"
    assert sorted(packages - set(LAYERS)) == [], "put these packages in LAYERS, above every package they import"
    assert sorted(set(LAYERS) - packages) == [], "LAYERS names packages portal/ no longer has"


def test_each_package_imports_only_packages_under_it():
    rank = {name: position for position, name in enumerate(LAYERS)}
    upward = sorted(
        f"{where} ({imported} is above {mine} in LAYERS)"
        for mine, imported, where in _imports_across()
        if mine in rank and imported in rank and rank[imported] > rank[mine]
    )
    assert upward == [], "\n".join(upward)


def test_no_two_packages_import_each_other():
    imports: dict[tuple[str, str], list[str]] = {}
    for mine, imported, where in _imports_across():
        imports.setdefault((mine, imported), []).append(where)
    both_ways = [
        f"{a} and {b}: {imports[a, b][0]}; {imports[b, a][0]}"
        for a, b in combinations(sorted({package for pair in imports for package in pair}), 2)
        if (a, b) in imports and (b, a) in imports
    ]
    assert both_ways == [], "\n".join(both_ways)


def test_neither_publishing_nor_the_api_import_the_pages():
    # The pages are the top of what a browser reads: what a file or the API draws or reads is in a package
    # the pages import too.
    found = [
        where for mine, imported, where in _imports_across() if imported == "pages" and mine in ("publishing", "api")
    ]
    assert found == []


def test_the_api_imports_no_view_module_of_another_package():
    # What the API shares with the pages and the exports (table parameters, upload limits) lives in modules
    # both import: a view module is the top of its own package.
    found = sorted(
        where
        for path in (PORTAL / "api").rglob("*.py")
        for line, name in _imported(path)
        if name.startswith("portal.") and not name.startswith("portal.api.") and name.split(".")[-1].endswith("views")
        for where in [f"{path.relative_to(REPO)}:{line} imports {name}"]
    )
    assert found == []


def test_the_pages_hold_no_sql():
    # The pages read through the domain packages' selectors; SQL written by hand lives beside its package.
    raw = ("connection.cursor", "RawSQL", ".raw(")
    found = {
        f"{path.relative_to(REPO)}: {marker}"
        for path in (PORTAL / "pages").rglob("*.py")
        for marker in raw
        if marker in path.read_text()
    }
    assert found == set()
