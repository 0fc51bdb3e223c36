"""The parsers stay readable: a tool with several dialects or layouts is a package with a module per
dialect or stage, no module under ``ingest/formats/`` is over 600 lines and no function over 60."""

import ast
from pathlib import Path

from ingest.registry import FORMATS
from tests.samples import REPO

FORMATS_DIR = REPO / "ingest" / "formats"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60


def modules():
    return sorted(FORMATS_DIR.rglob("*.py"))


def test_no_parser_module_is_over_600_lines():
    lengths = {str(path.relative_to(REPO)): len(path.read_text().splitlines()) for path in modules()}
    long = {path: n for path, n in lengths.items() if n > MAX_MODULE_LINES}
    assert long == {}


def test_no_parser_function_is_over_60_lines():
    long = {}
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(REPO)}:{node.lineno} {node.name}"] = length
    assert long == {}


def test_the_tools_with_several_dialects_are_packages_exporting_what_they_name():
    packages = {module.FORMAT for module in FORMATS.values() if Path(module.__file__).name == "__init__.py"}
    assert {"iometer", "fio", "diskspd", "vdbench", "elbencho", "jetstress"} <= packages
    for name in packages:
        module = FORMATS[name]
        assert {"FORMAT", "TOOL", "READS", "parse", "sniff"} <= set(module.__all__)
        assert all(hasattr(module, exported) for exported in module.__all__)
