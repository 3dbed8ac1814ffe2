"""Every email the game sends carries the log's head as it was written (docs/fairness.md, "Witnessed
heads"): `X-Aegea-Log-Head: game=G; seq=N; pin=P` and "Log N·<16 hex digits>…" in the footer of its
text and its HTML, P being the pin of event N (HMAC-SHA256 under the seed of its hash), N the last
event when the row was written. The outbox stamps every row of a game through notifications' `stamp`
hook, whatever its kind: one test writes every registered kind, others look at emails the services
really send.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail

from games.engine import Pass
from games.mail_hooks import KINDS
from games.models import Event, Game
from games.reading.export import chain_pin
from games.reading.log_head import HEADER
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.messages import send_message
from games.services.orders import submit_order
from notifications.services import deliver_outbox, enqueue
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401
from tests.order_loop_support import seats_to_act

pytestmark = pytest.mark.django_db

ANA = PlayerSpec("Ana", "ana@example.com", "athens", language="en")
BEN = PlayerSpec("Ben", "ben@example.com", "sparta", language="de")
OWN_TEMPLATE = {"welcome", "turn", "ended", "offer"}  # the other kinds are notices (games/mail/outbox.py)


def expected_head(game: Game, seq: int) -> tuple[str, str]:
    """(the header, the footer's short form) of the head at `seq`."""
    pin = chain_pin(game.seed, Event.objects.get(game=game, seq=seq).hash)
    return f"game={game.pk}; seq={seq}; pin={pin}", f"{seq}·{pin[:16]}…"


def assert_witnesses(message, game: Game, seq: int) -> None:
    header, short = expected_head(game, seq)
    assert message.extra_headers[HEADER] == header, message.tags
    html, _mimetype = message.alternatives[0]
    footer = {"ana@example.com": "Log", "ben@example.com": "Protokoll"}[message.to[0]]
    assert f"{footer} {short}" in message.body, (message.tags, message.body[-300:])
    assert f"{footer} {short}" in html, message.tags
    assert html.index('role="contentinfo"') < html.index(short)  # in the footer, not the content
    # ... with what it is for, in the reader's language.
    why = {
        "ana@example.com": "nobody rewrote the game",
        "ben@example.com": "niemand die Partie umgeschrieben",
    }
    assert why[message.to[0]] in message.body.replace("\n", " "), message.tags


def test_every_kind_of_email_carries_the_log_head_when_it_was_written(anymail_outbox) -> None:  # noqa: F811
    game = create_game([ANA, BEN])
    deliver_outbox()  # the welcomes
    mail.outbox.clear()
    head = load_game(game).seq
    seats = {seat.faction: seat for seat in game.seats.all()}
    kinds = sorted(k if k != "reminder" else "reminder-1" for k in KINDS)
    for number, kind in enumerate(kinds):
        seat = seats["athens" if number % 2 else "sparta"]
        base = kind.partition("-")[0]
        enqueue(
            game_id=game.pk,
            seq=10_000 + number,  # a row's own seq need not be an event's (a reply's is its mail's id)
            seat_id=seat.pk,
            kind=kind,
            to_email=seat.email,
            language=seat.language,
            template=base if base in OWN_TEMPLATE else "notice",
            context={
                "game_name": "Witnesses",
                "player_name": seat.name,
                "paragraphs": ["A note."],
                "winners_count": 1,
            },
        )
    deliver_outbox()
    assert sorted(m.tags[0] for m in mail.outbox) == kinds
    for message in mail.outbox:
        assert_witnesses(message, game, head)


def test_the_head_is_the_log_as_each_email_was_written_not_as_it_was_sent(anymail_outbox) -> None:  # noqa: F811
    game = create_game([ANA, BEN])
    welcome_head = load_game(game).seq
    (seat,) = seats_to_act(game)
    submit_order(game, seat, Pass(seat.faction), welcome_head)
    order_head = load_game(game).seq
    other = game.seats.exclude(pk=seat.pk).get()
    send_message(seat, other.faction, "Shall we share the sea?")
    message_head = load_game(game).seq
    assert welcome_head < order_head < message_head
    deliver_outbox()  # all sent at once, after the last event: each still tells its own moment
    by_kind = {}
    for message in mail.outbox:
        by_kind.setdefault(message.tags[0], []).append(message)
    assert {"welcome", "turn", "message"} <= set(by_kind)
    for message in by_kind["welcome"]:
        assert_witnesses(message, game, welcome_head)
    for message in by_kind["turn"]:
        assert_witnesses(message, game, order_head)
    for message in by_kind["message"]:
        assert_witnesses(message, game, message_head)


def test_a_head_tells_no_hash_before_the_end(anymail_outbox) -> None:  # noqa: F811
    """H-SCREEN: a hash would let a player try every candidate for what is hidden from them; the pin
    says nothing without the seed, which stays secret until the end."""
    game = create_game([ANA, BEN])
    deliver_outbox()
    hashes = set(Event.objects.filter(game=game).values_list("hash", flat=True))
    for message in mail.outbox:
        told = message.body + message.alternatives[0][0] + str(message.extra_headers)
        assert not any(digest[:16] in told for digest in hashes)
        assert re.search(r"pin=[0-9a-f]{64}$", message.extra_headers[HEADER])
