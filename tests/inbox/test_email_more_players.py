"""Games of 3 and 4 players played by email replies only (docs/email-orders.md).

Ana (Athens, English), Sam (Sparta, English), Tom (Thebes, German) and, in the 4-player game, Cleo
(Corinth, English) reply to the emails they actually received, through the real inbound webhook
(tests/inbox/test_email_whole_game.py's Table), from the welcome to the end email. What only shows with
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

from games.models import Game
from games.services.game_setup import PlayerSpec
from games.words.narration import describe
from tests.inbox.support import (
    ANA,
    SAM,
    SEALED,
    TOM,
    Table,
    accepted,
    first_expansion,
    game_of,
    inbound_settings,  # noqa: F401  (autouse)
    offer_email,
)

CLEO = PlayerSpec("Cleo", "cleo@example.com", "corinth", "en")
# The coin designs as the emails print them -> the words of a reply, in English and German.
# A count above one is in the plural ("2 owls", "2 Eulen"), and a reply may copy it as the email wrote it.
DESIGNS = {"owl": "owl", "pegasus": "pegasus", "shield": "shield", "turtle": "turtle"}
DESIGNS |= {"owls": "owls", "pegasi": "pegasi", "shields": "shields", "turtles": "turtles"}
DESIGNS_DE = {"Eule": "eule", "Pegasus": "pegasus", "Schild": "schild", "Schildkröte": "schildkroete"}
DESIGNS_DE |= {"Eulen": "Eulen", "Pegasi": "Pegasi", "Schilde": "Schilde", "Schildkröten": "Schildkröten"}
NO_TERMS = ("multiplier", "multiplikator", "second-coin-scoring", "zweite-muenz-wertung")


def screen_words(body: str, german: bool) -> list[tuple[str, int]]:
    """The coins behind the screen as a sealed winter email states them, as (reply word, count)."""
    found = re.search(r"(?:Behind your screen|Hinter deinem Sichtschirm): ([^;]+);", body)
    assert found, body
    names = DESIGNS_DE if german else DESIGNS
    return [(names[design], int(n)) for n, design in re.findall(r"(\d+) (\w+)", found[1])]


def sealed_order(body: str, german: bool) -> str:
    """H-WINTER-ORDERS: every coin the email says is behind the screen, and a winter card of the hand
    that needs no coins, by the words the email gives for it ("Coin multiplier (card multiplier)")."""
    coins = " ".join(f"{word} {n}" for word, n in screen_words(body, german))
    cards = [words for _k, words in re.findall(r"\((card|karte) ([^)]+)\)", body) if words in NO_TERMS]
    card = f" {'karte' if german else 'card'} {cards[0]}" if cards else ""
    return f"{'einsetzen' if german else 'commit'} {coins}{card}".replace("  ", " ")


def play_to_the_end(table: Table, rankings: list[str]) -> None:
    """Pass in the action rounds and seal every coin (with a card) in each scoring winter; the
    answers' ranking lines are collected in `rankings`."""
    game = table.game
    for _ in range(300):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            return
        for faction in table.on_turn():
            german = faction == "thebes"
            email, to = table.latest(faction).body, None
            if "scoring winter" in email or "Wertungswinter" in email:
                # The sealed winter email (the answer to the year's last order may come after it).
                to = [m for m in table.inbox(faction) if any(w in m.subject for w in SEALED)][-1]
                email, line = to.body, sealed_order(to.body, german)
            else:
                line = "passen" if german else "pass"
            answer = table.reply(faction, line, to=to)
            assert accepted(answer), (line, email, answer)
            rankings += re.findall(r"- ((?:Coins|Poleis|Mint) ranking: [^\n]+)", answer)
    raise AssertionError("the game did not end")


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
def test_h_setup_the_welcome_names_the_players_in_the_seat_order_drawn_at_the_start(client, monkeypatch):
    """The welcome listed the players in the order their seats were created (Ana, Sam, Tom); the
    seat order drawn at the start (H-SETUP), which every round follows (H-YEAR), was told only by
    the first turn email's happenings. Now the welcome names it, first player first."""
    game, table = game_of(client, monkeypatch, [ANA, SAM, TOM], "mailplay3")
    assert [s.faction for s in game.seats.order_by("pk")] == ["athens", "sparta", "thebes"]
    (welcome,) = [m for m in table.inbox("athens") if "You play Athens" in m.subject]
    assert (
        "Seat order (drawn at the start, the same in every round):"
        " 1. Sam (Sparta), 2. Tom (Thebes), 3. Ana (Athens)."
    ) in welcome.body
    assert "1. Sam (Sparta), 2. Tom (Thebes), 3. Ana (Athens)." in welcome.alternatives[0][0]
    (willkommen,) = [m for m in table.inbox("thebes") if "Du spielst Theben" in m.subject]
    assert (
        "Spielreihenfolge (zu Beginn ausgelost, in jeder Runde dieselbe):"
        " 1. Sam (Sparta), 2. Tom (Theben), 3. Ana (Athen)."
    ) in willkommen.body


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
        assert describe("NeutralTraded", traded, "athens", game=None).endswith("0 AP, 2 FP, 1 Blank.")
        assert "Athens committed 1 owl and 1 Blank." in describe(
            "WinterOrdersRevealed", revealed, None, game=None
        )
    with translation.override("de"):
        assert describe("NeutralTraded", traded, "athens", game=None).endswith("0 AP, 2 FP, 1 Leermünze.")
        assert "Athen hat 1 Eule und 1 Leermünze eingesetzt." in describe(
            "WinterOrdersRevealed", revealed, None, game=None
        )


