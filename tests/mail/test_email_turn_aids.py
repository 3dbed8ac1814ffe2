"""What a turn email tells a player who orders by reply (docs/email-orders.md): what each order
costs (from the engine's data, H-FACTION), where they may expand, the Poleis near theirs, and for a
tile choice the exact reply naming the two tiles, in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.engine import data, fold, new_game
from games.engine.actions import recruit_places
from games.models import Game
from games.services.game_setup import create_game
from games.services.inbox.order_syntax import parse_order
from games.web.forms.orders import (
    ExpandForm,
    FortifyForm,
    MoveForm,
    OracleForm,
    PassForm,
    RecruitBuilderForm,
    RecruitForm,
    ReformForm,
)
from games.words.position import cost_line, order_reply
from tests.inbox.support import ACCEPTED, ANA, BEN, Table, inbound_settings, postmark  # noqa: F401


@pytest.mark.django_db
def test_the_turn_email_names_the_costs_where_to_expand_and_the_poleis_near(client, monkeypatch):
    monkeypatch.setattr(Game._meta.get_field("seed"), "_get_default", lambda: "mailplay")
    table = Table(client, create_game([ANA, BEN]))

    ana = table.latest("athens").body
    assert f"fortify {data.FORTIFY_AP} AP" in ana and f"hire Navigators {data.NAVIGATOR_AP} AP each" in ana
    assert "Costs: recruit 1 AP per phalanx; " in ana and "phalanxes per AP" not in ana  # Athens: no discount
    assert "expand 0 FP, with a trade link +1 FP;" in ana and "+0 FP" not in ana  # Athens' free choice
    assert "Builder" not in ana  # Corinth's alone
    free = re.search(r"You may expand to: ([^.]+)\.", ana)
    assert free and free[1].split(", ")[0] == "B2", ana
    near = re.search(r"Poleis near yours: ([^\n]+)\.\n", ana)
    assert near and re.search(r"E3 \w+ \(neutral, \d phalanx(es)?; 2 from C3\)", near[1]), ana
    assert "G3" not in near[1]  # Sparta, 4 spaces away: not near

    # An order written from those lines is accepted; Sparta's German email names its discount.
    answer = table.reply("athens", f"expand {free[1].split(', ')[0]} from the deck")
    assert any(a in answer for a in ACCEPTED), answer
    ben = table.latest("sparta").body
    per_ap = data.FACTIONS["sparta"].recruit_per_ap_native
    assert f"Kosten: Rekrutieren 1 AP pro Phalanx (in G3 {per_ap} Phalangen pro AP); " in ben
    assert "Befestigen 3 AP" in ben and "mit Auswahl +1 FP" in ben and "Leermünzen zahlen AP oder FP" in ben
    assert "Du kannst expandieren nach: F2, F3, F4, G2, G4, H2, H3, H4." in ben


@pytest.mark.django_db
def test_a_tile_choice_email_names_the_two_tiles_and_the_exact_reply(client, monkeypatch):
    monkeypatch.setattr(Game._meta.get_field("seed"), "_get_default", lambda: "mailplay")
    table = Table(client, create_game([ANA, BEN]))
    assert any(a in table.reply("athens", "expand C4 from the deck, choice deck") for a in ACCEPTED)
    choice = table.latest("athens").body
    hint = re.search(
        r"Or reply to this email with keep (\S+), keep (\S+) or keep neither on the first line\.", choice
    )
    assert hint, choice
    assert "e.g. pass, move C3 D4 3" not in choice
    answer = table.reply("athens", "keep neither")
    assert "Your order was accepted: keep neither" in answer, answer

    # Ben (German) expands with a choice too and keeps neither in his words.
    answer = table.reply("sparta", "Ausbreiten F3 vom Stapel, Auswahl Stapel")
    assert any(a in answer for a in ACCEPTED), answer
    wahl = table.latest("sparta").body
    named = re.search(
        r"Oder antworte auf diese E-Mail in der ersten Zeile mit "
        r"behalte (\S+), behalte (\S+) oder behalte keine\.",
        wahl,
    )
    assert named, wahl
    assert "Dein Befehl wurde angenommen" in table.reply("sparta", "behalte keine")


def test_german_puts_the_verb_of_an_answer_last():
    assert parse_order("Angebot 1 annehmen", "sparta") == parse_order("accept 1", "sparta")
    assert parse_order("Angebot Nr. 2 ablehnen", "sparta") == parse_order("decline 2", "sparta")
    assert parse_order("keep neither", "athens") == parse_order("neither", "athens")
    assert parse_order("behalte keine", "athens") == parse_order("neither", "athens")


def test_the_poleis_near_line_stays_short_in_a_crowded_mid_game():
    """Mid-game, 21 Poleis stood within 2 spaces of Athens': the line names the nearest 8 and a count."""
    import random

    from games.engine import GameRng, decide, new_game
    from games.engine.simulation import _play_batch, players_to_act, random_legal_command
    from games.engine.state import GameState
    from games.words.position import MAX_NEAR, reach_lines

    state, bot = GameState(), random.Random(3)
    events = new_game({"factions": ["athens", "sparta", "corinth", "thebes"]}, "t")
    _play_batch(state, None, None, events, 1, False, None)
    seq = len(events)
    while state.year > 426 or state.phase != "actions":
        player = bot.choice(players_to_act(state))
        new = decide(state, random_legal_command(state, player, bot), GameRng("t", seq + 1))
        _play_batch(state, player, None, new, seq + 1, False, None)
        seq += len(new)
    near = reach_lines(state, state.player_on_turn)[-1]
    assert near.startswith("Poleis near yours: ") and near.endswith(" more.")
    assert near.count(" from ") == MAX_NEAR


