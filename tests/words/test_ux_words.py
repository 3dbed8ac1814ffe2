"""Words a player reads on the page and in emails, found while playing on a phone (UX audit).

German readers saw "Winter 431 v. Chr.." (the year's own dot, then the sentence's), an English
reader was told "Sparta is on turn.", and in a sealed winter the player who still owed an order
was listed among the others ("Waiting for sealed winter orders from Sparta, Athens.").
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Seat
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from tests.order_loop_support import ANA, BEN, seats_to_act

pytestmark = pytest.mark.django_db

GERMAN_BROWSER = "de-DE,de;q=0.9"
ENGLISH_BROWSER = "en-GB,en;q=0.9"
WINTER = {"players": {"athens": {}, "sparta": {}}, "year": 430, "phase": "winter_orders"}


@pytest.fixture(autouse=True)
def english_after_each_test():
    yield
    translation.deactivate()


def page_url(seat: Seat) -> str:
    return reverse("games:play", args=[seat.game_id, link_token(seat)])


def pass_order(seat: Seat) -> dict[str, object]:
    return {
        "kind": "suggested",
        "expected_seq": load_game(seat.game).seq,
        "command": json.dumps({"kind": "pass"}),
    }


def status_line(client, seat: Seat, browser: str) -> str:
    page = client.get(page_url(seat), HTTP_ACCEPT_LANGUAGE=browser).content.decode()
    return page.split('id="status"', 1)[1].split("</p>", 1)[0]


def test_the_other_players_page_says_whom_the_game_waits_for(client):
    game = create_game([ANA, BEN])
    on_turn = seats_to_act(game)[0]
    other = game.seats.exclude(pk=on_turn.pk).get()
    name = on_turn.faction.capitalize()
    assert f"Waiting for {name}." in status_line(client, other, ENGLISH_BROWSER)
    assert "is on turn" not in client.get(page_url(other)).content.decode()
    assert "ist am Zug." in status_line(client, other, GERMAN_BROWSER)


def test_a_winter_without_your_sealed_order_says_it_is_yours_that_is_missing(client):
    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    game = create_game(players, scenario=WINTER)
    athens, sparta = game.seats.get(faction="athens"), game.seats.get(faction="sparta")

    english = status_line(client, athens, ENGLISH_BROWSER)
    # One other order is "that of" / "der von" (the German read "und die von Sparta", a plural).
    assert "Waiting for your sealed winter order and that of Sparta." in english
    assert "Athens" not in english
    german = status_line(client, athens, GERMAN_BROWSER)
    assert "Es fehlen noch dein versiegelter Winterbefehl und der von Sparta." in german

    # Athens seals; Sparta alone owes one now, and is told so, not named as someone else.
    seal = {"kind": "suggested", "expected_seq": load_game(game).seq}
    seal["command"] = json.dumps({"kind": "commit_coins", "coins": {}, "blanks": 0})
    assert client.post(page_url(athens), seal).status_code == 302
    assert "Only your sealed winter order is missing." in status_line(client, sparta, ENGLISH_BROWSER)
    assert "Nur dein versiegelter Winterbefehl fehlt noch." in status_line(client, sparta, GERMAN_BROWSER)
    assert "Waiting for sealed winter orders from Sparta." in status_line(client, athens, ENGLISH_BROWSER)


def test_the_winter_line_has_one_full_stop_in_german(client):
    """Six passes end 431 BC: its winter is told on the page, the history and the turn email."""
    game = create_game([ANA, BEN], language="de")
    for _ in range(6):
        seat = seats_to_act(game)[0]
        assert (
            client.post(page_url(seat), pass_order(seat), HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER).status_code
            == 302
        )
    seat = game.seats.first()
    history = client.get(page_url(seat) + "history/?since=all", HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER)
    text = history.content.decode()
    assert "Winter 431 v. Chr.: In diesem Winter wird nicht gewertet." in text
    assert "v. Chr.." not in text
    english = client.get(page_url(seat) + "history/?since=all", HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER)
    assert "Winter of 431 BC: no scoring this winter." in english.content.decode()
    assert "Action round 2: " in english.content.decode()  # a turn's start, told as the round's


def test_a_mistyped_space_is_refused_beside_its_field_in_the_readers_words(client):
    game = create_game([ANA, BEN])
    seat = seats_to_act(game)[0]
    home = _legal_moves(game, seat)[0].origin
    post = {"kind": "move", "expected_seq": load_game(game).seq, "move-origin": home.lower()}
    post |= {"move-to1": "Z9", "move-phalanxes1": "1", "move-navigators1": "0", "move-battle_order": "C3, Q1"}
    page = client.post(page_url(seat), post, HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER).content.decode()
    # The refusal sits in the field's own box, after its input: Ziel 1 and the battle order.
    to1 = page.split('for="id_move-to1"', 1)[1].split('<div class="field', 1)[0]
    assert "Gib ein Feld von A1 bis I9 an, z. B. C3." in to1
    battle = page.split('for="id_move-battle_order"', 1)[1].split('<div class="field', 1)[0]
    assert "Gib ein Feld von A1 bis I9 an, z. B. C3." in battle
    origin = page.split('for="id_move-origin"', 1)[1].split('<div class="field', 1)[0]
    assert "errorlist" not in origin  # "c3" in small letters is a space
    assert "destination muss" not in page and 'class="order-error"' not in page


def _legal_moves(game, seat):
    from games.engine import legal_commands

    return [c for c in legal_commands(load_game(game).state, seat.faction) if c.kind == "move"]
