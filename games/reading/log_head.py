"""The log's head as every email and player page tells it: a witness the player keeps (docs/fairness.md,
"Witnessed heads").

A head is the last event's seq and its pin, HMAC-SHA256 under the game's seed of the event's hash
(games/reading/export.py, `chain_pin`), not the hash itself: before the end a hash would give away
the secrets of the events it covers (a redacted income's coins can be hashed candidate by candidate,
docs/export.md), while the pin tells nothing until the seed is revealed at the end (H-END). Then
anyone holding a head recomputes it from the final export's hashes and seed, and a log rewritten
after the head was told no longer passes through it: its hashes, and so its pins, differ.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date
from typing import Any

from games.models import Event, Game, PublishedHead
from games.reading.export import chain_pin

HEADER = "X-Aegea-Log-Head"
SHORT_DIGITS = 16  # what the one-line footer shows of the pin: 64 bits, too many to forge a match for


@dataclass(frozen=True)
class LogHead:
    game_id: int
    seq: int
    pin: str  # 64 hex digits

    @property
    def short(self) -> str:
        """ "431·c3f09a2e1b2c3d4e…": the footer's form, which a player can paste into a check."""
        return f"{self.seq}·{self.pin[:SHORT_DIGITS]}…"

    @property
    def header(self) -> str:
        """The machine-readable form: `game=12; seq=431; pin=<64 hex digits>`."""
        return f"game={self.game_id}; seq={self.seq}; pin={self.pin}"

    def told(self) -> dict[str, Any]:
        """What a template shows of it (JSON, for an email's stored context)."""
        return {"game": self.game_id, "seq": self.seq, "short": self.short}


# The head an order has just appended, while its emails are written (head_known): no query for it.
_known: ContextVar[LogHead | None] = ContextVar("log_head_known", default=None)


@contextmanager
def head_known(game: Game, seq: int, digest: str) -> Iterator[None]:
    """Inside the block `log_head(game)` is event `seq` with hash `digest`, which the caller has just
    appended in the transaction it holds (submit_order): the order's emails read no head of their own,
    which would cost the order a round trip of its own in the middle of its pipelined writes."""
    token = _known.set(LogHead(game.pk, seq, chain_pin(game.seed, digest)))
    try:
        yield
    finally:
        _known.reset(token)


def log_head(game: Game | int) -> LogHead | None:
    """The head of the game's log now (None while it has no event): the pin of its last event."""
    game_id = game if isinstance(game, int) else game.pk
    known = _known.get()
    if known is not None and known.game_id == game_id:
        return known
    rows = Event.objects.filter(game_id=game_id).order_by("-seq")
    row = rows.values_list("seq", "hash", "game__seed").first()
    if row is None:
        return None
    seq, digest, seed = row
    return LogHead(game_id, seq, chain_pin(seed, digest))


def published_lines(since: date | None = None) -> list[str]:
    """The public list of published heads (games/services/published_heads.py), oldest first, each
    `2026-12-03 game=12; seq=431; pin=<64 hex digits>`; from day `since` on, when given."""
    rows = PublishedHead.objects.order_by("id")
    if since is not None:
        rows = rows.filter(day__gte=since)
    return [row.line() for row in rows]
