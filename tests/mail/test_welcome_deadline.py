"""The welcome to the player on turn names their deadline, as every later turn email does.

A new user's walk: the demo's first mover read "It is your turn." with no deadline, whereas each
turn email after it says "Your deadline: …". Asserted on the welcomes as sent (text and HTML), in
English and German; the player not on turn owes nothing yet, so their welcome names no deadline.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.core import mail

from games.engine import Pass
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from notifications.services import deliver_outbox
from tests.order_loop_support import seats_to_act

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 3, 17, 12, tzinfo=UTC)
SAID = {"en": "Your deadline: {}.", "de": "Deine Frist: {}."}
DUE = {"en": "5 Dec 2026, 17:12 (UTC)", "de": "5.12.2026, 17:12 (UTC)"}  # the default clock: 48 hours


@pytest.fixture
def mailbox(settings):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []
    return mail.outbox


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_welcome_to_the_player_on_turn_names_their_deadline_as_the_turn_email_does(mailbox, language):
    players = [
        PlayerSpec("Ana", "ana@example.com", "athens", language=language),
        PlayerSpec("Ben", "ben@example.com", "sparta", language=language),
    ]
    with time_machine.travel(T0, tick=False):
        game = create_game(players)
    deliver_outbox()
    (first,) = seats_to_act(game)
    welcomes = {m.to[0]: m for m in mailbox if m.tags[0] == "welcome"}
    assert len(welcomes) == 2
    on_turn, waiting = welcomes.pop(first.email), next(iter(welcomes.values()))
    line = SAID[language].format(DUE[language])
    assert line in on_turn.body
    assert f"<strong>{line}</strong>" in on_turn.alternatives[0][0]
    deadline_word = SAID[language].split(":")[0]
    assert deadline_word not in waiting.body and deadline_word not in waiting.alternatives[0][0]

    # The turn email words it the same way: one deadline, one wording.
    with time_machine.travel(T0, tick=False):
        submit_order(game, first, Pass(first.faction), load_game(game).seq)
    deliver_outbox()
    (turn,) = [m for m in mailbox if m.tags[0] == "turn"]
    assert SAID[language].format(DUE[language]) in turn.body
