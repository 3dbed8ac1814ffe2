"""A turn email's "what happened since your last turn" is told by the worker that sends it:
the order's transaction only names it, and the lines are the same whenever the email goes out."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from games.engine import Pass
from games.reading.situation import happenings, load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from notifications.models import Outbox
from notifications.services import deliver_outbox
from notifications.tasks import deliver_pending
from tests.order_loop_support import seats_to_act

ANA = PlayerSpec("Ana", "ana@example.com", "athens", language="en")
BEN = PlayerSpec("Ben", "ben@example.com", "sparta", language="de")


def pass_for_whoever_must_act(game) -> tuple[str, int]:
    (seat,) = seats_to_act(game)
    return seat.faction, submit_order(game, seat, Pass(seat.faction), load_game(game).seq).seq


@pytest.mark.django_db
def test_h_screen_a_turn_email_sent_later_tells_what_happened_up_to_its_own_turn_in_its_readers_language(
    monkeypatch,
):
    monkeypatch.setattr(deliver_pending, "apply_async", lambda **kwargs: None)  # delivery waits
    game = create_game([ANA, BEN])
    passer, seq = pass_for_whoever_must_act(game)
    (row,) = Outbox.objects.filter(kind="turn", seq=seq)
    reader = game.seats.get(pk=row.seat_id)
    assert reader.faction != passer
    with translation.override(reader.language):
        told_now = happenings(game, reader.faction, up_to_seq=seq)
    assert told_now and all(isinstance(line, str) for line in told_now)
    # The row names what to tell; it holds no lines, and the order ran no narration for it.
    assert "happenings" not in row.context
    assert row.context["happenings_of"] == {"viewer": reader.faction, "up_to_seq": seq, "over": False}

    for _ in range(3):  # the game moves on before the worker gets to the email
        pass_for_whoever_must_act(game)
    mail.outbox.clear()
    deliver_outbox()

    (sent,) = [m for m in mail.outbox if m.extra_headers["X-Aegea-Notification"] == row.idempotency_key]
    html, _ = sent.alternatives[0]
    heading = {"en": "What happened since your last turn", "de": "Was seit deinem letzten Zug geschah"}
    assert heading[reader.language] in sent.body and heading[reader.language] in html
    for line in told_now:
        assert f"- {line}" in sent.body
    with translation.override(reader.language):
        later = happenings(game, reader.faction)
    assert later != told_now  # what happened after the email's turn is not in it
    assert not [line for line in later if line not in told_now and f"- {line}" in sent.body]


@pytest.mark.django_db
def test_a_welcome_email_has_no_happenings_to_tell(monkeypatch):
    monkeypatch.setattr(deliver_pending, "apply_async", lambda **kwargs: None)
    game = create_game([ANA, BEN])
    rows = Outbox.objects.filter(game_id=game.pk, kind="welcome")
    assert rows.count() == 2 and all("happenings_of" not in row.context for row in rows)
    deliver_outbox()
    assert len(mail.outbox) == 2
    assert all("What happened" not in m.body and "Was seit" not in m.body for m in mail.outbox)
