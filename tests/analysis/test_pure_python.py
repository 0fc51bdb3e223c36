"""The analysis package is pure Python: the standard library and its own modules, no Django."""

import ast
import sys
from pathlib import Path

import portal.analysis

PACKAGE = Path(portal.analysis.__file__).parent


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            # A relative import ("from .stats import ...") is one of the package's own modules.
            yield node.module if node.level == 0 else f"portal.analysis.{node.module or ''}"


def test_analysis_modules_import_only_the_standard_library_and_each_other():
    foreign = {
        (path.name, module)
        for path in PACKAGE.glob("*.py")
        for module in imported_modules(path)
        if not module.startswith("portal.analysis") and module.split(".")[0] not in sys.stdlib_module_names
    }
    assert foreign == set()
    assert len(list(PACKAGE.glob("*.py"))) >= 7
