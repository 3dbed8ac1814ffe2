"""An order's first statement: lock its game, read the log's head and the seats it may mail.

submit_order decides on the head it reads with the game's row lock (store.lock_head) and mails
the game's seats in the same transaction (games/notify.py). Both are read here in one round trip:
the seats, with their email preferences, come as rows joined to the locked game's row, so the
emails follow the seats as they are while the order holds the game.
"""

from __future__ import annotations

from django.db import connection

from aegea_pbem.sql_selects import joined_columns, joined_rows

from .hashing import GENESIS_HASH
from .models import Game, NotificationPreference, Seat

_PREFERENCE = NotificationPreference._meta
_SEAT_PREFERENCE, _SEAT_GAME = Seat._meta.get_field("preference"), Seat._meta.get_field("game")
LOCK_HEAD_AND_SEATS = f"""
SELECT g.status,
       (SELECT e.seq FROM games_event e WHERE e.game_id = g.id ORDER BY e.seq DESC LIMIT 1),
       (SELECT e.hash FROM games_event e WHERE e.game_id = g.id ORDER BY e.seq DESC LIMIT 1),
       {joined_columns(Seat, "s")}, {joined_columns(NotificationPreference, "p")}
FROM games_game g
LEFT JOIN {Seat._meta.db_table} s ON s.game_id = g.id
LEFT JOIN {_PREFERENCE.db_table} p ON p.{_PREFERENCE.get_field("seat").column} = s.id
WHERE g.id = %s ORDER BY s.id"""


def lock_head_and_seats(game: Game) -> tuple[tuple[int, str], list[Seat]]:
    """Lock the game row for the rest of the caller's transaction (as store.lock_head does; hand the
    head to append_events as `locked=`) and read its log's head (seq, hash) and its seats, each with
    its preference cached as select_related("preference") would; `game.status` is refreshed."""
    # FOR UPDATE is left out where unsupported (SQLite serialises writers with BEGIN IMMEDIATE).
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    rows = joined_rows([Seat, NotificationPreference], LOCK_HEAD_AND_SEATS + lock, [game.pk], leading=3)
    if not rows:
        raise Game.DoesNotExist(f"game {game.pk} does not exist")
    status, seq, digest = rows[0][:3]
    seats = []
    for *_head, seat, preference in rows:
        if seat is None:  # a game without seats: one row, the game's own
            continue
        _SEAT_PREFERENCE.set_cached_value(
            seat, preference
        )  # None: the accessor raises, as after select_related
        _SEAT_GAME.set_cached_value(seat, game)
        seats.append(seat)
    game.status = status
    return (seq or 0, digest or GENESIS_HASH), seats
