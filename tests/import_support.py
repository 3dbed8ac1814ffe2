"""What a package's source imports, read from its syntax tree: every `import` and `from ... import`
anywhere in a module (inside functions too), and the dotted paths handed to import_string and
import_module. Used by the tests that keep notifications free of games and the product free of bench."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DYNAMIC = {"import_string", "import_module", "__import__"}


def imported_modules(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, module) for each module a syntax tree imports; a relative import stays in its package."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
        elif isinstance(node, ast.Call) and _called(node) in DYNAMIC and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield node.lineno, first.value


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def imports_of(package: str, forbidden: str) -> list[str]:
    """Where a module under ROOT/package imports `forbidden` or one of its modules: "path:line module"."""
    found = []
    paths = sorted((ROOT / package).rglob("*.py"))
    assert paths, f"no Python module under {package}/"
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module in imported_modules(tree):
            if module == forbidden or module.startswith(forbidden + "."):
                found.append(f"{path.relative_to(ROOT)}:{line} {module}")
    return found