def test_h_end_a_tie_on_vp_says_what_decided_it():
    standings = [
        {"player": "thebes", "vp": 18, "poleis": 1, "coins": 15},
        {"player": "sparta", "vp": 18, "poleis": 1, "coins": 5},
        {"player": "athens", "vp": 12, "poleis": 2, "coins": 1},
    ]
    ended = {"winners": ["thebes"], "standings": standings, "seed": "s"}
    with translation.override("en"):
        assert describe("GameEnded", ended, None, game=None) == (
            "The game ended. Winner: Thebes. Tied on VP, decided by Poleis controlled, then coins behind"
            " the screen: Thebes 1 Polis, 15 coins; Sparta 1 Polis, 5 coins."
        )
        clear = {"winners": ["thebes"], "standings": standings[:1] + standings[2:], "seed": "s"}
        assert describe("GameEnded", clear, None, game=None) == "The game ended. Winner: Thebes."
    with translation.override("de"):
        assert "Gleichstand bei den VP" in describe("GameEnded", ended, None, game=None)
        assert "Theben 1 Polis, 15 Münzen; Sparta 1 Polis, 5 Münzen." in describe(
            "GameEnded", ended, None, game=None
        )


@pytest.mark.slow
@pytest.mark.django_db
def test_a_three_player_game_with_trade_oracle_and_winter_cards_is_played_to_its_end_by_email(
    client, monkeypatch
):
    game, table = game_of(client, monkeypatch, [ANA, SAM, TOM], "mailplay3")
    # 431 BC, round 1 (seat order Sparta, Thebes, Athens): Sam expands with a trade link to a space
    # his email offers; Tom offers Ana a coin of his screen; Ana accepts from the offer email.
    space = first_expansion(table, "sparta")
    answer = table.reply("sparta", f"Expand {space} from the deck, link G3")
    assert f"Sparta built a trade link between {space} and G3." in answer, answer
    turn = table.latest("thebes").body
    assert "Spielreihenfolge: Sparta, Theben, Athen." in turn
    coin = re.search(r"hinter deinem Sichtschirm: 1 (\w+)", turn)[1]
    assert accepted(table.reply("thebes", f"anbieten athen 1 {DESIGNS_DE[coin]} gegen 1 fp"))
    offer = offer_email(table, "athens")
    assert re.search(r"Thebes offers you a trade \(no\. 1\): they give 1 owl and ask 1 FP\.", offer.body)
    assert "Athens accepted the trade offer no. 1 of Thebes." in table.reply("athens", "accept 1", to=offer)
    assert accepted(table.reply("athens", "offer thebes 1 owl for 1 ap"))
    # Round 2: Sam trades with his neutral Polis; Tom accepts Ana's offer from its email after Sam
    # moved, then consults the Oracle; Ana pays hers with a Blank.
    assert "Sparta traded with neutral Poleis: 0 AP, 2 FP, 1 Blank." in table.reply("sparta", "trade")
    answer = table.reply("thebes", "Angebot 2 annehmen", to=offer_email(table, "thebes"))
    assert "Theben hat das Handelsangebot Nr. 2 von Athen angenommen." in answer, answer
    turn = [m.body for m in table.inbox("thebes") if "du bist am Zug" in m.subject][-1]
    screen = re.search(r"hinter deinem Sichtschirm: ([^.]+)\.", turn)[1]
    oracle = re.search(r"(\d+) (Pegasus|Pegasi|Schildkröten|Schildkröte|Eulen|Eule|Schilde|Schild)", screen)[
        2
    ]
    answer = table.reply("thebes", f"Orakel {DESIGNS_DE[oracle]}")
    assert "Du hast das Orakel befragt und die Auftragskarte" in answer, answer
    assert "You consulted the Oracle and drew the Mission Card" in table.reply("athens", "oracle blank")
    # Round 3: Sam offers Ana a trade; Ana declines it from its email after Tom moved.
    assert accepted(table.reply("sparta", "offer athens 1 ap for 1 fp"))
    assert accepted(table.reply("thebes", "passen"))
    answer = table.reply("athens", "decline 3", to=offer_email(table, "athens"))
    assert "Athens declined the trade offer no. 3 of Sparta." in answer, answer
    assert accepted(table.reply("athens", "pass"))

    rankings: list[str] = []
    play_to_the_end(table, rankings)
    # S-RANK with 3 players: 3 / 2 / 1 VP (ties share the better place); the winter cards were scored.
    coins = [line for line in rankings if line.startswith("Coins ranking: ") and "nobody" not in line]
    assert coins and all(re.fullmatch(r"Coins ranking: (\w+ \+[123] VP(, )?){3}\.", c) for c in coins), coins
    assert any("+1 VP" in line for line in coins), coins
    redeemed = [m.body for m in table.inbox("sparta") if "scored the Mission Card Coin multiplier" in m.body]
    assert redeemed
    (ended,) = [m.body for m in table.inbox("athens") if m.subject.startswith("The game has ended · ")]
    assert re.search(r"Final score: \w+ \d+ VP, \w+ \d+ VP, \w+ \d+ VP\.", ended), ended
    (ende,) = [m.body for m in table.inbox("thebes") if m.subject.startswith("Die Partie ist beendet · ")]
    assert "Endstand: " in ende and "Blanks" not in ende


