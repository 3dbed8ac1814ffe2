"""What happened, shown where a player meets it: a battle's every round with its dice on the page,
in the history and in the turn email actually sent (S-COMBAT, S-FORT, H-HEROES), and a scored
winter as a table with the standings (S-WINTER, S-RANK), in English and German."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from games.engine import Destination, Move
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from notifications.services import deliver_outbox
from tests.browser.support import SCENARIO
from tests.order_loop_support import score_first_winter, seats_to_act

pytestmark = pytest.mark.django_db


def game_of(language: str, **kwargs):
    players = [
        PlayerSpec("Ana", "ana@example.com", "athens", language=language),
        PlayerSpec("Ben", "ben@example.com", "sparta", language=language),
    ]
    return create_game(players, name="Dice", **kwargs)


def attack_e5(game) -> None:
    """Athens sends 4 phalanxes from C3 against the neutral garrison of E5: a combat."""
    athens = game.seats.get(faction="athens")
    move = Move("athens", origin="C3", destinations=(Destination("E5", 4),))
    submit_order(game, athens, move, load_game(game).seq)


def page_of(client, seat, path: str = "") -> str:
    url = reverse("games:play", args=[seat.game_id, link_token(seat)]) + path
    return client.get(url).content.decode()


@pytest.mark.parametrize("language", ["en", "de"])
def test_s_combat_every_round_and_its_dice_are_on_the_page_the_history_and_the_email(
    client, language
) -> None:
    game = game_of(language, scenario=SCENARIO)
    mail.outbox.clear()
    attack_e5(game)
    sparta = game.seats.get(faction="sparta")
    rolled = "rolled" if language == "en" else "würfelte"

    page = page_of(client, sparta)
    happened = page[page.index('id="happenings"') :]
    assert 'class="battle"' in happened and '<svg class="die' in happened
    assert re.search(
        rf"Round 1: \w[^<]* {rolled} \d" if language == "en" else rf"Runde 1: [^<]* {rolled} \d", page
    )
    history = page_of(client, sparta, "history/?since=all")
    assert 'class="battle"' in history and '<svg class="die' in history

    deliver_outbox()
    (turn,) = [m for m in mail.outbox if m.to == ["ben@example.com"] and "Sparta:" in m.subject]
    subject = "Sparta: your turn — 431 BC, round 1 of 3 · Dice"
    if language == "de":
        subject = "Sparta: du bist am Zug — 431 v. Chr., Runde 1 von 3 · Dice"
    assert turn.subject == subject
    html, _ = turn.alternatives[0]
    assert re.search(rf"(Round|Runde) 1: [^\n]* {rolled} \d", turn.body)
    assert re.search(r"[⚀⚁⚂⚃⚄⚅]", html) and f" {rolled} " in html


@pytest.mark.parametrize("language", ["en", "de"])
def test_s_winter_the_reveal_is_a_scoreboard_and_the_standings_are_one_tap_away(client, language) -> None:
    game = game_of(language)
    score_first_winter(game)
    state = load_game(game).state
    first = seats_to_act(game)[0]
    title = "Winter of 430 BC: the scoring" if language == "en" else "Winter 430 v. Chr.: die Wertung"
    total = "Total VP" if language == "en" else "VP gesamt"

    page = page_of(client, first)
    assert 'id="standings"' in page and ("Standings" if language == "en" else "Spielstand") in page
    happened = page[page.index('id="happenings"') : page.index('id="history-link"')]
    assert title in happened and total in happened
    # The table, not the sentences: no "Poleis ranking: …" ("Rangfolge der Poleis: …") line beside
    # it. (Not "Wertung:": the Mission Cards below, dealt at random, may be named "Extra-Wertung: …".)
    assert "ranking:" not in happened and "Rangfolge der " not in happened
    for faction, player in state.players.items():
        assert re.search(rf"<strong>{player.vp}</strong>", happened), (faction, player.vp)
    history = page_of(client, first, "history/?since=all")
    assert 'id="scoreboard"' in history and title in history

    mail.outbox.clear()
    deliver_outbox()
    turn = [m for m in mail.outbox if m.to == [first.email]][-1]  # the turn after the winter
    html, _ = turn.alternatives[0]
    assert title in turn.body and title in html and total in html
    assert ("Standings:" if language == "en" else "Spielstand:") in turn.body


def test_s_winter_the_standings_link_to_every_winters_scoring_only_once_there_is_one(client) -> None:
    """Before a scored winter the history has no scoreboard to land on, so the standings hold no link."""
    game = game_of("en")
    scores_link = '<a href="history/#scoreboard">'
    first = seats_to_act(game)[0]
    assert 'id="standings"' in page_of(client, first) and scores_link not in page_of(client, first)
    assert 'id="scoreboard"' not in page_of(client, first, "history/")
    score_first_winter(game)
    first = seats_to_act(game)[0]
    assert scores_link in page_of(client, first)
    assert 'id="scoreboard"' in page_of(client, first, "history/")
