"""Outbox rows for the notifications tests: a turn email's context, written as the game writes it."""

from __future__ import annotations

from notifications.models import Outbox
from notifications.services import enqueue

TURN_CONTEXT = {
    "game_name": "Game 7",
    "player_name": "Ana",
    "faction_name": "Athens",
    "year_label": "431 BC",
    "phase_label": "action round 1",
    "sealed": False,
    "phase": "actions",
    "action_round": 1,
    "happenings": ["Sparta passed."],
    "link": "http://testserver/play/7/abc/",
}


def enqueue_turn(
    seq: int = 3, seat_id: int = 11, to_email: str = "ana@example.com", kind: str = "turn", **extra
) -> Outbox:
    return enqueue(
        game_id=7,
        seq=seq,
        seat_id=seat_id,
        kind=kind,
        to_email=to_email,
        language=extra.pop("language", "en"),
        template="turn",
        context={**TURN_CONTEXT, **extra},
    )
