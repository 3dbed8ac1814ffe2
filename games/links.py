"""Signed per-player links: the only key a player needs (issue 4).

A link token is `django.core.signing.dumps` of (game id, seat id, seat link version) with a
salt of its own and a timestamp. It cannot be forged without SECRET_KEY, it expires after
LINK_MAX_AGE, it opens only its own game and seat, and raising the seat's `token_version`
revokes every link issued before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import connections
from django.db.models import F, Field, Model
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .models import Game, Seat

SALT = "aegeapolis.games.seat-link"
DEFAULT_MAX_AGE = timedelta(days=30)


class LinkError(Exception):
    """A link that opens nothing. `status` is the HTTP status to answer with; `reason` says why."""

    REASONS = {
        "forged": (403, _("This link is not valid. Please use the link from your latest email.")),
        "expired": (403, _("This link has expired. The next email about this game brings a fresh one.")),
        "revoked": (403, _("This link has been withdrawn by the organiser.")),
        "unknown": (404, _("This link does not belong to this game.")),
    }

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.status, self.message = self.REASONS[reason]
        super().__init__(reason)


def max_age() -> timedelta:
    return getattr(settings, "LINK_MAX_AGE", DEFAULT_MAX_AGE)


def link_token(seat: Seat) -> str:
    """The signed token naming this seat of this game at its current link version."""
    payload = {"g": seat.game_id, "s": seat.pk, "v": seat.token_version}
    return signing.dumps(payload, salt=SALT, compress=False)


def seat_url(seat: Seat, token: str | None = None) -> str:
    """The absolute URL of the seat's player page (for emails and the command line)."""
    path = reverse("games:play", args=[seat.game_id, token or link_token(seat)])
    return f"{settings.SITE_URL}{path}"


def resolve_link(token: str, game_id: int) -> Seat:
    """The seat a token opens in game `game_id`, or LinkError saying why it opens nothing."""
    try:
        payload: Any = signing.loads(token, salt=SALT, max_age=max_age())
    except signing.SignatureExpired:
        raise LinkError("expired") from None
    except signing.BadSignature:
        raise LinkError("forged") from None
    if not isinstance(payload, dict) or not all(isinstance(payload.get(k), int) for k in "gsv"):
        raise LinkError("forged")
    if payload["g"] != game_id:
        raise LinkError("unknown")
    seat = _seat_with_game(payload["s"], game_id)
    if seat is None:
        raise LinkError("unknown")
    if seat.token_version != payload["v"]:
        raise LinkError("revoked")
    return seat


def revoke_links(seat: Seat) -> None:
    """Withdraw every link issued to `seat` so far; its next email carries a new one."""
    Seat.objects.filter(pk=seat.pk).update(token_version=F("token_version") + 1)
    seat.refresh_from_db(fields=["token_version"])


Converter = Callable[[Any, Any, Any], Any]


@functools.cache
def _seat_query(alias: str) -> tuple[str, list[tuple[Field, list[Converter]]]]:
    """The SQL of the seat-and-game lookup on database `alias`, and each column's field and
    converters. Every API call and page opened by a link runs it; compiled by the ORM each time
    it cost ~0.8 ms of CPU (more than the query itself), so it is written out once per process
    from the models' fields, and stays in step with them."""
    conn = connections[alias]
    q = conn.ops.quote_name
    seat_table, game_table = q(Seat._meta.db_table), q(Game._meta.db_table)
    fields = [*Seat._meta.concrete_fields, *Game._meta.concrete_fields]
    columns = ", ".join(f"{q(f.model._meta.db_table)}.{q(f.column)}" for f in fields)
    seat_pk, seat_game = q(Seat._meta.pk.column), q(Seat._meta.get_field("game").column)
    sql = (
        f"SELECT {columns} FROM {seat_table} INNER JOIN {game_table}"
        f" ON {seat_table}.{seat_game} = {game_table}.{q(Game._meta.pk.column)}"
        f" WHERE {seat_table}.{seat_pk} = %s AND {seat_table}.{seat_game} = %s"
    )
    # What the ORM would apply to each value read (e.g. SQLite's text to datetime and 0/1 to bool).
    converted = []
    for field in fields:
        col = field.get_col(field.model._meta.db_table)
        converted.append((col, conn.ops.get_db_converters(col) + field.get_db_converters(conn)))
    return sql, converted


def _seat_with_game(seat_id: int, game_id: int, alias: str = "default") -> Seat | None:
    """Seat `seat_id` of game `game_id` with its game loaded (as select_related("game")), or None."""
    sql, converted = _seat_query(alias)
    conn = connections[alias]
    with conn.cursor() as cursor:
        cursor.execute(sql, [seat_id, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = []
    for value, (col, converters) in zip(row, converted, strict=True):
        for converter in converters:
            value = converter(value, col, conn)
        values.append(value)
    split = len(Seat._meta.concrete_fields)
    seat = _from_db(Seat, alias, values[:split])
    Seat._meta.get_field("game").set_cached_value(seat, _from_db(Game, alias, values[split:]))
    return seat


def _from_db(model: type[Model], alias: str, values: list[Any]) -> Any:
    return model.from_db(alias, [f.attname for f in model._meta.concrete_fields], values)
