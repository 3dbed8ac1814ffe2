"""H-SCREEN: whatever the reply reading misses, the lines of the email a reply answers never reach
a rival (games/services/relay.py).

Finding: the relay dropped each line "this server mailed to the writer's seat" by reading the
outbox's stored bodies, but the outbox keeps no body of an email rendered from its template (the
worker renders it when it sends, notifications/services.py), so nothing was dropped. A reply
from a Swedish or Polish Outlook, whose header block above the unquoted original the reading
does not know, relayed the writer's "behind your screen" and Mission Cards lines to the rival as
a permanent message; only the links and reply addresses were removed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from django.core import mail
from django.test import TestCase
from django.utils import translation

from games.models import Event
from games.words.names import faction_name
from notifications.feed import feed_reply
from notifications.services import deliver_outbox
from tests.order_loop_support import seats_to_act, two_player_game

DOMAIN = "aegeapolis.localhost"
# Outlook's header block above the unquoted original, in languages the reading does not know; the
# fixtures' format is tests/fixtures/replies/'s (ADDRESS: the reply address, PLAIN: the original).
UNREAD = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "replies_unread").glob("*.eml"))
SECRET_MARKS = ("behind your screen", "Mission Cards")


@pytest.fixture(autouse=True)
def inbound(settings):
    settings.INBOUND_DOMAIN = DOMAIN
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []


@pytest.mark.parametrize("fixture", UNREAD, ids=[f.stem for f in UNREAD])
@pytest.mark.django_db
def test_h_screen_a_message_line_above_an_unread_quote_relays_none_of_the_answered_email(
    fixture: Path,
) -> None:
    game = two_player_game(name="Corfu")
    deliver_outbox()
    (welcome,) = [m for m in mail.outbox if m.to == ["ben@example.com"]]
    secrets = [line for line in welcome.body.splitlines() if any(s in line for s in SECRET_MARKS)]
    assert len(secrets) == 2  # the screen line and the Mission Cards line, as sent
    head, body = fixture.read_text().split("\n\n", 1)
    words, rest = body.split("\n", 1)
    raw = f"{head}\n\nmessage athens {words}\n{rest}".replace("PLAIN", welcome.body)

    with TestCase.captureOnCommitCallbacks(execute=True):
        feed_reply(raw.replace("ADDRESS", welcome.reply_to[0]).encode())

    relayed = Event.objects.get(game=game, type="MessageSent", actor="sparta").payload["text"]
    assert relayed.startswith(words)
    assert [line for line in secrets if line.strip() in relayed] == []
    assert "Hello Ben" not in relayed and "/play/" not in relayed
    deliver_outbox()
    to_ana = [m for m in mail.outbox if m.to == ["ana@example.com"] and "sent you a message" in m.subject]
    assert to_ana and words in to_ana[-1].body
    assert not any(line.strip() in to_ana[-1].body for line in secrets)


@pytest.mark.django_db
def test_h_screen_a_message_above_ones_own_turn_email_rewrapped_under_a_polish_header_relays_only_it() -> (
    None
):
    """The finding: the player on turn answers his own turn email, which lists his screen, AP/FP and
    Mission Cards, with a message on the first line; his client pastes the original unquoted and
    re-wrapped at 72 columns under its Polish header, so no line matches the email sent."""
    game = two_player_game(name="Corfu")
    deliver_outbox()
    writer = seats_to_act(game)[0]
    rival = game.seats.exclude(pk=writer.pk).get()
    (turn,) = [m for m in mail.outbox if m.to == [writer.email]]
    secrets = [line for line in turn.body.splitlines() if any(s in line for s in SECRET_MARKS)]
    assert len(secrets) == 2 and "It is your turn" in turn.body
    rewrapped = "\n".join(textwrap.fill(line, 72) for line in turn.body.splitlines())
    raw = (
        f"From: {writer.name} <{writer.email}>\nTo: {turn.reply_to[0]}\nSubject: RE: {turn.subject}\n"
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
        f"message {rival.faction}: Deal, I stay out of D3.\n\n-----Oryginalna wiadomość-----\n"
        "Od: AEGEAPOLIS <turns@aegeapolis.localhost>\nWysłano: poniedziałek, 30 listopada 2026 10:00\n"
        f"Do: {writer.name} <{writer.email}>\nTemat: {turn.subject}\n\n{rewrapped}\n"
    )

    with TestCase.captureOnCommitCallbacks(execute=True):
        feed_reply(raw.encode())

    relayed = Event.objects.get(game=game, type="MessageSent").payload["text"]
    assert relayed == "Deal, I stay out of D3."
    deliver_outbox()
    (to_rival,) = [m for m in mail.outbox if m.to == [rival.email] and "sent you a message" in m.subject]
    assert "Deal, I stay out of D3." in to_rival.body
    assert not any(mark in to_rival.body for mark in SECRET_MARKS)
    assert not any(line.strip() in to_rival.body for line in secrets)


@pytest.mark.parametrize(
    ("language", "sent_to", "left_out"),
    [
        (
            "en",
            "Sent to {rival}:",
            "<turns@aegeapolis.localhost> Skickat: den 30 november 2026 …” on, nothing was sent",
        ),
        (
            "de",
            "Gesendet an {rival}:",
            "<turns@aegeapolis.localhost> Skickat: den 30 november 2026 …“ wurde nichts gesendet",
        ),
    ],
)
@pytest.mark.django_db
def test_h_screen_the_writer_is_shown_what_was_relayed_and_that_the_rest_was_left_out(
    language: str, sent_to: str, left_out: str
) -> None:
    game = two_player_game(name="Corfu")
    game.seats.update(language=language)
    deliver_outbox()
    writer = seats_to_act(game)[0]
    rival = game.seats.exclude(pk=writer.pk).get()
    (turn,) = [m for m in mail.outbox if m.to == [writer.email]]
    raw = (
        f"From: {writer.name} <{writer.email}>\nTo: {turn.reply_to[0]}\nSubject: SV: {turn.subject}\n"
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
        f"message {rival.faction}: Okej.\nDelos är ditt.\n\nFrån: AEGEAPOLIS <turns@aegeapolis.localhost>\n"
        f"Skickat: den 30 november 2026 10:00\n\n{textwrap.fill(turn.body, 60)}\n"
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        feed_reply(raw.encode())
    deliver_outbox()

    answer = [m for m in mail.outbox if m.to == [writer.email]][-1]
    with translation.override(language):
        rival_name = str(faction_name(rival.faction))
    # What left stands right under the words that introduce it.
    assert f"{sent_to.format(rival=rival_name)}\n\n> Okej.\n> Delos är ditt.\n" in answer.body
    assert left_out in " ".join(answer.body.split())
