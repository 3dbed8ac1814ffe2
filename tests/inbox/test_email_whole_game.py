"""Whole games played by email replies only (docs/email-orders.md).

Ana (London, English) and Ben (Berlin, German) play a 2-player game from the welcome email to
the end email by replying to the emails they actually received (django.core.mail.outbox), through
the real inbound webhook, as a phone would write the reply: capitals, German keywords, filler
words, a phone signature, the quoted email below a wrapped attribution, an HTML-only reply. Each
order is decided from what the email says (the position lines, the tiles offered, the coins
behind the screen, the offer's number), never from the game's state.
"""

from __future__ import annotations

import re

import pytest

from games.models import Event, Game
from games.services.game_setup import create_game
from games.services.inbox.order_syntax import parse_order, read_reply
from tests.inbox.support import ACCEPTED, ANA, BEN, Table, inbound_settings, position, postmark  # noqa: F401  (inbound_settings: autouse)

GMAIL_DE = (
    "Am Mo., 30. Nov. 2026 um 10:00 Uhr schrieb AEGEAPOLIS <\nnoreply@play.example.com>:\n\n> Hallo Ben,\n"
)
APPLE_EN = (
    "\n\nSent from my iPhone\n\nOn 30 Nov 2026, at 10:00, AEGEAPOLIS <\n"
    "noreply@play.example.com> wrote:\n\n> x\n"
)


def postmark_html(client, to: str, html: str):
    """An HTML-only reply (a phone mail app with rich text), as Postmark posts it."""
    return postmark(client, to, "", html=html)


@pytest.mark.slow
@pytest.mark.django_db
def test_a_two_player_game_played_to_its_end_by_email_in_english_and_german(client, monkeypatch):
    monkeypatch.setattr(Game._meta.get_field("seed"), "_get_default", lambda: "mailplay")
    game = create_game([ANA, BEN])
    table = Table(client, game)

    # The welcome tells the first player it is their turn, what they hold, and that a reply orders.
    welcome = table.latest("athens")
    assert "It is your turn." in welcome.body
    assert "Or reply to this email with your order on the first line" in welcome.body
    ana = position(welcome.body)
    assert ana["poleis"] == {"C3": 4} and "Your Poleis and units: C3 Athens: 4 phalanxes" in welcome.body
    ben_welcome = table.latest("sparta").body
    assert "Deine Poleis und Einheiten: G3 Sparta: 4 Phalangen, der König." in ben_welcome
    assert "Staatsform: Oligarchie" in ben_welcome

    # 431 BC, round 1. Ana recruits with her phone's signature below; Ben writes to her first.
    answer = table.reply("athens", "Recruit 2 phalanxes in C3" + APPLE_EN)
    assert "Your order was accepted: Recruit 2 phalanxes in C3" in answer
    assert "Athens recruited 2 phalanxes in C3." in answer
    turn = table.latest("sparta").body
    assert "Athen hat 2 Phalangen in C3 rekrutiert." in turn
    assert "Deine Poleis und Einheiten: G3 Sparta: 4 Phalangen" in turn
    assert table.reply("sparta", "Nachricht an Athen: Viel Glück, Ana!").startswith("Hallo Ben,")
    (note,) = [m for m in table.inbox("athens") if "Sparta sent you a message" in m.subject]
    assert "> Viel Glück, Ana!" in note.body
    answer = table.reply("athens", "Thanks, you too!" + APPLE_EN, to=note)
    assert "Your message was sent." in answer
    said = Event.objects.filter(game=game, type="MessageSent").last().payload
    assert said == {"player": "athens", "to": ["sparta"], "text": "Thanks, you too!"}
    answer = table.reply("sparta", "Rekrutieren G3 1 Phalanx\n\n" + GMAIL_DE)
    assert "Dein Befehl wurde angenommen: Rekrutieren G3 1 Phalanx" in answer

    # Round 2: Ana expands with a tile choice; the next email names the two tiles to choose from.
    ana = position(table.latest("athens").body)
    assert ana["poleis"] == {"C3": 6}
    answer = table.reply("athens", "expand D3 from the deck, choice deck")
    assert any(a in answer for a in ACCEPTED), answer
    choice = table.latest("athens").body
    offered = re.search(r"You drew (\S+) and (\S+) for D3; keep one of them or neither\.", choice)
    assert offered, choice
    answer = table.reply("athens", f"keep {offered[1]}")
    assert "Your order was accepted" in answer, answer
    answer = table.reply("sparta", "Ausbreiten F3 vom Stapel")
    assert "Dein Befehl wurde angenommen" in answer, answer

    # Round 3: Ana attacks her new neutral Polis from the HTML-only reply of her phone.
    before = len(table.inbox("athens"))
    postmark_html(
        client, table.latest("athens").reply_to[0], "<div>Move C3 to D3 4</div><blockquote>x</blockquote>"
    )
    answer = table.inbox("athens")[before:][-1].body
    assert "Your order was accepted: Move C3 to D3 4" in answer and "Battle at D3" in answer
    answer = table.reply("sparta", "befestigen G3")
    assert "Dein Befehl wurde angenommen: befestigen G3" in answer, answer

    # The rest of the game: pass in the action rounds (a trade offer made and answered on the way),
    # commit what the sealed winter email says is behind the screen, to the end email.
    for _ in range(200):
        if game.status == Game.Status.ENDED or (game.refresh_from_db() or game.status == Game.Status.ENDED):
            break
        for faction in table.on_turn():
            email = table.latest(faction).body
            german = faction == "sparta"
            if "scoring winter" in email or "Wertungswinter" in email:
                coin = re.search(r"(?:Behind your screen|Hinter deinem Sichtschirm): (\d+) (\w+)", email)
                line = (
                    (f"einsetzen {coin[2]} {coin[1]}" if german else f"Commit {coin[1]} {coin[2]}")
                    if coin
                    else ("einsetzen nichts" if german else "commit nothing")
                )
            else:
                line = "Ich passe" if german else "Pass!"
            answer = table.reply(faction, line)
            assert any(a in answer for a in ACCEPTED), (line, email, answer)

    ended = [m for m in table.inbox("athens") if "The game has ended" in m.subject]
    assert ended and "Final score: " in ended[-1].body
    # One winner, or a shared victory named in the plural (H-END).
    told = re.search(r"has ended\. (Winners?): ([^.]+)\.", ended[-1].body)
    assert told and (told[1] == "Winners") == ("," in told[2])
    (ende,) = [m for m in table.inbox("sparta") if "Die Partie ist beendet" in m.subject]
    assert "Endstand: " in ende.body and " VP" in ende.body


