"""Every string players read has a German translation (docs/i18n.md "Where the strings come from").

`makemessages -l de` runs on a copy of the tree, so the committed catalogue is merged with
whatever the code says now: a new or changed string shows up untranslated (or fuzzy) and fails
here. The engine's refusals reach the catalogue through the project's makemessages, which reads
`RuleViolation(rule, "template")` and `_bad("template")` as gettext markers (xgettext keywords);
the data's names (factions, tiles, coins, governments, cards) through the name tables the web
layer looks them up in.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

from aegea_pbem.management.commands.makemessages import ENGINE_KEYWORDS
from games.engine.data import (
    COIN_DESIGNS,
    FACTIONS,
    GOVERNMENTS,
    MISSION_CARDS,
    MONOPOLY_RESOURCES,
    RANKINGS,
    TILES,
)
from games.words.board_names import COIN_NAMES, FACTION_INITIALS, TILE_NAMES
from games.words.names import COIN_WORDS, FACTION_NAMES, GOVERNMENT_NAMES, LANGUAGE_NAMES, RANKING_NAMES
from games.words.trade import CARD_NAMES, CARD_TEXTS, RESOURCE_NAMES

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
# tools/ too: games/eventstore/verification.py checks draws with the stand-alone verifier's own code.
SOURCES = ("aegea_pbem", "games", "notifications", "templates", "locale", "tools", "manage.py")
PYTHON_PACKAGES = ("aegea_pbem", "games", "notifications", "tools")
UPDATE = "manage.py makemessages -l de --no-obsolete --add-location file"


def _untranslated(po: polib.POFile) -> list[str]:
    problems = []
    for entry in po:
        if entry.obsolete:
            continue
        where = ", ".join(sorted({path for path, _line in entry.occurrences}))
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r} ({where})")
        elif entry.msgid_plural and not all(entry.msgstr_plural.values()):
            problems.append(f"untranslated plural: {entry.msgid!r} ({where})")
        elif not entry.msgid_plural and not entry.msgstr:
            problems.append(f"untranslated: {entry.msgid!r} ({where})")
    return problems


def _copy_of_the_tree(into: Path) -> Path:
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy2(source, into / name)
    return into


def _makemessages(tree: Path) -> polib.POFile:
    """The German catalogue as the project's `makemessages -l de` makes it from `tree`."""
    if not shutil.which("xgettext") or not shutil.which("msgmerge"):
        pytest.fail("GNU gettext is missing: apt-get install gettext (.ci/run does it)")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "aegea_pbem.settings", "DATABASE_URL": "sqlite://:memory:"}
    subprocess.run([sys.executable, *UPDATE.split()], cwd=tree, env=env, check=True, capture_output=True)
    path = tree / "locale" / "de" / "LC_MESSAGES" / "django.po"
    check = ["msgfmt", "--check", "-o", os.devnull, str(path)]
    checked = subprocess.run(check, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr  # placeholders kept, plural forms complete
    return polib.pofile(str(path))


@pytest.fixture(scope="module")
def fresh_catalogue(tmp_path_factory) -> polib.POFile:
    """The German catalogue as `makemessages -l de` makes it from the code as it is now."""
    return _makemessages(_copy_of_the_tree(tmp_path_factory.mktemp("tree")))


class _Refusals(ast.NodeVisitor):
    """Every message template handed to a gettext keyword of ENGINE_KEYWORDS, read from the AST.

    xgettext finds a template only as the literal at the keyword's position; anything else (a
    variable, an f-string, a keyword argument, a new helper passing its parameter on) it skips
    without a word, so each such call is a problem here, except a keyword's own forwarding call
    (`_bad(message)` -> `RuleViolation("H-ORDER", message)`), whose callers are read instead.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        self.templates: dict[str, str] = {}  # template -> file
        self.problems: list[str] = []
        self.function: list[ast.FunctionDef | ast.AsyncFunctionDef] = []

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.function.append(node)
        self.generic_visit(node)
        self.function.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        position = ENGINE_KEYWORDS.get(name, 0) - 1
        if position >= 0:
            template = node.args[position] if len(node.args) > position else None
            inside = self.function[-1] if self.function else None
            params = [a.arg for a in inside.args.args] if inside else []
            if isinstance(template, ast.Constant) and isinstance(template.value, str):
                self.templates[template.value] = self.where
            elif not (
                isinstance(template, ast.Name) and template.id in params and inside.name in ENGINE_KEYWORDS
            ):
                self.problems.append(f"{self.where}:{node.lineno}: {ast.unparse(node)[:100]}")
        self.generic_visit(node)


def _refusals() -> _Refusals:
    found = _Refusals("")
    for package in PYTHON_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found.where = str(path.relative_to(ROOT))
            found.visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def test_every_player_facing_string_has_a_german_translation(fresh_catalogue):
    problems = _untranslated(fresh_catalogue)
    assert not problems, (
        f"Strings without a German translation (run {UPDATE}, then translate in "
        f"{CATALOGUE.relative_to(ROOT)}):\n" + "\n".join(problems)
    )
    assert len(fresh_catalogue) > 500


def test_the_committed_catalogue_is_complete_on_its_own():
    po = polib.pofile(str(CATALOGUE))
    assert po.metadata["Language"] == "de"
    assert not _untranslated(po)


def test_every_engine_refusal_is_a_literal_that_makemessages_can_read():
    found = _refusals()
    assert not found.problems, (
        "A RuleViolation template must be a string literal at its position (a helper that passes "
        "its parameter on as the template goes into ENGINE_KEYWORDS, "
        "aegea_pbem/management/commands/makemessages.py):\n" + "\n".join(found.problems)
    )
    assert "This move costs %(cost)d FP, but you have only %(fp)d FP." in found.templates
    assert "%(field)s must be a list of spaces." in found.templates  # through order_reading._bad


def test_engine_refusals_are_extracted_from_the_engine_itself(fresh_catalogue):
    """Each refusal's catalogue entry names the module that raises it: no generated list between."""
    entries = {entry.msgid: entry for entry in fresh_catalogue}
    templates = _refusals().templates
    assert len(templates) > 90
    missing = sorted(set(templates) - set(entries))
    assert not missing, "Refusals makemessages did not extract:\n" + "\n".join(missing)
    for template, where in templates.items():
        assert where in {path for path, _line in entries[template].occurrences}, (template, where)
        assert "python-format" in entries[template].flags or "%(" not in template, template


def test_a_new_engine_refusal_reaches_the_catalogue_untranslated(tmp_path):
    """What a developer meets: a refusal added to the engine is in the next makemessages, to translate."""
    tree = _copy_of_the_tree(tmp_path)
    (tree / "games" / "engine" / "probe_refusals.py").write_text(
        "from .events import RuleViolation\n"
        "from .order_reading import _bad\n\n\n"
        "def refuse(space):\n"
        '    raise RuleViolation("S-MOVE", "A probe refusal of %(space)s.", space=space)\n\n\n'
        "def refuse_reading():\n"
        '    raise _bad("A probe order that cannot be read.")\n',
        encoding="utf-8",
    )
    problems = _untranslated(_makemessages(tree))  # untranslated, or fuzzy from a near neighbour
    assert [problem.split(": ", 1)[1] for problem in problems] == [
        "'A probe refusal of %(space)s.' (games/engine/probe_refusals.py)",
        "'A probe order that cannot be read.' (games/engine/probe_refusals.py)",
    ]


def test_every_name_in_the_data_has_words():
    """Faction, tile, coin, government, ranking, Mission Card and language names all go through gettext."""
    assert set(FACTIONS) <= set(FACTION_NAMES) and set(FACTIONS) <= set(FACTION_INITIALS)
    assert set(TILES) <= set(TILE_NAMES)
    assert set(COIN_DESIGNS) <= set(COIN_NAMES) and set(COIN_DESIGNS) <= set(COIN_WORDS)
    assert set(GOVERNMENTS) <= set(GOVERNMENT_NAMES)
    assert set(RANKINGS) <= set(RANKING_NAMES)
    assert {card.kind for card in MISSION_CARDS.values()} <= set(CARD_TEXTS) & set(CARD_NAMES)
    assert set(MONOPOLY_RESOURCES) <= set(RESOURCE_NAMES)
    assert {code for code, _name in settings.LANGUAGES} <= set(LANGUAGE_NAMES)  # docs/i18n.md
