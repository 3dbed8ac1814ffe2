"""Every order of the web page by email reply (docs/email-orders.md): the winter order with a Mission Card
(H-WINTER-ORDERS, H-MISSIONS, S-WINTER), the Oracle paid with a Blank, a tile kept by its German
name; and the "too large" answer naming INBOUND_MAX_BYTES. Real Mailgun and Postmark posts to the
inbound URL (tests/inbox/test_email_orders.py), answers read from the mail actually sent.
"""

from __future__ import annotations

import dataclasses

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import translation

from games.engine import command_from_dict
from games.engine.commands import COMMAND_TYPES, Destination
from games.engine.data import MISSION_CARDS
from games.models import Event
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.inbox.card_syntax import STEMS, resolve_card
from games.services.inbox.order_syntax import OrderSyntaxError, help_lines, parse_order
from games.words.syntax import CARD_WORDS, winter_hand_words
from notifications.models import InboundMail
from notifications.services import deliver_outbox
from tests.inbox.support import ADDRESS, inbound_settings, is_answer, mailgun, postmark  # noqa: F401

WINTER = {
    "players": {
        "athens": {
            "mission_cards": ["objective-poleis-1", "combo-2"],
            "coins_behind_screen": {"owl": 2, "shield": 1},
            "blanks": 1,
        },
        "sparta": {},
    },
    "year": 430,
    "phase": "winter_orders",
}
ORACLE = {"players": {"athens": {"blanks": 1, "ap": 3}, "sparta": {}}, "year": 430, "phase": "actions"}


def game_of(spec: dict, language: str = "en"):
    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    return create_game(players, scenario=spec, language=language)


def reply_to_of_last_email(seat) -> str:
    deliver_outbox()
    (reply_to,) = [m for m in mail.outbox if m.to == [seat.email]][-1].reply_to
    assert ADDRESS.fullmatch(reply_to)
    return reply_to


def answers(seat) -> list:
    """The answers to the seat's emails actually sent, in English or German."""
    deliver_outbox()
    return [m for m in mail.outbox if m.to == [seat.email] and is_answer(m.subject)]


def sealed(game) -> list[Event]:
    return list(Event.objects.filter(game=game, type="WinterOrderSealed"))


def test_a_winter_order_with_a_mission_card_reads_in_english_and_german():
    english = parse_order("commit owl 1 card combo owl 1 shield 1 blanks 1", "athens")
    assert english == {
        "player": "athens",
        "kind": "commit_coins",
        "coins": {"owl": 1},
        "blanks": 0,
        "mission_cards": ["combo"],
        "card_coins": {"owl": 1, "shield": 1},
        "card_blanks": 1,
    }
    assert parse_order("Einsetzen Eule 1 Karte Münzkombo Eule 1 Schild 1 Blanko 1", "athens") == english
    assert parse_order("einsetzen eule 1 karte kombo eule 1 schild 1 blanko 1", "athens") == english
    for line in ("commit card monopoly ap", "einsetzen karte monopol ap", "commit card monopoly-ap"):
        assert parse_order(line, "athens")["mission_cards"] == ["monopoly-ap"]
    assert parse_order("einsetzen karte monopol-muenzen", "athens")["mission_cards"] == ["monopoly-coins"]
    assert parse_order("commit card Münz-Multiplikator", "athens")["mission_cards"] == ["coin-multiplier"]
    assert parse_order("commit card zweite-münz-wertung", "athens")["mission_cards"] == [
        "second-coin-scoring"
    ]
    assert parse_order("commit blanks 1", "athens") | {"player": "x"} == {
        "player": "x",
        "kind": "commit_coins",
        "coins": {},
        "blanks": 1,
    }
    for bad in ("commit card", "commit card dragon", "commit card monopoly gold", "commit card flush gold 4"):
        with pytest.raises(OrderSyntaxError):
            parse_order(bad, "athens")


def test_a_card_named_by_kind_is_the_copy_in_the_hand_and_one_not_held_is_left_to_the_engine():
    order = parse_order("commit card combo owl 1 pegasus 1 shield 1", "athens")
    assert resolve_card(order, ["flush-1", "combo-3"])["mission_cards"] == ["combo-3"]
    assert resolve_card(order, ["flush-1"])["mission_cards"] == ["combo-1"]  # the engine refuses it
    by_id = parse_order("commit card combo-2", "athens")
    assert resolve_card(by_id, ["combo-1", "combo-2"])["mission_cards"] == ["combo-2"]
    assert resolve_card(by_id, ["combo-3"])["mission_cards"] == ["combo-3"]
    command = command_from_dict(resolve_card(order, ["combo-3"]))
    assert (command.mission_cards, command.card_coins) == (
        ("combo-3",),
        (("owl", 1), ("pegasus", 1), ("shield", 1)),
    )