def test_natural_phrasings_read_as_the_documented_orders():
    """What a person writes around an order (filler words, the count first, the German emails'
    "Leermünze", "Ich passe", punctuation) reads as the documented line."""
    same = {
        "pass": ["Pass!", "I pass", "pass, thanks", "Ich passe", "passe", "Passen bitte"],
        "move C3 D4 3": ["Move C3 to D4 3", "move 3 from C3 to D4", "bewegen C3 nach D4 3 Phalangen"],
        "move C3 D4 2 king": ["bewegen C3 D4 2 mit König", "move C3 to D4 2 with the king"],
        "recruit C3 2": ["recruit 2 phalanxes in C3", "Rekrutieren C3 2 Phalangen"],
        "fortify D4 blanks 1": ["befestigen D4 leermünze 1", "Befestigen D4 Leermünzen 1"],
        "expand D4 deck": ["expand D4 from the deck", "Ausbreiten D4 vom Stapel"],
        "reform democracy": ["reform to democracy", "Reformieren zur Demokratie"],
        "accept 1": ["accept offer 1", "accept #1", "Annehmen Nr. 1"],
        "keep miletos": ["behalte Milet"],
        "commit owl 2 blanks 1": ["commit 2 owl 1 blank", "einsetzen 2 Eule 1 Leermünze"],
        "commit": ["commit nothing", "einsetzen nichts"],
        "builder": ["Baumeister anwerben"],
        "trade": ["Handel"],
        "offer sparta 2 ap 1 owl for 1 fp": ["offer to sparta 2 ap and 1 owl for 1 fp"],
    }
    for line, phrasings in same.items():
        for phrasing in phrasings:
            assert parse_order(phrasing, "athens") == parse_order(line, "athens"), phrasing
    message = parse_order("Nachricht an Sparta: Hallo!", "athens")
    assert (message.to, message.text) == ("sparta", "Hallo!")


def test_a_phone_signature_and_a_wrapped_attribution_end_the_players_own_lines():
    assert read_reply("Thanks, you too!" + APPLE_EN) == ["Thanks, you too!"]
    assert read_reply("Danke!\n\nVon meinem iPhone gesendet\n\n" + GMAIL_DE) == ["Danke!"]
    assert read_reply("pass\n\nGet Outlook for iOS\n") == ["pass"]
