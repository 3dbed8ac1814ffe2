"""H-SCREEN: a message written in a reply to an email that shows the writer's secrets reaches the rival
as the writer's words and nothing of the email, whatever the client's style, language and wrapping.

Finding: a player answered his own turn email with "message athens: Deal, I stay out of D3." on the
first line; his client put its header in a language the reply reading does not know above the
original, pasted unquoted and re-wrapped, and the rival received his screen, AP/FP and Mission
Cards as a permanent message. Each case here is such a reply (tests/inbox/reply_styles.py: 14
client styles, 15 languages, re-wrapped at 60, 72 and 76 columns), fed through the inbound path an
ESP's webhook takes; the relayed message is exactly the writer's words, and neither it nor the
rival's email holds a run of five words of any email the writer was sent, or a secret line.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.test import TestCase

from games.mail.position import secret_lines
from games.models import Event, Game, Seat
from games.reading.situation import load_game
from games.services.pasted_original import RUN, word_runs, words
from notifications.feed import feed_reply
from notifications.services import deliver_outbox
from tests.inbox.reply_styles import LANGUAGES, STYLES, TEXT_STYLES, WIDTHS, WORDS, reply
from tests.order_loop_support import play_until, seats_to_act, two_player_game

DOMAIN = "aegeapolis.localhost"
CASES = [(s, lang, w) for s in TEXT_STYLES for lang in LANGUAGES for w in WIDTHS] + [
    (s, lang, 72) for s in STYLES if s not in TEXT_STYLES for lang in LANGUAGES
]


@pytest.fixture(autouse=True)
def inbound(settings):
    settings.INBOUND_DOMAIN = DOMAIN
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []


def sent_to(address: str) -> list:
    return [m for m in mail.outbox if m.to == [address]]


def answer_with_message(
    writer: Seat, original, words_written: str, style: str, language: str, width: int
) -> str:
    """`writer` answers `original` in `style` with a message to the rival; the text relayed, checked
    for every secret of theirs: no five words in a row of any email they were sent, no secret line."""
    game = writer.game
    rival = game.seats.exclude(pk=writer.pk).get()
    secrets = secret_lines(load_game(game).state, writer.faction, ("en", "de"))
    mailed = [part for m in sent_to(writer.email) for part in (m.body, *(a for a, _ in m.alternatives))]
    before = len(mail.outbox)
    order = f"message {rival.faction}: {words_written}"
    raw = reply(style, language, width, order, original, original.reply_to[0], writer.name, writer.email)

    with TestCase.captureOnCommitCallbacks(execute=True):
        feed_reply(raw)

    relayed = Event.objects.filter(game=game, type="MessageSent", actor=writer.faction).latest("seq")
    relayed = relayed.payload["text"]
    deliver_outbox()
    (to_rival,) = [m for m in mail.outbox[before:] if m.to == [rival.email]]
    found = words(relayed)
    runs = {tuple(found[i : i + RUN]) for i in range(len(found) - RUN + 1)}
    assert not runs & word_runs(mailed), f"{style}/{language}/{width}: {relayed}"
    assert [line.removeprefix("> ") for line in to_rival.body.splitlines() if line.startswith(">")] == (
        relayed.splitlines()
    )  # the message email quotes the relayed text and nothing else of the writer's
    everything = " ".join(words(to_rival.body + relayed))
    assert not [line for line in secrets if " ".join(words(line)) in everything]
    assert words_written in to_rival.body
    return relayed


def expected(style: str, language: str, writer: Seat) -> str:
    """The writer's words as relayed: what they typed, and what their client added that is theirs."""
    added = {"signed_then_separator": writer.name, "phone_signature": "\n" + LANGUAGES[language].phone}
    return "\n".join(filter(None, [WORDS[language], added.get(style)]))


@pytest.mark.parametrize(("style", "language", "width"), CASES, ids=["-".join(map(str, c)) for c in CASES])
@pytest.mark.django_db
def test_h_screen_a_message_in_a_reply_to_a_turn_email_relays_only_the_writers_words(
    style: str, language: str, width: int
) -> None:
    game = two_player_game(name="Corfu")
    deliver_outbox()
    writer = game.seats.get(faction="athens")
    (welcome,) = sent_to(writer.email)  # the welcome: the screen, the cards and, on turn, the order
    assert "behind your screen" in welcome.body and "Your Mission Cards" in welcome.body

    relayed = answer_with_message(writer, welcome, WORDS[language], style, language, width)

    assert relayed == expected(style, language, writer)


def the_answer_to_an_email_order(game: Game) -> tuple[Seat, EmailMessage]:
    """The answer to an email order tells the position (screen, AP/FP, Mission Cards) too."""
    deliver_outbox()
    (writer,) = seats_to_act(game)
    (turn_email,) = sent_to(writer.email)
    address = turn_email.reply_to[0]
    with TestCase.captureOnCommitCallbacks(execute=True):
        feed_reply(reply("no_header", "pl", 72, "pass", turn_email, address, writer.name, writer.email))
    deliver_outbox()
    answer = sent_to(writer.email)[-1]
    assert "was carried out" in answer.subject and "behind your screen" in answer.body
    return writer, answer


def the_sealed_winter_email(game: Game) -> tuple[Seat, EmailMessage]:
    """The sealed winter order's email names the coins behind the screen and the winter cards."""
    play_until(game, "winter_orders")
    deliver_outbox()
    writer = game.seats.get(faction="athens")
    return writer, [m for m in sent_to(writer.email) if "Behind your screen:" in m.body][-1]


# Each other email that shows a secret, with the width its replies are re-wrapped at.
SECRET_EMAILS = {"answer": (the_answer_to_an_email_order, 72), "sealed": (the_sealed_winter_email, 76)}


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("email", SECRET_EMAILS)
@pytest.mark.django_db
def test_h_screen_a_message_in_a_reply_to_another_email_showing_secrets_relays_only_the_writers_words(
    email: str, style: str
) -> None:
    emailed, width = SECRET_EMAILS[email]
    writer, original = emailed(two_player_game(name="Corfu"))
    language = sorted(LANGUAGES)[(STYLES.index(style) + len(email)) % len(LANGUAGES)]

    relayed = answer_with_message(writer, original, WORDS[language], style, language, width)

    assert relayed == expected(style, language, writer)