# What follows each order's keyword in a reply, and the German verbs the emails' syntax help teaches.
ORDER_REST = {
    "pass": "",
    "expand": "D4 stapel",
    "move": "C3 D4 3",
    "recruit": "C3 2",
    "fortify": "D4",
    "oracle": "eule",
}
# Other words for an order a reply may use: "Orakel" alone, as the emails' syntax help writes it.
VERBS = {"pass": "passe", "expand": "ausbreiten", "move": "bewegen", "oracle": "orakel"}


def test_h_actions_a_german_reply_may_name_an_order_as_the_page_and_the_costs_do_or_by_its_verb():
    """The German page and turn email name each order by its form's title (Expandieren, Bewegen,
    Reformieren, Orakel befragen…, in the costs line too); a reply in those words is read, and in the
    verbs as before."""
    forms = (PassForm, ExpandForm, MoveForm, RecruitForm, FortifyForm, ReformForm, OracleForm)
    with translation.override("de"):
        costs = cost_line("sparta")
        for form in forms:
            rest = ORDER_REST.get(form.kind, "demokratie")
            english = parse_order(f"{form.kind} {rest}", "sparta")
            assert english["kind"] == form.kind
            title = str(form.title)
            assert parse_order(f"{title} {rest}", "sparta") == english, title
            if form.kind in VERBS:
                assert parse_order(f"{VERBS[form.kind]} {rest}", "sparta") == english
            if form.kind != "pass":
                assert re.search(rf"(: |; ){title}\b", costs), (title, costs)
    assert "Bewegen 1 FP je 4 Einheiten" in costs and "Reformieren: nur die Aktion" in costs


@pytest.mark.parametrize("language", ["en", "de"])
def test_s_builder_a_reply_may_name_the_builders_order_as_its_form_and_the_costs_line_do(language):
    """The turn email's costs say "recruit a Builder: the action only" / "Baumeister rekrutieren: …",
    the form's title; a reply in those words is the Builder's order, not a Recruit missing its space."""
    with translation.override(language):
        title = str(RecruitBuilderForm.title)
        assert re.search(rf"; {title}: ", cost_line("corinth"), re.IGNORECASE)
    builder = {"player": "corinth", "kind": "recruit_builder"}
    for reply in (title, title.lower(), "builder", "baumeister"):
        assert parse_order(reply, "corinth") == builder, reply
    assert parse_order("recruit C7 2", "corinth")["kind"] == "recruit"


def test_h_native_lost_the_example_reply_recruits_where_the_king_stands():
    """The action turn's example reply names a Polis where the reader may recruit: with the Native
    Polis held by a rival, where their King stands, not the first Polis of theirs by name."""
    state = fold(new_game({"factions": ["athens", "sparta"]}, "native lost"))
    board = state.board
    board["C3"].owner, board["C3"].king = "sparta", False  # Athens' Native Polis, taken
    board["C5"].owner, board["C5"].phalanxes = "athens", 1
    board["E5"].owner, board["E5"].phalanxes, board["E5"].king = "athens", 2, True
    with translation.override("en"):
        told = order_reply(state, "athens")
    assert (
        told
        == "Or reply to this email with your order on the first line, e.g. pass, recruit E5 1 or fortify E5."
    )
    assert recruit_places(state, "athens") == ["E5"]
    board["E5"].king = False  # the King lost too: nowhere to recruit, the example is a pass
    with translation.override("en"):
        assert order_reply(state, "athens").endswith("e.g. pass.")
