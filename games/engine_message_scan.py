"""Find every RuleViolation message template in games/engine/, for gettext (docs/i18n.md).

The engine may not import Django, so its English templates carry no gettext marker that
`makemessages` could find (nor do the few the web layer raises with the engine's class).
This scan reads the source of games/engine/ and games/*.py (AST, nothing is imported):
every `RuleViolation(rule, "template", ...)` and every call of a helper that passes its own
parameter on as the template (e.g. `_bad("template", ...)`). `render_module` writes them as
`gettext_noop(...)` lines into games/engine_messages.py, which makemessages does read.
A template that is not a string literal is reported, so no message escapes the catalogue.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parent
ENGINE_DIR = GAMES_DIR / "engine"
MODULE_PATH = GAMES_DIR / "engine_messages.py"
VIOLATION = "RuleViolation"
LINE_LENGTH = 110  # ruff.toml
TEMPLATE_POSITION = 1  # RuleViolation(rule, template, **params)


@dataclass
class Scan:
    templates: dict[str, list[str]] = field(default_factory=dict)  # template -> ["movement.py:59", ...]
    problems: list[str] = field(default_factory=list)  # calls whose template is not a literal


def _callee(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _argument(node: ast.Call, position: int, keyword: str) -> ast.expr | None:
    if len(node.args) > position:
        return node.args[position]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


def _wrappers(trees: dict[str, ast.Module]) -> dict[str, int]:
    """Functions that hand one of their parameters to RuleViolation as its template: name -> position."""
    found: dict[str, int] = {}
    for tree in trees.values():
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            params = [a.arg for a in func.args.args]
            for node in ast.walk(func):
                if isinstance(node, ast.Call) and _callee(node) == VIOLATION:
                    template = _argument(node, TEMPLATE_POSITION, "message_template")
                    if isinstance(template, ast.Name) and template.id in params:
                        found[func.name] = params.index(template.id)
    return found


def scan(games_dir: Path = GAMES_DIR) -> Scan:
    """Every message template the engine (or the web layer, with the engine's class) can raise."""
    paths = sorted(games_dir.glob("engine/*.py")) + sorted(games_dir.glob("*.py"))
    trees = {str(p.relative_to(games_dir)): ast.parse(p.read_text(encoding="utf-8")) for p in paths}
    wrappers = _wrappers(trees)
    result = Scan()
    for name, tree in trees.items():
        wrapped_here = {
            node.lineno
            for func in ast.walk(tree)
            if isinstance(func, ast.FunctionDef) and func.name in wrappers
            for node in ast.walk(func)
            if isinstance(node, ast.Call)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            callee = _callee(node)
            if callee == VIOLATION:
                position, keyword = TEMPLATE_POSITION, "message_template"
            elif callee in wrappers:
                position, keyword = wrappers[callee], "message"
            else:
                continue
            template = _argument(node, position, keyword)
            where = f"{name}:{node.lineno}"
            if isinstance(template, ast.Constant) and isinstance(template.value, str):
                result.templates.setdefault(template.value, []).append(where)
            elif callee == VIOLATION and node.lineno in wrapped_here:
                continue  # the helper's own call: its callers' literals are collected instead
            else:
                result.problems.append(f"{where}: {ast.unparse(node)[:120]}")
    return result


HEADER = '''# ruff: noqa: E501
"""Every message the rules engine can refuse an order with, for gettext. GENERATED: do not edit.

Written by `python manage.py engine_messages` from games/engine/ (games/engine_message_scan.py);
tests/test_i18n_catalogue.py fails when it is out of date. The web layer translates a
RuleViolation with gettext(message_template) (games/forms.py violation_text).
"""

from django.utils.translation import gettext_noop

ENGINE_MESSAGES = (
'''


def _literal(text: str) -> str:
    """The string as `ruff format` writes it: double quotes unless that needs more escapes."""
    if '"' in text and "'" not in text:
        return repr(text)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_module(result: Scan) -> str:
    """The module's text. Comments name the files only, so moving a line changes nothing."""
    lines = [HEADER]
    for template in sorted(result.templates):
        files = sorted({place.split(":")[0] for place in result.templates[template]})
        lines.append(f"    # {', '.join(files)}\n")
        call = f"    gettext_noop({_literal(template)}),\n"
        if len(call) > LINE_LENGTH + 1:  # as ruff format wraps it
            call = f"    gettext_noop(\n        {_literal(template)}\n    ),\n"
        lines.append(call)
    lines.append(")\n")
    return "".join(lines)