def test_the_answers_name_the_hands_winter_cards_by_the_words_a_reply_uses():
    hand = ["combo-1", "combo-2", "monopoly-coins-1", "objective-poleis-1"]
    with translation.override("en"):
        assert winter_hand_words(hand) == ["Combo (card combo)", "Monopoly of coins (card monopoly coins)"]
    with translation.override("de"):
        assert winter_hand_words(hand) == [
            "Münzkombo (karte kombo)",
            "Monopol auf Münzen (karte monopol muenzen)",
        ]
    for stem, (english, german) in CARD_WORDS.items():  # every listed word reads back as its card
        for line in (f"commit card {english}", f"einsetzen karte {german}"):
            assert parse_order(line, "athens")["mission_cards"] == [stem]
    assert {stem for stem in STEMS if MISSION_CARDS[f"{stem}-1"].is_winter} == set(CARD_WORDS)


def test_the_oracle_paid_with_a_blank_and_a_tile_by_its_german_name_read():
    assert parse_order("oracle blank", "athens") == {"player": "athens", "kind": "oracle", "coin": "blank"}
    assert parse_order("Orakel Blanko", "athens")["coin"] == "blank"
    assert parse_order("behalten Milet", "athens")["keep"] == "miletos"
    assert parse_order("keine Platää Potidäa", "athens")["discard_order"] == ["plataia", "potidaia"]
    assert parse_order("keep Miletos", "athens")["keep"] == "miletos"


def test_s_exp_choice_german_may_close_a_tile_choice_with_its_verb():
    assert parse_order("Milet behalten", "athens")["keep"] == "miletos"
    neither = {"player": "athens", "kind": "choose_tile", "keep": None, "discard_order": []}
    assert parse_order("Keine behalten", "athens") == neither  # not a tile named "behalten"
    assert parse_order("behalte keine", "athens") == neither


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("post", "line"),
    [
        (mailgun, "commit owl 1 card combo owl 1 shield 1 blanks 1"),
        (postmark, "Einsetzen Eule 1 Karte Münzkombo Eule 1 Schild 1 Blanko 1"),
    ],
)
def test_h_missions_a_winter_card_is_redeemed_by_email_reply(client, post, line):
    game = game_of(WINTER)
    ana = game.seats.get(faction="athens")
    reply = f"{line}\n\nOn Mon, 30 Nov 2026 AEGEAPOLIS wrote:\n> Winter of 430 BC is a scoring winter\n"
    assert post(client, reply_to_of_last_email(ana), reply).status_code == 200
    (event,) = sealed(game)
    assert event.payload["player"] == "athens" and event.payload["mission_card"] == "combo-2"
    assert (event.payload["coins"], event.payload["blanks"]) == ({"owl": 1}, 0)
    assert (event.payload["card_coins"], event.payload["card_blanks"]) == ({"owl": 1, "shield": 1}, 1)
    (answer,) = answers(ana)
    assert f"Your order was accepted: {line}" in answer.body
    assert InboundMail.objects.get().outcome == "accepted"


@pytest.mark.django_db
def test_h_missions_a_card_the_rules_refuse_by_email_changes_nothing_and_says_why_in_the_players_language(
    client,
):
    game = game_of(WINTER, language="de")
    ana = game.seats.get(faction="athens")
    before = load_game(game).seq
    assert (
        postmark(client, reply_to_of_last_email(ana), "einsetzen karte kombo eule 2 schild 1").status_code
        == 200
    )
    assert mailgun(client, reply_to_of_last_email(ana), "einsetzen karte flush schild 4").status_code == 200
    assert mailgun(client, reply_to_of_last_email(ana), "commit card objective-poleis").status_code == 200
    assert load_game(game).seq == before and sealed(game) == []
    two_owls, flush, objective = (m.body for m in answers(ana))
    assert "Die Regeln lassen diesen Befehl nicht zu" in two_owls and "(Regel H-MISSIONS)" in two_owls
    assert "Flush ist nicht auf deiner Hand" in flush  # the card by its name, not its id
    assert "Ziel: 6 Poleis" in objective and "(Regel H-MISSIONS)" in objective
    assert "einsetzen eule 1 karte kombo eule 1 schild 1 blanko 1" in flush  # the syntax help, German first
    for body in (two_owls, flush, objective):  # the hand's winter cards, as the page's form lists them
        assert "Deine Winter-Auftragskarten: Münzkombo (karte kombo)." in body
    outcomes = set(InboundMail.objects.values_list("outcome", flat=True))
    assert outcomes == {"rule-violation"}


@pytest.mark.django_db
def test_an_unreadable_winter_order_is_answered_with_the_syntax_and_the_players_winter_cards(client):
    game = game_of({**WINTER, "players": {"athens": {"mission_cards": ["objective-poleis-1"]}, "sparta": {}}})
    ana = game.seats.get(faction="athens")
    assert postmark(client, reply_to_of_last_email(ana), "commit gold 1").status_code == 200
    assert sealed(game) == []
    (answer,) = answers(ana)
    assert 'Your order could not be read: "gold" is not a coin design' in answer.body
    assert "You hold no winter Mission Card." in answer.body and "commit owl 1 card combo" in answer.body


