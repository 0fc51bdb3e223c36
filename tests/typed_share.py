"""``python -m tests.typed_share``: the share of public functions with every parameter and the return annotated.

One line per package: ``ingest`` (with its formats), then each package of ``portal/`` (migrations left
out), then the modules directly in ``portal/``. A function is public when its name and the names of
the classes around it do not start with ``_`` (so ``__init__`` and other special methods are not
counted); functions inside functions are not counted. ``self`` and ``cls`` of a method need no
annotation; ``*args`` and ``**kwargs`` do.
"""

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Packages of ``portal/`` that hold no code of their own to type.
_NOT_COUNTED = {"migrations"}


@dataclass(frozen=True)
class Share:
    package: str
    typed: int
    public: int

    @property
    def pct(self) -> float:
        """Typed public functions in % of the public functions; 100 for a package with none."""
        return 100.0 * self.typed / self.public if self.public else 100.0


def packages(repo: Path = REPO) -> list[tuple[str, list[Path]]]:
    """Each package measured, as ``(name, its Python files)``, in the order printed."""
    found = [("ingest", sorted((repo / "ingest").rglob("*.py")))]
    portal = repo / "portal"
    for directory in sorted(path for path in portal.iterdir() if (path / "__init__.py").is_file()):
        if directory.name not in _NOT_COUNTED:
            found.append((f"portal/{directory.name}", sorted(directory.rglob("*.py"))))
    found.append(("portal (top-level modules)", sorted(portal.glob("*.py"))))
    return found


def public_functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The module's public functions and the public methods of its public classes, at any depth of classes."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef) and not child.name.startswith("_"):
                stack.append(child)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) and not child.name.startswith("_"):
                yield child


def fully_annotated(function: ast.FunctionDef | ast.AsyncFunctionDef, *, method: bool) -> bool:
    """Whether the return and every parameter (but a method's ``self`` or ``cls``) are annotated."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list)
    if method and not static and positional:
        positional = positional[1:]
    parameters = [*positional, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return function.returns is not None and all(p.annotation is not None for p in parameters if p is not None)


def share(name: str, files: list[Path]) -> Share:
    typed = public = 0
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        methods = {id(item) for node in ast.walk(tree) if isinstance(node, ast.ClassDef) for item in node.body}
        for function in public_functions(tree):
            public += 1
            typed += fully_annotated(function, method=id(function) in methods)
    return Share(name, typed, public)


def shares(repo: Path = REPO) -> list[Share]:
    return [share(name, files) for name, files in packages(repo)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.parse_args(argv)
    print(f"{'package':<28} {'typed':>6} {'public':>7} {'share':>7}")
    for row in shares():
        print(f"{row.package:<28} {row.typed:>6} {row.public:>7} {row.pct:>6.0f}%")


if __name__ == "__main__":
    sys.exit(main())
