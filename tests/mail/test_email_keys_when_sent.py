"""An email's keys (its player link, unsubscribe link, Reply-To and List-Unsubscribe) are signed by
the worker that sends it: the order's transaction only names them (mail_keys.keys_named)."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games.engine import Pass
from games.mail.keys import read_reply_address, read_unsubscribe_token
from games.reading.links import LinkError, read_link, revoke_links
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from notifications.models import Outbox
from notifications.services import deliver_outbox
from notifications.tasks import deliver_pending
from tests.order_loop_support import seats_to_act

DOMAIN = "play.example.com"
PLAY_LINK = re.compile(r"https?://[^\s\"<>]+/play/(?P<game>\d+)/(?P<token>[^/\s\"<>]+)/")
UNSUBSCRIBE_LINK = re.compile(r"https?://[^\s\"<>]+/mail/unsubscribe/(?P<token>[^/\s\"<>]+)/")


@pytest.fixture
def queued_turn_email(settings, monkeypatch):
    """A 2-player game, one order given, its turn email queued and not yet sent."""
    settings.INBOUND_DOMAIN = DOMAIN
    monkeypatch.setattr(deliver_pending, "apply_async", lambda **kwargs: None)  # delivery waits
    game = create_game(
        [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    )
    (seat,) = seats_to_act(game)
    seq = submit_order(game, seat, Pass(seat.faction), load_game(game).seq).seq
    (row,) = Outbox.objects.filter(game_id=game.pk, kind="turn", seq=seq)
    return game, game.seats.get(pk=row.seat_id), row


def sent_for(row: Outbox) -> mail.EmailMessage:
    (sent,) = [m for m in mail.outbox if m.extra_headers["X-Aegea-Notification"] == row.idempotency_key]
    return sent


@pytest.mark.django_db
def test_the_order_names_the_keys_and_stores_no_signed_one(queued_turn_email):
    game, reader, row = queued_turn_email
    assert row.context["keys_of"] == {"version": reader.token_version, "reply": ["o", str(row.seq)]}
    assert "link" not in row.context and "unsubscribe_url" not in row.context
    assert row.reply_to == "" and list(row.headers) == ["X-Aegea-Log-Head"]  # the log's head: no key


@pytest.mark.django_db
def test_the_sent_email_carries_working_keys_signed_for_its_reader(queued_turn_email):
    game, reader, row = queued_turn_email
    mail.outbox.clear()
    deliver_outbox()
    sent = sent_for(row)
    html, _ = sent.alternatives[0]

    link = PLAY_LINK.search(sent.body)
    assert link and link["game"] == str(game.pk) and link.group(0) in html
    claim = read_link(link["token"], game.pk)
    assert (claim.seat_id, claim.version) == (reader.pk, reader.token_version)

    (reply_to,) = sent.reply_to
    key = read_reply_address(reply_to)
    assert key is not None and key.seat == reader and (key.kind, key.seq) == ("o", row.seq)
    assert "Or reply to this email with your order" in sent.body  # replies are orders here

    unsubscribe = UNSUBSCRIBE_LINK.search(sent.body)
    assert unsubscribe and sent.extra_headers["List-Unsubscribe"] == f"<{unsubscribe.group(0)}>"
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert read_unsubscribe_token(unsubscribe["token"]) == reader


@pytest.mark.django_db
def test_without_an_inbound_domain_the_email_has_no_reply_to_and_does_not_offer_email_orders(
    queued_turn_email, settings
):
    settings.INBOUND_DOMAIN = ""  # as when the email is sent
    _game, _reader, row = queued_turn_email
    mail.outbox.clear()
    deliver_outbox()
    sent = sent_for(row)
    assert sent.reply_to == []
    assert "Or reply to this email" not in sent.body


@pytest.mark.django_db
def test_a_link_is_valid_for_its_full_age_from_when_the_email_is_sent(queued_turn_email, settings):
    settings.LINK_MAX_AGE = timedelta(days=30)
    game, _reader, row = queued_turn_email
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(days=20)):  # the worker gets to it late
        deliver_outbox()
    token = PLAY_LINK.search(sent_for(row).body)["token"]
    with time_machine.travel(timezone.now() + timedelta(days=45)):  # 25 days after sending
        assert read_link(token, game.pk).seat_id == row.seat_id
    with time_machine.travel(timezone.now() + timedelta(days=51)), pytest.raises(LinkError, match="expired"):
        read_link(token, game.pk)  # 31 days after sending


@pytest.mark.django_db
def test_links_withdrawn_before_the_email_is_sent_stay_withdrawn(queued_turn_email, client):
    game, reader, row = queued_turn_email
    revoke_links(reader)
    mail.outbox.clear()
    deliver_outbox()
    sent = sent_for(row)
    link = PLAY_LINK.search(sent.body)
    assert (
        read_link(link["token"], game.pk).version == reader.token_version - 1
    )  # signed, for the old version
    assert client.get(urlsplit(link.group(0)).path).status_code == 403
    assert read_reply_address(sent.reply_to[0]) is None
    assert read_unsubscribe_token(UNSUBSCRIBE_LINK.search(sent.body)["token"]) is None
