"""The daily cap per rival on messages typed on the player page (docs/long-games.md "Messages",
games/services/message_caps.py): 60 a day to one rival by default, beside the per-minute limit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from games.models import Event
from games.reading.links import link_token
from games.services.game_setup import PlayerSpec, create_game
from games.services.messages import send_message
from notifications.models import Outbox
from notifications.services import deliver_outbox

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
PLAYERS = [
    PlayerSpec("Ana", "ana@example.com", "athens"),
    PlayerSpec("Ben", "ben@example.com", "sparta"),
    PlayerSpec("Cleo", "cleo@example.com", "corinth"),
]
CAPPED = {
    "en": (
        "You have sent 60 messages to Sparta in the last 24 hours, the most one rival may get, so this"
        " one was not sent. You can write to Sparta again in 21 h 0 min."
    ),
    "de": (
        "Du hast Sparta binnen 24 Stunden 60 Nachrichten geschickt, mehr darf ein Rivale nicht bekommen;"
        " darum wurde diese nicht gesendet. Du kannst Sparta in 21 Std. 0 Min. wieder schreiben."
    ),
}
TO_ALL_CAPPED = {
    "en": (
        "This message was sent to no one: in the last 24 hours you have sent Sparta the most messages"
        " one rival may get (60). You can send it to all of them again in 21 h 0 min; to the others you"
        " can write now, one by one."
    ),
    "de": (
        "Diese Nachricht ging an niemanden: Du hast Sparta binnen 24 Stunden so viele Nachrichten"
        " geschickt, wie ein Rivale bekommen darf (60). An alle kannst du sie in 21 Std. 0 Min. wieder"
        " schicken; den anderen kannst du jetzt einzeln schreiben."
    ),
}


@pytest.fixture
def game(settings):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    settings.RATE_LIMITS = {"messages": (60, 86400)}  # the default's cap; the rest off, as in the suite
    with time_machine.travel(T0, tick=False):
        created = create_game(PLAYERS, name="Chatty game")
    deliver_outbox()
    mail.outbox.clear()
    return created


def sixty_to_sparta(game) -> None:
    """Athens writes Sparta 30 messages at 9:00 and 30 at 11:00."""
    athens = game.seats.get(faction="athens")
    for hour in (0, 2):
        with time_machine.travel(T0 + timedelta(hours=hour), tick=False):
            for n in range(30):
                send_message(athens, "sparta", f"letter {hour}.{n}")


def post_message(client, game, to: str, text: str, language: str):
    athens = game.seats.get(faction="athens")
    athens.language = language
    athens.save(update_fields=["language"])
    url = f"/play/{game.pk}/{link_token(athens)}/message/"
    return client.post(url, {"to": to, "text": text}, follow=True)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_61st_message_of_a_day_to_one_rival_is_refused_with_an_honest_wait(game, client, language):
    """Finding: no daily cap on relayed messages. One player could mail a rival 30 messages a
    minute, all day and every day. Now the 61st in 24 hours to the same rival is refused, in the
    sender's language, saying when they can write again: when the oldest of the 60 is a day old."""
    sixty_to_sparta(game)
    before = (Event.objects.count(), Outbox.objects.count())

    with time_machine.travel(T0 + timedelta(hours=3), tick=False):
        page = post_message(client, game, "sparta", "one more", language)

    assert CAPPED[language] in page.content.decode()
    assert (Event.objects.count(), Outbox.objects.count()) == before  # nothing appended, nothing mailed
    assert not Event.objects.filter(payload__text="one more").exists()


def test_the_cap_is_per_rival_and_frees_as_the_oldest_messages_age(game, client):
    """Corinth can still be written to; a day after the first 30, 30 more fit, and no more."""
    sixty_to_sparta(game)

    with time_machine.travel(T0 + timedelta(hours=3), tick=False):
        post_message(client, game, "corinth", "to Corinth", "en")
    with time_machine.travel(T0 + timedelta(hours=24, seconds=1), tick=False):
        post_message(client, game, "sparta", "a day later", "en")
        with time_machine.travel(T0 + timedelta(hours=24, seconds=2), tick=False):
            for n in range(29):
                send_message(game.seats.get(faction="athens"), "sparta", f"more {n}")
        refused = post_message(client, game, "sparta", "one too many", "en")

    sent = set(Event.objects.filter(type="MessageSent").values_list("payload__text", flat=True))
    assert {"to Corinth", "a day later"} <= sent and "one too many" not in sent
    assert "You can write to Sparta again in 2 h 0 min." in refused.content.decode()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_message_to_all_is_refused_whole_naming_the_rival_at_the_cap(game, client, language):
    """A message to all counts for each rival: Sparta at the cap refuses it for Corinth too, and
    the refusal names Sparta."""
    sixty_to_sparta(game)
    before = (Event.objects.count(), Outbox.objects.count())

    with time_machine.travel(T0 + timedelta(hours=3), tick=False):
        page = post_message(client, game, "all", "to everyone", language)

    assert TO_ALL_CAPPED[language] in page.content.decode()
    assert (Event.objects.count(), Outbox.objects.count()) == before