@pytest.mark.slow
@pytest.mark.django_db
def test_a_four_player_game_with_a_builder_is_played_to_its_end_by_email(client, monkeypatch):
    game, table = game_of(client, monkeypatch, [ANA, SAM, CLEO, TOM], "mailplay4")
    assert accepted(table.reply("sparta", "pass"))
    assert accepted(table.reply("thebes", "passen"))
    turn = table.latest("corinth").body
    assert "recruit a Builder: the action only" in turn, turn
    assert "Corinth recruited a Builder in C7." in table.reply("corinth", "builder")
    for faction, line in (("athens", "pass"), ("sparta", "pass"), ("thebes", "passen")):
        assert accepted(table.reply(faction, line))
    # Cleo takes her Builder to the weakest neutral Polis her email names (S-BUILDER: with phalanxes).
    turn = table.latest("corinth").body
    assert "C7 Corinth: 4 phalanxes, the King, 1 Builder" in turn, turn
    near = re.findall(r"(\w\d) \w+ \(neutral, (\d) phalanx(?:es)?; (\d) from C7\)", turn)
    space = min(near, key=lambda n: int(n[1]))[0]
    answer = table.reply("corinth", f"move C7 {space} 4 builders 1")
    assert f"You conquered {space}" in answer, answer
    rankings: list[str] = []
    play_to_the_end(table, rankings)
    # S-BUILDER-FORT: the Builder fortified where it stood, every winter; the sealed winter orders of
    # four players were revealed together and ranked 3 / 2 / 1 / 0 (S-RANK).
    told = "\n".join(m.body for m in table.inbox("corinth"))
    assert f"Corinth's Builders fortified {space}." in told
    assert "Thebens Baumeister haben" not in told
    revealed = re.findall(r"The winter orders were revealed: ([^\n]+)", told)
    assert revealed and all(r.count(" committed ") == 4 for r in revealed)
    assert any(re.fullmatch(r"Coins ranking: (\w+ \+[0-3] VP(, )?){4}\.", line) for line in rankings), (
        rankings
    )
    (ended,) = [m.body for m in table.inbox("corinth") if m.subject.startswith("The game has ended · ")]
    assert re.search(r"Final score: (\w+ \d+ VP(, )?){4}\.", ended), ended