@pytest.mark.django_db
def test_h_actions_the_oracle_paid_with_a_blank_by_email_reply(client):
    game = game_of(ORACLE)
    ana = game.seats.get(faction="athens")
    assert mailgun(client, reply_to_of_last_email(ana), "oracle blank").status_code == 200
    (drawn,) = Event.objects.filter(game=game, type="MissionCardDrawn")
    assert drawn.payload["coin"] == "blank"
    assert "Your order was accepted: oracle blank" in answers(ana)[0].body


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [("en", "at most 2.0\xa0MB"), ("de", "höchstens 2,0\xa0MB")])
@pytest.mark.parametrize("post", [postmark, mailgun])
def test_the_too_large_answer_names_the_configured_limit(client, post, language, words):
    game = game_of(ORACLE, language=language)
    ana = game.seats.get(faction="athens")
    before = load_game(game).seq
    with override_settings(INBOUND_MAX_BYTES=2 * 1024 * 1024):
        assert (
            post(
                client, reply_to_of_last_email(ana), "pass", attachment=b"\1" * (3 * 1024 * 1024)
            ).status_code
            == 200
        )
    assert load_game(game).seq == before
    (answer,) = answers(ana)
    assert words in answer.body and "1 MB" not in answer.body and "1.0\xa0MB" not in answer.body
    assert words in answer.alternatives[0][0]  # the HTML part too
    assert InboundMail.objects.get().outcome == "too-large"


def test_the_syntax_help_shows_the_mission_card_and_the_blank_oracle():
    with translation.override("en"):
        text = "\n".join(help_lines())
    assert "commit owl 1 card combo owl 1 shield 1 blanks 1" in text and "oracle blank" in text
    assert "builder  (baumeister)" in text
    with translation.override("de"):  # the German help says the word the page's Expand form does
        german = "\n".join(help_lines())
    assert german.startswith("passen") and "expandieren D4 stapel  (expand D4 deck)" in german
    assert parse_order("expandieren D4 stapel", "athens")["kind"] == "expand"


# One English and one German line per order kind, together giving every field of the kind's
# Command a value other than its default: what the page's forms can set, a reply can set.
EVERY_ORDER = {
    "pass": [("pass", "passen")],
    "expand": [
        (
            "expand D4 discard choice deck link C3 blanks 1",
            "ausbreiten D4 ablage auswahl stapel handelsstrasse C3 blanko 1",
        ),
        ("expand D4 choice later", "ausbreiten D4 auswahl später"),  # H-CHOICE-STEP
    ],
    "choose_tile": [
        ("keep Aegina", "behalten Ägina"),
        ("neither Miletos Athens", "keine Milet Athen"),
        ("second discard blanks 1", "zweites ablage blanko 1"),  # H-CHOICE-STEP
    ],
    "move": [
        (
            "move C3 D4 3 king navigators 1 builders 1 E5 2 blanks 1 battle D4 E5",
            "bewegen C3 D4 3 koenig navigatoren 1 baumeister 1 E5 2 blanko 1 kampf D4 E5",
        )
    ],
    "recruit": [("recruit C3 2 navigators 1 blanks 1", "rekrutieren C3 2 navigatoren 1 blanko 1")],
    "fortify": [("fortify D4 blanks 1", "befestigen D4 blanko 1")],
    "commit_coins": [
        (
            "commit owl 1 blanks 1 card combo owl 1 shield 1 blanks 1",
            "einsetzen eule 1 blanko 1 karte kombo eule 1 schild 1 blanko 1",
        )
    ],
    "reform": [("reform democracy", "reformieren demokratie")],
    "recruit_builder": [("builder", "baumeister")],
    "oracle": [("oracle blank", "orakel blanko")],
    "neutral_trade": [("trade", "handeln")],
    "offer_trade": [
        ("offer sparta 2 ap 1 owl for 1 fp polis D3", "anbieten sparta 2 ap 1 eule gegen 1 fp polis D3")
    ],
    "accept_offer": [("accept 3", "annehmen 3")],
    "decline_offer": [("decline 3", "ablehnen 3")],
}


def _set_fields(value) -> set[str]:
    """The fields of a Command (or a Destination in it) given a value other than their default."""
    found = {
        f.name
        for f in dataclasses.fields(value)
        if getattr(value, f.name) != f.default and f.name != "player"
    }
    for destination in getattr(value, "destinations", ()):
        found |= {f"destinations.{name}" for name in _set_fields(destination)}
    return found


def test_every_kind_of_order_and_every_field_of_it_can_be_given_by_email_in_english_and_german():
    assert set(EVERY_ORDER) == set(COMMAND_TYPES)  # a new kind of order needs its line here
    for kind, lines in EVERY_ORDER.items():
        given: set[str] = set()
        for english, german in lines:
            command = command_from_dict(resolve_card(parse_order(english, "athens"), ["combo-1"]))
            assert command == command_from_dict(resolve_card(parse_order(german, "athens"), ["combo-1"]))
            assert command.kind == kind
            given |= _set_fields(command)
        fields = {f.name for f in dataclasses.fields(COMMAND_TYPES[kind]) if f.name != "player"}
        if kind == "move":
            fields |= {f"destinations.{f.name}" for f in dataclasses.fields(Destination) if f.name != "space"}
        assert fields <= given, (kind, fields - given)
