"""Words a new user's walk through a game found wrong, in both languages (docs/i18n.md).

German glued "zu" to a government's name ("Staatsform zu Tyrannis wechseln"): each government is now
named in a whole phrase per language, so German can say "zur Tyrannis". A drawn tile printing one
coin read "Kos: 1 AP, 0 FP, 1 Münzen im Jahr": the count now picks its plural. Deadlines read
"2026-12-05 19:17 (UTC)" in both languages: now each language's own date, the zone still named.
Among the German order buttons, verbs all ("Passen", "Bewegen", "Befestigen"), stood two nouns,
"Reform" and "Orakel": they are "Reformieren" and "Orakel befragen" now, in the forms, the costs and
the history's lines alike.
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.engine import Reform
from games.engine.data import TILES
from games.web.forms.kinds import FORM_BY_KIND
from games.words.clock import zone_time
from games.words.events import GAME_TELLERS
from games.words.names import GOVERNMENT_NAMES, ORDER_KIND_NAMES
from games.words.orders import command_label
from games.words.position import cost_line

GOVERNMENTS = ("tyranny", "oligarchy", "democracy")
GERMAN_GOVERNMENTS = {"tyranny": "Tyrannis", "oligarchy": "Oligarchie", "democracy": "Demokratie"}


@pytest.mark.parametrize("government", GOVERNMENTS)
def test_h_gov_a_reform_names_the_new_government_with_its_article_in_german(government):
    """H-GOV: the suggested Reform and the history's line about it, "zur Tyrannis" in German."""
    reformed = {"player": "sparta", "government": government}
    with translation.override("de"):
        name = GERMAN_GOVERNMENTS[government]
        assert str(GOVERNMENT_NAMES[government]) == name
        assert command_label(Reform("sparta", government=government)) == f"Reformieren: zur {name} wechseln"
        assert GAME_TELLERS["GovernmentReformed"](reformed, None) == f"Sparta ist zur {name} gewechselt."
    with translation.override("en"):
        name = str(GOVERNMENT_NAMES[government])
        assert command_label(Reform("sparta", government=government)) == (
            f"Reform: change the government to {name}"
        )
        assert GAME_TELLERS["GovernmentReformed"](reformed, None) == (
            f"Sparta changed its government to {name}."
        )


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("de", "Kos</strong>: 1 AP, 0 FP, 1 Münze bei der Ausschüttung;", "2 Münzen bei der Ausschüttung;"),
        ("en", "Kos</strong>: 1 AP, 0 FP, 1 coin at income;", "2 coins at income;"),
    ],
)
def test_h_tiles_a_drawn_tile_printing_one_coin_says_one_coin(language, one, two):
    """H-TILES, S-EXP-CHOICE: the drawn tiles' captions count their coins in each language's plural."""
    cards = [{"id": t, "name": TILES[t].name, "tile": TILES[t], "mint": ""} for t in ("kos", "delos")]
    form = SimpleNamespace(tile_cards=cards, tiles=["kos", "delos"], answers=[], prefix="choose_tile")
    with translation.override(language):
        html = render_to_string("games/_tile_choice.html", {"form": form})
    assert TILES["kos"].coins == 1 and TILES["delos"].coins == 2
    assert one in html and two in html


@pytest.mark.parametrize(
    ("language", "athens", "sparta"),
    [
        (
            "en",
            "expand 0 FP, with a trade link +1 FP;",
            "expand 0 FP, with a tile choice +1 FP, with a trade link +1 FP;",
        ),
        (
            "de",
            "Expandieren 0 FP, mit Handelsstraße +1 FP;",
            "Expandieren 0 FP, mit Auswahl +1 FP, mit Handelsstraße +1 FP;",
        ),
    ],
)
def test_h_faction_the_costs_leave_out_an_upgrade_that_costs_nothing(language, athens, sparta):
    """S-EXP-CHOICE, H-FACTION: Athens' tile choice costs 0 FP; the costs said "mit Auswahl +0 FP"."""
    with translation.override(language):
        assert athens in cost_line("athens") and "+0" not in cost_line("athens")
        assert sparta in cost_line("sparta")


