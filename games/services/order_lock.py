"""An order's first statement: lock its game, read the log's head, the seats and their clocks.

submit_order decides on the head it reads with the game's row lock, mails the
game's seats in the same transaction (games/mail/turns.py), and its append runs the seat-clock
projector, which starts from the game's clocks (games/projectors/seat_clocks.py). All of it is read
here in one round trip: the seats, each with its email preference and its clock, come as rows
joined to the locked game's row, so the emails and the clocks follow the seats as they are while
the order holds the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from aegea_pbem.sql_selects import instance_from, joined_columns, joined_rows
from games.eventstore.hashing import GENESIS_HASH
from games.eventstore.log_reading import Tail
from games.eventstore.store import HEAD_OF_GAME
from games.models import DeadlineSettings, Game, NotificationPreference, Seat, SeatClock, Vacation

_PREFERENCE = NotificationPreference._meta
_SETTINGS_PK = DeadlineSettings._meta.concrete_fields.index(DeadlineSettings._meta.pk)
_SEAT_PREFERENCE, _SEAT_GAME = Seat._meta.get_field("preference"), Seat._meta.get_field("game")
# The count of the game's clocks tells whether every clock belongs to a seat (it always does in a
# game created with its seats); if not, the clocks read here are not all and the projector reads them.
# The deadline settings (one row or none) come with the game's columns; the count of the game's
# vacations tells whether there are any to read (there rarely are: then the projector reads them).
# The head and the counts are a one-row table `h` of the game id: as columns of the SELECT list
# PostgreSQL ran their subqueries once per seat, and the statement took ~25% longer.
# With them come the events after the newest state this process has cached of the game (the tail;
# NULL when it holds none, or the head itself): a web process whose state is an order behind, since
# another process took the game's last order, folds them on instead of reading them in a query of
# their own (games/reading/situation.py).
LOCK_HEAD_AND_SEATS = f"""
SELECT h.*,
       {joined_columns(Game, "g")}, {joined_columns(DeadlineSettings, "d")},
       {joined_columns(Seat, "s")}, {joined_columns(NotificationPreference, "p")},
       {joined_columns(SeatClock, "c")}
FROM games_game g
CROSS JOIN (SELECT {HEAD_OF_GAME},
                   (SELECT count(*) FROM {SeatClock._meta.db_table} a WHERE a.game_id = %s),
                   (SELECT count(*) FROM {Vacation._meta.db_table} v WHERE v.game_id = %s),
                   {{tail}}) h
LEFT JOIN {DeadlineSettings._meta.db_table} d ON d.game_id = g.id
LEFT JOIN {Seat._meta.db_table} s ON s.game_id = g.id
LEFT JOIN {_PREFERENCE.db_table} p ON p.{_PREFERENCE.get_field("seat").column} = s.id
LEFT JOIN {SeatClock._meta.db_table} c ON c.game_id = g.id AND c.faction = s.faction
WHERE g.id = %s ORDER BY s.id"""
TAIL = """(SELECT json_agg(json_build_array(e.seq, e.prev_hash, e.hash, e.type, e.payload) ORDER BY e.seq)
                    FROM games_event e WHERE e.game_id = %s AND e.seq > %s)"""
NO_TAIL = "(SELECT NULL WHERE %s = %s)"  # SQLite (the local default) has no json_agg: always NULL
_LOCK_SQL = {pg: LOCK_HEAD_AND_SEATS.format(tail=TAIL if pg else NO_TAIL) for pg in (True, False)}


@dataclass(frozen=True)
class Locked:
    """What the order read with its game's lock."""

    game: Game  # the game's row as locked
    head: tuple[int, str]  # the log's last (seq, hash); hand it to append_events as `locked=`
    seats: list[Seat]  # in id order, each with its preference (and game) cached
    clocks: dict[str, SeatClock] | None  # by faction; None when some clock has no seat
    deadline_settings: DeadlineSettings  # the organiser's, or the defaults (unsaved) as settings_for gives
    has_vacations: bool  # whether the game has any vacation rows (the lock does not read them)
    tail: Tail | None = None  # the events after the `cached_seq` lock_game was given, if any


def lock_game(game_id: int, cached_seq: int | None = None) -> Locked:
    """Lock the game row for the rest of the caller's transaction (FOR UPDATE) and read
    it, its log's head, its seats with their preferences (cached as select_related("preference")
    would, and the game), its seat clocks and its deadline settings, and the events after
    `cached_seq` (the newest state the caller holds of the game) as the tail; Game.DoesNotExist for
    an unknown game."""
    # FOR UPDATE is left out where unsupported (SQLite serialises writers with BEGIN IMMEDIATE).
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    # The game's and its settings' columns are the same in every row: read once, from the first.
    game_end = 5 + len(Game._meta.concrete_fields)
    leading = game_end + len(DeadlineSettings._meta.concrete_fields)
    rows = joined_rows(
        [Seat, NotificationPreference, SeatClock],
        _LOCK_SQL[connection.vendor == "postgresql"] + lock,
        [game_id] * 5 + [cached_seq, game_id],
        leading=leading,
    )
    if not rows:
        raise Game.DoesNotExist(f"game {game_id} does not exist")
    seq, digest, clock_count, vacation_count, tail = rows[0][:5]
    game = instance_from(Game, rows[0][5:game_end])
    settings = rows[0][game_end:leading]
    deadline_settings = (
        DeadlineSettings(game_id=game_id)
        if settings[_SETTINGS_PK] is None
        else instance_from(DeadlineSettings, settings)
    )
    seats, clocks = [], {}
    for *_game, seat, preference, clock in rows:
        if seat is None:  # a game without seats: one row, the game's own
            continue
        _SEAT_PREFERENCE.set_cached_value(seat, preference)  # None: the accessor raises DoesNotExist
        _SEAT_GAME.set_cached_value(seat, game)
        seats.append(seat)
        if clock is not None:
            clocks[clock.faction] = clock
    head = (seq or 0, digest or GENESIS_HASH)
    clocks_or_none = clocks if len(clocks) == clock_count else None
    return Locked(
        game,
        head,
        seats,
        clocks_or_none,
        deadline_settings,
        vacation_count > 0,
        None if tail is None or cached_seq is None else Tail(cached_seq, tail),
    )
