"""Seeding a database with thousands of real games for `make bench-scale`, in minutes.

Every seeded game is a copy of a template: a real game played through submit_order by the bench's
seeded bot (finished, or stopped half-way: a game in progress). A copy is what that game would
be under a new id: its own Game row (same secret seed, so `verifygame` replays its orders), its
seats, its log re-chained with hashes for the new game (games.eventstore.hashing.chain), and the template's
snapshots, read models (summary, progress, seat clocks, vacations, deadline settings) and outbox
rows, with every time shifted by the same amount. Outbox rows go in as sent (a finished game's
mail was delivered long ago); their texts are the template's, links included.

Events go in by COPY; everything else by one INSERT … SELECT per table and batch, from the
template's rows, so no projector or engine fold runs per copy.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import DatabaseError, connection, models, transaction
from django.utils import timezone

from games.eventstore.hashing import canonical_json, chain, format_created
from games.models import (
    DeadlineSettings,
    Event,
    Game,
    GameProgress,
    GameSummary,
    Seat,
    SeatClock,
    Snapshot,
    Vacation,
)

BATCH_GAMES = 200
# Per-game tables copied row for row from the template (game id replaced, times shifted).
COPIED = (Snapshot, GameSummary, GameProgress, SeatClock, Vacation, DeadlineSettings)


@dataclass(frozen=True)
class Template:
    game: Game
    seats: list[Seat]
    # The log as appended: one group per append (one creation time), each event
    # (seq, type, canonical payload JSON, actor, schema_version).
    groups: list[tuple[datetime, list[tuple[int, str, str, str, int]]]]
    first_created: datetime
    last_created: datetime

    @property
    def events(self) -> int:
        return sum(len(events) for _, events in self.groups)


def load_template(game: Game) -> Template:
    """The template's seats and log; payloads as stored text (jsonb's output is not canonical
    JSON, so it is decoded and re-serialised once here, not once per copy)."""
    rows = Event.objects.filter(game=game).order_by("seq")
    groups: list[tuple[datetime, list[tuple[int, str, str, str, int]]]] = []
    for seq, event_type, payload, actor, version, created in rows.values_list(
        "seq", "type", "payload", "actor", "schema_version", "created"
    ):
        if not groups or groups[-1][0] != created:
            groups.append((created, []))
        groups[-1][1].append((seq, event_type, canonical_json(payload), actor, version))
    return Template(game, list(game.seats.order_by("id")), groups, groups[0][0], groups[-1][0])


def _copy_text(text: str) -> str:
    # COPY's text format: backslash, tab and newline are escaped (canonical JSON has no raw
    # control characters, but its own escapes carry backslashes).
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _event_lines(template: Template, game_id: int, shift: timedelta) -> list[str]:
    """The copy's events as COPY lines, chained afresh for `game_id` (verify_chain passes)."""
    lines = []
    prev = "0" * 64
    for created, events in template.groups:
        when = created + shift
        digests = chain(
            prev,
            game_id=game_id,
            first_seq=events[0][0],
            events=[(event_type, payload, actor) for _, event_type, payload, actor, _ in events],
            schema_version=events[0][4],
            created=when,
        )
        stamp = format_created(when)
        for (seq, event_type, payload, actor, version), digest in zip(events, digests, strict=True):
            lines.append(
                f"{game_id}\t{seq}\t{_copy_text(event_type)}\t{_copy_text(payload)}\t{_copy_text(actor)}"
                f"\t{version}\t{stamp}\t{prev}\t{digest}\n"
            )
            prev = digest
    return lines


def _copy_rows_sql(model: type[models.Model]) -> str:
    """INSERT … SELECT copying the template's rows of `model` to every game in scale_map."""
    columns, values = [], []
    for field in model._meta.concrete_fields:
        if field.primary_key and field.column != "game_id":
            continue  # a serial id: the copy gets its own
        column = connection.ops.quote_name(field.column)  # e.g. Vacation's "end"
        columns.append(column)
        if field.column == "game_id":
            values.append("m.game_id")
        elif isinstance(field, models.DateTimeField):
            values.append(f"t.{column} + m.shift")
        else:
            values.append(f"t.{column}")
    table = model._meta.db_table
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)}"
        f" FROM scale_map m JOIN {table} t ON t.game_id = m.template_id"
    )


