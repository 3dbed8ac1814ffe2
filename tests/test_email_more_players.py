"""Games of 3 and 4 players played by email replies only (issue 6, docs/email-orders.md).

Ana (Athens, English), Sam (Sparta, English), Tom (Thebes, German) and, in the 4-player game, Cleo
(Corinth, English) reply to the emails they actually received, through the real inbound webhook
(tests/test_email_whole_game.py's Table), from the welcome to the end email. What only shows with
more players or later in a game: a trade offer answered by email after a third player has moved
(H-TRADE), the Oracle, neutral trade, a Builder (S-BUILDER, S-BUILDER-FORT), sealed winter orders
of 3 and 4 players with their winter Mission Cards (H-WINTER-ORDERS, H-MISSIONS), the rankings'
3 / 2 / 1 / 0 VP (S-RANK) and the end email's tie-break (H-END). Every order is read from the
email: the spaces it offers, the coins behind the screen, the offer's number, the card words.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.game_setup import PlayerSpec, create_game
from games.models import Game
from games.narration import describe
from tests.test_email_orders import inbound_settings  # noqa: F401  (autouse)
from tests.test_email_whole_game import ACCEPTED, Table

ANA = PlayerSpec("Ana", "ana@example.com", "athens", "en")
SAM = PlayerSpec("Sam", "sam@example.com", "sparta", "en")
TOM = PlayerSpec("Tom", "tom@example.com", "thebes", "de")
CLEO = PlayerSpec("Cleo", "cleo@example.com", "corinth", "en")


def game_of(client, monkeypatch, players: list[PlayerSpec], seed: str) -> tuple[Game, Table]:
    monkeypatch.setattr(Game._meta.get_field("seed"), "_get_default", lambda: seed)
    game = create_game(players)
    return game, Table(client, game)


def offer_email(table: Table, faction: str):
    """The latest email telling `faction` of a trade offer (English or German subject)."""
    subjects = ("offers you a trade", "bietet dir einen Handel an")
    return [m for m in table.inbox(faction) if m.subject.endswith(subjects)][-1]


def accepted(answer: str) -> bool:
    return any(a in answer for a in ACCEPTED)


@pytest.mark.django_db
def test_h_trade_an_offer_answered_by_email_after_a_third_player_moved_is_decided_now(client, monkeypatch):
    """The offer email says the answer may come before the rival's turn: with 3 players another
    player usually moves between the offer and its answer. The answer was refused as "the game has
    moved on"; now the engine decides it on the game as it stands (H-TRADE), and the same answer sent
    again is told it was given already (H-ORDER)."""
    game, table = game_of(client, monkeypatch, [ANA, SAM, TOM], "mailplay3")
    assert accepted(table.reply("sparta", "pass"))
    assert "Spielreihenfolge: Sparta, Theben, Athen." in table.latest("thebes").body
    assert accepted(table.reply("thebes", "passen"))
    assert accepted(table.reply("athens", "offer thebes 1 fp for 1 ap"))
    offer = offer_email(table, "thebes")
    assert "Athen bietet dir einen Handel an (Nr. 1): Athen gibt 1 FP und verlangt 1 AP." in offer.body
    assert "Oder antworte auf diese E-Mail mit annehmen 1 oder ablehnen 1 in der ersten Zeile." in offer.body
    assert accepted(table.reply("sparta", "pass"))  # Sparta moves before Tom reads the offer
    answer = table.reply("thebes", "Angebot 1 annehmen", to=offer)
    assert "Dein Befehl wurde angenommen: Angebot 1 annehmen" in answer, answer
    assert "Theben hat das Handelsangebot Nr. 1 von Athen angenommen." in answer
    again = table.reply("thebes", "annehmen 1", to=offer)
    assert "Diesen Befehl hast du schon gegeben" in again and "Dein Befehl wurde angenommen" not in again


@pytest.mark.django_db
def test_h_actions_the_example_reply_of_the_welcome_names_the_players_own_polis_and_is_accepted(
    client, monkeypatch
):
    """The turn emails' example "commit owl 2" was refused in every action round (H-WINTER-ORDERS);
    the example now names the reader's own Polis, in their language, and works as written."""
    game, table = game_of(client, monkeypatch, [ANA, SAM, TOM], "mailplay3")
    welcome = table.latest("sparta").body
    example = re.search(r"e\.g\. pass, (recruit G3 1) or fortify G3\.", welcome)
    assert example, welcome
    assert "Your order was accepted: recruit G3 1" in table.reply("sparta", example[1])
    turn = table.latest("thebes").body
    assert "z. B. passen, rekrutieren G7 1 oder befestigen G7." in turn and "einsetzen eule 2" not in turn


def test_s_blank_one_blank_is_told_in_the_singular_in_english_and_german():
    traded = {"player": "sparta", "ap": 0, "fp": 2, "blanks": 1}
    revealed = {"orders": {"athens": {"coins": {"owl": 1}, "blanks": 1}}}
    with translation.override("en"):
        assert describe("NeutralTraded", traded, "athens").endswith("0 AP, 2 FP, 1 Blank.")
        assert "Athens committed 1 owl and 1 Blank." in describe("WinterOrdersRevealed", revealed, None)
    with translation.override("de"):
        assert describe("NeutralTraded", traded, "athens").endswith("0 AP, 2 FP, 1 Leermünze.")
        assert "Athen hat 1 Eule und 1 Leermünze eingesetzt." in describe(
            "WinterOrdersRevealed", revealed, None
        )


def test_h_end_a_tie_on_vp_says_what_decided_it():
    standings = [
        {"player": "thebes", "vp": 18, "poleis": 1, "coins": 15},
        {"player": "sparta", "vp": 18, "poleis": 1, "coins": 5},
        {"player": "athens", "vp": 12, "poleis": 2, "coins": 1},
    ]
    ended = {"winners": ["thebes"], "standings": standings, "seed": "s"}
    with translation.override("en"):
        assert describe("GameEnded", ended, None) == (
            "The game ended. Winner: Thebes. Tied on VP, decided by Poleis controlled, then coins behind"
            " the screen: Thebes 1 Polis, 15 coins; Sparta 1 Polis, 5 coins."
        )
        clear = {"winners": ["thebes"], "standings": standings[:1] + standings[2:], "seed": "s"}
        assert describe("GameEnded", clear, None) == "The game ended. Winner: Thebes."
    with translation.override("de"):
        assert "Gleichstand bei den VP" in describe("GameEnded", ended, None)
        assert "Theben 1 Polis, 15 Münzen; Sparta 1 Polis, 5 Münzen." in describe("GameEnded", ended, None)
