"""Bounce webhooks racing the writes that lock the game's row (hand-overs, orders)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from games.models import DeliveryProblem
from games.services.delivery_problems import MailReport, record_report
from games.services.game_setup import PlayerSpec, create_game
from notifications.models import Outbox
from notifications.services import deliver_outbox
from tests.race_support import captured, race

PLAYERS = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@exmaple.com", "sparta")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # two real connections and their row locks
def test_a_bounce_while_a_hand_over_holds_the_game_waits_for_neither_the_game_nor_a_deadlock(settings):
    """The bounce locks the seat's row only. It used to lock the game's row too (select_related with
    select_for_update locks every joined row), after the seat's: a hand-over of that seat, which
    locks the game and then writes the seat, waited for the bounce and the bounce for it
    (PostgreSQL's "deadlock detected" killed one of them); and every order of the game waited too."""
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []
    organiser = get_user_model().objects.create_user("olga", "olga@example.com", "pw")
    game = create_game(PLAYERS, organiser=organiser, name="Typo game")
    deliver_outbox()
    seat = game.seats.get(faction="sparta")
    welcome = Outbox.objects.get(seat_id=seat.pk, kind="welcome")
    report = MailReport(
        seat_id=seat.pk,
        email=welcome.to_email,
        event="bounced",
        description="no such user",
        outbox_id=welcome.pk,
        sent_at=welcome.sent_at,
        at=timezone.now(),
    )
    game_locked, release = threading.Event(), threading.Event()
    outcomes: dict[str, object] = {}

    def hand_over_like_writer() -> str:
        """Locks the game's row as a hand-over (or an order) does, then writes the seat."""
        from django.db import transaction

        from games.models import Game, Seat

        with transaction.atomic():
            list(Game.objects.select_for_update().filter(pk=game.pk).values_list("pk", flat=True))
            game_locked.set()
            assert release.wait(30)
            Seat.objects.filter(pk=seat.pk).update(name="Ben B.")
        return "done"

    # Before the fix the bounce came to wait for the game's row; now it finishes without waiting.
    race(
        captured(outcomes, "writer", hand_over_like_writer),
        captured(outcomes, "bounce", lambda: record_report(report)),
        game_locked,
        release,
        second_may_finish=True,
    )
    assert outcomes == {"writer": "done", "bounce": "opened"}, outcomes
    assert DeliveryProblem.objects.filter(seat=seat, resolution="").count() == 1