# Outbox rows: the seat id mapped to the copy's seat of the same faction (the organiser's rows
# keep theirs), delivered at their creation time.
OUTBOX_SQL = """
INSERT INTO notifications_outbox (game_id, seq, seat_id, kind, to_email, language, template, context,
    subject, body_text, body_html, reply_to, headers, status, attempts, last_error, created, sent_at,
    message_id)
SELECT m.game_id, o.seq, COALESCE(ns.id, o.seat_id), o.kind, o.to_email, o.language, o.template, o.context,
    o.subject, o.body_text, o.body_html, o.reply_to, o.headers, 'sent', 1, '', o.created + m.shift,
    o.created + m.shift, ''
FROM scale_map m
JOIN notifications_outbox o ON o.game_id = m.template_id
LEFT JOIN games_seat ts ON ts.id = o.seat_id AND ts.game_id = m.template_id
LEFT JOIN games_seat ns ON ns.game_id = m.game_id AND ns.faction = ts.faction
"""


def _shift(template: Template, index: int, now: datetime) -> timedelta:
    """Finished games started over the past years; games in progress moved on minutes ago, so
    their deadlines lie ahead as a live game's do."""
    if template.game.status == Game.Status.ENDED:
        return now - timedelta(days=1000) + timedelta(minutes=30 * index) - template.first_created
    return now - timedelta(minutes=1 + index % 600) - template.last_created


def seed_games(templates: Sequence[Game], games: int, batch: int = BATCH_GAMES) -> int:
    """Add `games` copies of the templates (in turn) to the database; returns the events written."""
    loaded = [load_template(game) for game in templates]
    now = timezone.now()
    written = 0
    for start in range(0, games, batch):
        plan = [(loaded[n % len(loaded)], n) for n in range(start, min(start + batch, games))]
        with transaction.atomic(), connection.cursor() as cursor:
            new_games = Game.objects.bulk_create(
                [
                    Game(
                        name=f"scale {n}",
                        seed=t.game.seed,
                        language=t.game.language,
                        status=t.game.status,
                        organiser_id=t.game.organiser_id,
                    )
                    for t, n in plan
                ]
            )
            Seat.objects.bulk_create(
                [
                    Seat(
                        game=game,
                        faction=seat.faction,
                        name=seat.name,
                        email=seat.email,
                        language=seat.language,
                        language_chosen=seat.language_chosen,
                        token_version=seat.token_version,
                    )
                    for game, (t, _) in zip(new_games, plan, strict=True)
                    for seat in t.seats
                ]
            )
            shifts = [_shift(t, n, now) for t, n in plan]
            raw = cursor.cursor  # psycopg's own cursor, for COPY
            columns = "game_id, seq, type, payload, actor, schema_version, created, prev_hash, hash"
            with raw.copy(f"COPY games_event ({columns}) FROM STDIN") as copy:
                for game, (t, _), shift in zip(new_games, plan, shifts, strict=True):
                    copy.write("".join(_event_lines(t, game.pk, shift)))
                    written += t.events
            cursor.execute(
                "CREATE TEMP TABLE scale_map (game_id bigint PRIMARY KEY, template_id bigint, shift interval)"
                " ON COMMIT DROP"
            )
            with raw.copy("COPY scale_map (game_id, template_id, shift) FROM STDIN") as copy:
                for game, (t, _), shift in zip(new_games, plan, shifts, strict=True):
                    copy.write_row((game.pk, t.game.pk, shift))
            for model in COPIED:
                cursor.execute(_copy_rows_sql(model))
            cursor.execute(OUTBOX_SQL)
    with connection.cursor() as cursor:
        # What autovacuum does to freshly loaded tables; the timed orders then see settled statistics.
        cursor.execute("VACUUM ANALYZE")
        # And the gigabytes just loaded are written out now, not by the checkpointer while orders
        # are timed (a database that grew over months has no such backlog).
        # Without superuser (or pg_checkpoint) rights the checkpointer does it later.
        with contextlib.suppress(DatabaseError):
            cursor.execute("CHECKPOINT")
    return written
