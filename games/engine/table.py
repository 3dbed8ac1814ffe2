"""Events about the table, not the board: messages, vacations, missed deadlines, substitutes.

They change no state (the rules never read them), so folding them is a no-op; they are in
the log because every player may see them (a vacation, a missed deadline, a new player in a
seat) or because they are part of the game's record (messages, shown only to their sender
and recipients until the game ends: `message_visible`). The service appends them; the
engine only has to know that they exist.
"""

from __future__ import annotations

from typing import Any

from .fold import applies
from .state import GameState

MESSAGE_SENT = "MessageSent"
VACATION_TAKEN = "VacationTaken"
DEADLINE_PASSED = "DeadlinePassed"
SEAT_HANDED_OVER = "SeatHandedOver"
TABLE_EVENTS = (MESSAGE_SENT, VACATION_TAKEN, DEADLINE_PASSED, SEAT_HANDED_OVER)


def message_visible(payload: dict[str, Any], viewer: str | None, game_over: bool = False) -> bool:
    """A message is read by its sender and its recipients; by everyone once the game has ended."""
    return game_over or viewer == payload.get("player") or viewer in payload.get("to", [])


def _no_op(state: GameState, payload: dict[str, Any]) -> None:
    """Table events leave the game's state as it is."""


for _type in TABLE_EVENTS:
    applies(_type)(_no_op)
