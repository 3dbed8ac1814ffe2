"""A turn email's "what happened since your last turn" is told by the worker that sends it:
the order's transaction only names it, and the lines are the same whenever the email goes out."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation
from django.utils.translation import gettext

from games.engine import Pass, legal_commands
from games.models import Event
from games.reading.situation import happenings, load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from games.services.take_back import take_back_order
from games.words.names import faction_name
from games.words.narration import describe
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


@pytest.mark.django_db
def test_h_takeback_a_turn_email_tells_an_order_taken_back_once_and_not_the_readers_own_order():
    cy = PlayerSpec("Cy", "cy@example.com", "corinth", language="de")
    game = create_game([ANA, BEN, cy])
    orders = []
    for take_back in (False, True, False):  # the second player takes back, then orders again
        (seat,) = seats_to_act(game)
        state = load_game(game).state
        order = next(c for c in legal_commands(state, seat.faction) if c.kind == "recruit")
        submit_order(game, seat, order, load_game(game).seq)
        orders.append(seat)
        if take_back:
            take_back_order(game, seat, load_game(game).seq)
            submit_order(game, seat, order, load_game(game).seq)
    first, second = orders[0], orders[1]
    first_order = Event.objects.get(game=game, actor=first.faction, type="PhalanxesRecruited")
    mail.outbox.clear()
    deliver_outbox()

    # The first player's turn email, after the third player's order: the last email to them.
    sent = [m for m in mail.outbox if m.to == [first.email]][-1]
    with translation.override(first.language):
        own, other = faction_name(first.faction), faction_name(second.faction)
        turn_of_second = gettext("Action round %(round)s: %(player)s to play.") % {
            "player": other,
            "round": 1,
        }
        taken_back = gettext("%(player)s took back their order: %(order)s.") % {
            "player": other,
            "order": gettext("Recruit"),
        }
        own_order = describe("PhalanxesRecruited", first_order.payload, first.faction, game=game)
    lines = [line for line in sent.body.splitlines() if line.startswith("- ")]
    assert f"- {taken_back}" in lines, sent.body
    assert lines.count(f"- {turn_of_second}") == 1, sent.body
    assert not any(a == b for a, b in zip(lines, lines[1:], strict=False)), sent.body
    assert f"- {own_order}" not in lines and own in own_order, sent.body  # its own order is not told back
