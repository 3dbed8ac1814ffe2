"""Every string players read has a German translation (issue 8).

`makemessages -l de` runs on a copy of the tree, so the committed catalogue is merged with
whatever the code says now: a new or changed string shows up untranslated (or fuzzy) and fails
here. The engine's refusals reach the catalogue through games/engine_messages.py, generated
from the engine's source; the data's names (factions, tiles, coins, governments, cards) through
the name tables the web layer looks them up in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from games.engine.data import (
    COIN_DESIGNS,
    FACTIONS,
    GOVERNMENTS,
    MISSION_CARDS,
    MONOPOLY_RESOURCES,
    RANKINGS,
    TILES,
)
from games.engine_message_scan import MODULE_PATH, render_module, scan
from games.words.board_names import COIN_NAMES, FACTION_INITIALS, TILE_NAMES
from games.words.names import COIN_WORDS, FACTION_NAMES, GOVERNMENT_NAMES, RANKING_NAMES
from games.words.trade import CARD_NAMES, CARD_TEXTS, RESOURCE_NAMES

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
# tools/ too: games/eventstore/verification.py checks draws with the stand-alone verifier's own code.
SOURCES = ("aegea_pbem", "games", "notifications", "templates", "locale", "tools", "manage.py")


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


@pytest.fixture(scope="module")
def fresh_catalogue(tmp_path_factory) -> polib.POFile:
    """The German catalogue as `makemessages -l de` makes it from the code as it is now."""
    if not shutil.which("xgettext") or not shutil.which("msgmerge"):
        pytest.fail("GNU gettext is missing: apt-get install gettext (.ci/run does it)")
    copy = tmp_path_factory.mktemp("tree")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy2(source, copy / name)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "aegea_pbem.settings", "DATABASE_URL": "sqlite://:memory:"}
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "--no-obsolete", "--add-location", "file"],
        cwd=copy,
        env=env,
        check=True,
        capture_output=True,
    )
    path = copy / "locale" / "de" / "LC_MESSAGES" / "django.po"
    check = ["msgfmt", "--check", "-o", os.devnull, str(path)]
    checked = subprocess.run(check, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr  # placeholders kept, plural forms complete
    return polib.pofile(str(path))


def test_every_player_facing_string_has_a_german_translation(fresh_catalogue):
    problems = _untranslated(fresh_catalogue)
    assert not problems, (
        "Strings without a German translation (run manage.py engine_messages and "
        "manage.py makemessages -l de --no-obsolete --add-location file, then translate in "
        f"{CATALOGUE.relative_to(ROOT)}):\n" + "\n".join(problems)
    )
    assert len(fresh_catalogue) > 500


def test_the_committed_catalogue_is_complete_on_its_own():
    po = polib.pofile(str(CATALOGUE))
    assert po.metadata["Language"] == "de"
    assert not _untranslated(po)


def test_engine_messages_module_is_up_to_date():
    """games/engine_messages.py lists every RuleViolation template the engine can raise."""
    result = scan()
    assert not result.problems, "RuleViolation templates must be string literals"
    assert MODULE_PATH.read_text(encoding="utf-8") == render_module(result), (
        "games/engine_messages.py is out of date: run manage.py engine_messages"
    )
    assert "This move costs %(cost)d FP, but you have only %(fp)d FP." in result.templates


def test_engine_messages_are_in_the_catalogue(fresh_catalogue):
    msgids = {entry.msgid for entry in fresh_catalogue}
    assert set(scan().templates) <= msgids


def test_every_name_in_the_data_has_words():
    """Faction, tile, coin, government, ranking and Mission Card names all go through gettext."""
    assert set(FACTIONS) <= set(FACTION_NAMES) and set(FACTIONS) <= set(FACTION_INITIALS)
    assert set(TILES) <= set(TILE_NAMES)
    assert set(COIN_DESIGNS) <= set(COIN_NAMES) and set(COIN_DESIGNS) <= set(COIN_WORDS)
    assert set(GOVERNMENTS) <= set(GOVERNMENT_NAMES)
    assert set(RANKINGS) <= set(RANKING_NAMES)
    assert {card.kind for card in MISSION_CARDS.values()} <= set(CARD_TEXTS) & set(CARD_NAMES)
    assert set(MONOPOLY_RESOURCES) <= set(RESOURCE_NAMES)
