"""Inbound mail is de-duplicated by the ESP's message id together with the reply address it was
sent to (notifications/inbound.py): a retry is handled once, a shared Message-ID is no retry."""

from __future__ import annotations

import json

import pytest

from games.models import Event
from notifications.models import InboundMail
from tests.inbox.support import (  # noqa: F401  (inbound_settings: the webhook's secret and domain)
    BASIC,
    answers_to,
    inbound_settings,
    post_inbound,
    turn_email_reply_to,
)
from tests.order_loop_support import two_player_game

pytestmark = pytest.mark.django_db


def post_reply(client, reply_to: str, message_id: str, text: str = "pass") -> None:
    """A reply as Postmark posts it, carrying the sender's own Message-ID."""
    payload = {
        "To": reply_to,
        "FromFull": {"Email": "x@y.example", "Name": ""},
        "ToFull": [{"Email": reply_to}],
        "OriginalRecipient": reply_to,
        "TextBody": text,
        "MessageID": "postmark-id",
        "Headers": [{"Name": "Message-ID", "Value": message_id}],
    }
    response = post_inbound(
        client,
        "/anymail/postmark/inbound/",
        data=json.dumps(payload),
        content_type="application/json",
        HTTP_AUTHORIZATION=BASIC,
    )
    assert response.status_code == 200


def test_one_message_id_to_two_reply_addresses_is_handled_at_both(client):
    """Finding: a colliding Message-ID silently dropped a mail. The same Message-ID reaches two
    seats' reply addresses (one email to both, or a sender reusing the id): each is read."""
    first_game = two_player_game()
    first_seat, first_address = turn_email_reply_to(first_game)
    second_game = two_player_game()  # the same players: their latest turn email is of this game
    second_seat, second_address = turn_email_reply_to(second_game)
    assert first_address != second_address

    post_reply(client, first_address, "<same@elsewhere.example>")
    post_reply(client, second_address, "<same@elsewhere.example>")

    assert Event.objects.filter(game=first_game, type="PlayerPassed").count() == 1
    assert Event.objects.filter(game=second_game, type="PlayerPassed").count() == 1
    answered = {id(m) for seat in (first_seat, second_seat) for m in answers_to(seat)}
    assert len(answered) == 2  # one answer from each game (one player may be on turn in both)
    stored = InboundMail.objects.filter(esp_message_id="<same@elsewhere.example>")
    assert sorted(stored.values_list("reply_to", flat=True)) == sorted([first_address, second_address])


def test_one_message_id_posted_twice_to_one_reply_address_is_handled_once(client):
    """Finding: a colliding Message-ID silently dropped a mail. The ESP's retry (same Message-ID,
    same address) is still recognised and handled once."""
    game = two_player_game()
    seat, address = turn_email_reply_to(game)

    post_reply(client, address, "<retried@elsewhere.example>")
    post_reply(client, address, "<retried@elsewhere.example>")

    assert Event.objects.filter(game=game, type="PlayerPassed").count() == 1
    assert len(answers_to(seat)) == 1
    assert InboundMail.objects.filter(esp_message_id="<retried@elsewhere.example>").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_existing_rows_and_goes_back_only_while_ids_are_unique():
    """Finding: a colliding Message-ID silently dropped a mail. Migration 0010 swaps the unique
    message id for a unique (message id, reply address) over the rows already stored, and its
    reverse refuses, changing nothing, once two addresses share a message id."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = (
        [("notifications", "0009_outbox_kind_withdrawn")],
        [("notifications", "0010_inbound_once_per_address")],
    )
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("notifications", "InboundMail")
    old.objects.create(esp_message_id="<kept@x>", reply_to="orders+a@x", outcome="accepted")
    old.objects.create(esp_message_id="<also@x>", reply_to="", outcome="")  # stored before reply_to
    executor = MigrationExecutor(connection)
    executor.migrate(after)

    assert sorted(InboundMail.objects.values_list("esp_message_id", "reply_to")) == [
        ("<also@x>", ""),
        ("<kept@x>", "orders+a@x"),
    ]
    InboundMail.objects.create(esp_message_id="<kept@x>", reply_to="orders+b@x")
    executor = MigrationExecutor(connection)
    with pytest.raises(RuntimeError, match="1 message ids are stored for more than one reply address"):
        executor.migrate(before)
    assert InboundMail.objects.filter(esp_message_id="<kept@x>").count() == 2
    InboundMail.objects.filter(reply_to="orders+b@x").delete()
    executor = MigrationExecutor(connection)
    executor.migrate(before)  # the ids are unique again: back it goes
    executor = MigrationExecutor(connection)
    executor.migrate(after)
