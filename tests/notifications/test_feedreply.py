"""`manage.py feedreply`: trying an email reply locally, through the inbound path an ESP's webhook takes."""

from __future__ import annotations

import io
import sys

import pytest
from django.core import mail
from django.core.management import CommandError, call_command

from games.models import Event
from tests.order_loop_support import seats_to_act, two_player_game

DOMAIN = "play.example.com"


@pytest.fixture(autouse=True)
def inbound_settings(settings):
    settings.INBOUND_DOMAIN = DOMAIN
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"


def address_in_turn_email(seat) -> str:
    """The Reply-To of the last email the seat was sent: the address a person replying would use."""
    (address,) = [m for m in mail.outbox if seat.email in m.to][-1].reply_to
    return address


def reply(to: str, text: str, message_id: str = "<r1@phone.example>") -> bytes:
    return (
        f"From: Ben <ben@example.com>\r\nTo: {to}\r\nSubject: Re: your turn\r\nMessage-ID: {message_id}\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n"
    ).encode()


@pytest.mark.django_db(transaction=True)
def test_a_reply_fed_from_a_file_gives_the_order_and_its_answer_is_mailed(tmp_path) -> None:
    game = two_player_game()
    (seat,) = seats_to_act(game)
    path = tmp_path / "reply.eml"
    path.write_bytes(reply(address_in_turn_email(seat), "pass"))
    sent_before = len(mail.outbox)

    out = io.StringIO()
    call_command("feedreply", str(path), stdout=out)

    assert "through the inbound path" in out.getvalue()
    assert Event.objects.filter(game=game, type="PlayerPassed").exists()
    assert seat.faction not in [s.faction for s in seats_to_act(game)]
    answers = mail.outbox[sent_before:]
    assert any(seat.email not in message.to for message in answers)  # the next player's turn email


@pytest.mark.django_db(transaction=True)
def test_a_reply_from_standard_input_takes_its_address_from_to(monkeypatch) -> None:
    game = two_player_game()
    (seat,) = seats_to_act(game)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(reply("someone@else.example", "pass"))))

    call_command("feedreply", "-", "--to", address_in_turn_email(seat), stdout=io.StringIO())

    assert Event.objects.filter(game=game, type="PlayerPassed").exists()


@pytest.mark.django_db(transaction=True)
def test_a_reply_to_no_seats_address_is_refused_and_changes_nothing(tmp_path) -> None:
    game = two_player_game()
    events = Event.objects.filter(game=game).count()
    path = tmp_path / "reply.eml"
    path.write_bytes(reply(f"orders+forged@{DOMAIN}", "pass"))

    with pytest.raises(CommandError, match="no seat's current reply address"):
        call_command("feedreply", str(path), stdout=io.StringIO())

    assert Event.objects.filter(game=game).count() == events


@pytest.mark.django_db(transaction=True)
def test_only_the_words_of_a_reply_on_standard_input_are_an_email_of_them(monkeypatch) -> None:
    game = two_player_game()
    (seat,) = seats_to_act(game)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"pass\n")))

    call_command("feedreply", "-", "--to", address_in_turn_email(seat), stdout=io.StringIO())

    assert Event.objects.filter(game=game, type="PlayerPassed").exists()
