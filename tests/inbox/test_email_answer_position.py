"""The answer to an email order tells the position after it (docs/email-orders.md, "What comes back").

Its Reply-To orders on the game as it stands after the order, so it carries what the turn email
would: the player's own holdings (H-SCREEN), and when they owe the next order the reply that gives
it: an action round's example (H-YEAR), a tile choice's words (S-EXP-CHOICE), a sealed winter
order's screen, winter cards and example (H-WINTER-ORDERS). Players of a 3-player game (Ana in
English, Tom in German) reply to the emails they received, through the real inbound webhook.
"""

from __future__ import annotations

import re

import pytest

from games.reading.situation import load_game
from tests.inbox.support import (  # noqa: F401  (autouse)
    ANA,
    SAM,
    SEALED,
    TOM,
    accepted,
    first_expansion,
    game_of,
    inbound_settings,
    offer_email,
    position,
    postmark,
)

ORDER_HINT = ("Or reply to this email with your order", "Oder antworte auf diese E-Mail mit deinem Befehl")


@pytest.mark.django_db
def test_h_screen_the_answer_to_an_accepted_offer_tells_the_holdings_after_the_trade(client, monkeypatch):
    """H-TRADE, H-SCREEN: Tom accepts Ana's offer while on turn; his answer says what he holds after
    the trade, what orders cost and the order reply, and a reply to the answer itself orders."""
    game, table = game_of(client, monkeypatch, [ANA, SAM, TOM], "mailplay3")
    assert accepted(table.reply("sparta", "pass"))
    assert accepted(table.reply("thebes", "passen"))
    answer = table.reply("athens", "offer thebes 1 fp for 1 ap")
    # Ana is not on turn after her offer: her position, but no example of an order to give now.
    assert "You have " in answer and "Your Poleis and units: C3 Athens: " in answer, answer
    assert not any(hint in answer for hint in ORDER_HINT) and "Costs: " not in answer
    assert accepted(table.reply("sparta", "pass"))
    before = position(table.latest("thebes").body)  # Tom's turn email, round 2
    answer = table.reply("thebes", "annehmen 1", to=offer_email(table, "thebes"))
    assert "Theben hat das Handelsangebot Nr. 1 von Athen angenommen." in answer, answer
    after = position(answer)
    assert (after["ap"], after["fp"]) == (before["ap"] - 1, before["fp"] + 1), answer
    assert after["poleis"] == before["poleis"] and "Staatsform: " in answer
    assert "Kosten: Rekrutieren " in answer and "Du kannst expandieren nach: " in answer
    assert "Zeile, z. B. passen, rekrutieren G7 1 oder befestigen G7." in answer, answer
    assert table.latest("thebes").body == answer  # the latest email with an order's Reply-To
    assert accepted(table.reply("thebes", "passen"))


@pytest.mark.django_db
def test_s_exp_choice_the_answer_to_an_expansion_with_a_choice_tells_the_position_and_the_choice_reply(
    client, monkeypatch
):
    game, table = game_of(client, monkeypatch, [ANA, SAM, TOM], "mailplay3")
    space = first_expansion(table, "sparta")
    answer = table.reply("sparta", f"expand {space} from the deck, choice deck")
    assert accepted(answer) and "You have " in answer, answer
    hint = re.search(r"Or reply to this email with keep (\S+), keep (\S+) or keep neither", answer)
    assert hint, answer
    assert answer.count("Or reply to this email") == 1  # the choice's words, not an action's example too
    assert accepted(table.reply("sparta", f"keep {hint[1]}"))


@pytest.mark.django_db
def test_h_winter_orders_the_answer_to_the_years_last_order_carries_the_sealed_order_aids(
    client, monkeypatch
):
    """The player who gives the year's last order gets the sealed winter email, then the answer: the
    answer, the latest email, tells the screen, the winter cards and the sealed order's example as
    the sealed email does, and a sealed order replied to it is accepted."""
    game, table = game_of(client, monkeypatch, [ANA, SAM, TOM], "mailplay3")
    for _ in range(40):
        (faction,) = table.on_turn()
        answer = table.reply(faction, "passen" if faction == "thebes" else "pass")
        assert accepted(answer), answer
        if load_game(game).state.phase == "winter_orders":
            break
    else:
        raise AssertionError("no scoring winter was reached")
    german = faction == "thebes"
    (sealed_email,) = [m.body for m in table.inbox(faction) if any(s in m.subject for s in SEALED)]
    screen = re.search(r"(?:Behind your screen|Hinter deinem Sichtschirm): [^\n]+", sealed_email)[0]
    assert screen in answer, answer
    cards = re.search(r"(?:Your winter Mission Cards|Deine Winter-Auftragskarten): [^\n]+", sealed_email)
    assert cards is None or cards[0] in answer, answer
    example = "einsetzen eule 2 blanko 1" if german else "e.g. commit owl 2 blanks 1"
    assert example in answer, answer
    assert table.latest(faction).body == answer
    assert accepted(table.reply(faction, "einsetzen nichts" if german else "commit nothing"))
    assert faction in load_game(game).state.winter_orders  # sealed from the answer's Reply-To