@pytest.mark.parametrize(
    ("language", "winter", "summer"),
    [
        ("de", "5.12.2026, 19:17 (UTC)", "1.7.2027, 09:05 (Europe/Berlin)"),
        ("en", "5 Dec 2026, 19:17 (UTC)", "1 Jul 2027, 09:05 (Europe/Berlin)"),
    ],
)
def test_a_deadline_reads_as_a_date_of_the_readers_language_with_its_zone(language, winter, summer):
    """docs/long-games.md: a deadline on the reader's clock, written as their language writes a date."""
    with translation.override(language):
        assert zone_time(datetime(2026, 12, 5, 19, 17, tzinfo=UTC), zoneinfo.ZoneInfo("UTC")) == winter
        assert zone_time(datetime(2027, 7, 1, 7, 5, tzinfo=UTC), zoneinfo.ZoneInfo("Europe/Berlin")) == summer


@pytest.mark.parametrize(
    ("language", "faction", "welcome", "ended"),
    [
        ("en", "Athens", "You play Athens · Demo", "The game has ended · Demo"),
        ("de", "Athen", "Du spielst Athen · Demo", "Die Partie ist beendet · Demo"),
    ],
)
def test_a_subject_says_what_first_and_the_games_name_last(language, faction, welcome, ended):
    """Subjects followed three patterns ("AEGEAPOLIS Demo: you play Sparta", "Athens: your turn —
    … · Demo", "Sparta sent you a message · Demo"): now one, what the email is about, then " · "
    and the game's name (the services' subjects are pinned by their own tests)."""
    context = {"game_name": "Demo", "faction_name": faction}
    with translation.override(language):
        assert render_to_string("emails/welcome_subject.txt", context).strip() == welcome
        assert render_to_string("emails/ended_subject.txt", context).strip() == ended


# The actions' forms (H-ACTIONS): every kind but the sealed winter order and the trades' forms.
ACTION_KINDS = (
    "pass",
    "expand",
    "move",
    "recruit",
    "fortify",
    "reform",
    "oracle",
    "recruit_builder",
    "choose_tile",
)


def test_h_actions_every_german_order_button_is_a_verb_as_its_history_names_the_order():
    """H-ACTIONS: each action's form, and the history's name of the order, in German is the verb
    (an infinitive: "Reformieren", "Orakel befragen"), as "Passen" and "Bewegen" are."""
    with translation.override("de"):
        titles = {kind: str(FORM_BY_KIND[kind].title) for kind in ACTION_KINDS}
        assert titles["reform"] == "Reformieren" and titles["oracle"] == "Orakel befragen"
        for kind, title in titles.items():
            assert title.endswith("en"), (kind, title)
            assert str(ORDER_KIND_NAMES[kind]) == title
        costs = cost_line("athens")
        assert "Reformieren: nur die Aktion" in costs and "Orakel befragen 1 Münze" in costs


@pytest.mark.parametrize(
    ("language", "without", "with_income", "quiet_winter"),
    [
        (
            "en",
            "The year 430 BC began: no income this Spring (the Poleis pay in 431, 429, 427, 425, 423 BC).",
            "The year 429 BC began.",
            "Winter of 430 BC: no scoring this winter.",
        ),
        (
            "de",
            "Das Jahr 430 v. Chr. hat begonnen: In diesem Frühjahr gibt es kein Einkommen"
            " (die Poleis zahlen 431, 429, 427, 425, 423 v. Chr.).",
            "Das Jahr 429 v. Chr. hat begonnen.",
            "Winter 430 v. Chr.: In diesem Winter wird nicht gewertet.",
        ),
    ],
)
def test_s_inc_a_year_without_income_and_a_winter_without_scoring_say_so(
    language, without, with_income, quiet_winter
):
    """S-INC, S-WINTER: 430 BC began with "The year began." and an empty purse, read as income gone
    missing, and its winter told nothing of the scoring that did not come."""
    with translation.override(language):
        assert GAME_TELLERS["YearBegan"]({"year": 430}, None) == without
        assert GAME_TELLERS["YearBegan"]({"year": 429}, None) == with_income  # its income is told after it
        assert GAME_TELLERS["WinterBegan"]({"year": 430, "scoring": False}, None) == quiet_winter
