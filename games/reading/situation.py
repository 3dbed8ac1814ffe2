"""Where a game stands, as one player may know it: the read side of the order loop (docs/order-loop.md).

Loading the state, who must act now, what happened since a player's last order, and the
player's screen for the page and the JSON API. Nothing here writes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.db import connection
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from aegea_pbem.sql_cursor import kept_cursor
from games import engine
from games.engine import GameState
from games.engine.commands import Command
from games.engine.table import TABLE_EVENTS
from games.eventstore import statecache
from games.eventstore.hashing import GENESIS_HASH
from games.eventstore.log_reading import LoadedState, Tail, load_state
from games.models import Event, Game
from games.words.names import faction_name, phase_label, year_label
from games.words.narration import UNTOLD, describe

HAPPENINGS_LIMIT = 40


def load_game(
    game: Game,
    up_to_seq: int | None = None,
    *,
    head: tuple[int, str] | None = None,
    tail: Tail | None = None,
) -> LoadedState[GameState]:
    """The game's state at its head (or at `up_to_seq`): from this process's state cache when it
    holds that exact log prefix, else from a cached older state plus the events after it, else from
    the newest snapshot and the events after it (games/eventstore/statecache.py). A game this process holds
    nothing of loads in one query (head, snapshot and events together); otherwise the head comes
    first, to look it up in the cache, unless the caller has just read it under the game's lock
    (`head`: the (seq, hash) submit_order read with its game's lock, games/services/order_lock.py),
    and the events after a cached state are read unless they came with the head (`tail`)."""
    if not statecache.holds(game.pk):
        statecache.stats["misses"] += 1
        loaded = _load_from_store(game, up_to_seq)
    else:
        seq, digest = head if head is not None and up_to_seq is None else head_at(game, up_to_seq)
        if up_to_seq is None:  # the head itself: entries past it are another log's (a reused id)
            statecache.forget_off_log(game.pk, seq, digest)
        cached = statecache.get(game.pk, seq, digest)
        if cached is not None:
            statecache.stats["hits"] += 1
            return LoadedState(cached, seq, seq, 0, digest)
        loaded = _fold_from_cached(game, seq, digest, tail)
        if loaded is None:
            statecache.stats["misses"] += 1
            loaded = _load_from_store(game, seq)
    statecache.put(game.pk, loaded.seq, loaded.hash, loaded.state)
    return loaded


def _load_from_store(game: Game, up_to_seq: int | None) -> LoadedState[GameState]:
    return load_state(
        game,
        initial=GameState,
        fold_from=engine.fold_from,
        from_dict=GameState.from_dict,
        up_to_seq=up_to_seq,
    )


@dataclass(frozen=True)
class _Decided:
    """An order's batch and the state after it, as submit_order computed them before appending."""

    game_id: int
    seq: int  # the seq the batch was decided on
    events: list[tuple[str, Any]]
    state: GameState


# Per thread (gunicorn gthread, Celery): the batch submit_order is appending, and the state after
# the last batch cached_state_after answered for (the progress and seat-clock projectors both ask).
_decided: ContextVar[_Decided | None] = ContextVar("decided", default=None)
_after: ContextVar[tuple[tuple[int, int, str], GameState] | None] = ContextVar("after", default=None)


@contextmanager
def deciding(game: Game, seq: int, events: Sequence[engine.Event], after: GameState) -> Iterator[None]:
    """While submit_order appends `events` (decided on event `seq`), the projectors may take `after`
    as the state after them instead of unpickling the cached state before them and folding again."""
    token = _decided.set(_Decided(game.pk, seq, [(e.type, e.payload) for e in events], after))
    after_token = _after.set(None)
    try:
        yield
    finally:
        # `after` goes back to submit_order's caller: no later projection may read it from here.
        _after.reset(after_token)
        _decided.reset(token)


def cached_state_after(game: Game, rows: Sequence[Event]) -> GameState | None:
    """The state after event rows just appended (a projector's view), when this process knows the
    state right before them: that state plus their fold, with no query; else None. The state is
    shared by the projectors of this append: read it, never change it."""
    first, last = rows[0], rows[-1]
    key = (game.pk, last.seq, last.hash)
    known = _after.get()
    if known is not None and known[0] == key:
        return known[1]
    decided = _decided.get()
    if (
        decided is not None
        and (decided.game_id, decided.seq) == (game.pk, first.seq - 1)
        and decided.events == [(row.type, row.payload) for row in rows]
    ):
        state = decided.state
    else:
        before = statecache.get(game.pk, first.seq - 1, first.prev_hash)
        if before is None:
            return None
        state = engine.fold_from(before, [engine.Event(row.type, row.payload) for row in rows])
    # The next order of this game then starts from this state instead of folding (one pickling).
    statecache.put(game.pk, last.seq, last.hash, state)
    _after.set((key, state))
    return state


def _fold_from_cached(
    game: Game, seq: int, digest: str, tail: Tail | None = None
) -> LoadedState[GameState] | None:
    """Fold the events after the newest cached state below `seq`, if that state is on this log: the
    `tail` when it holds the events after that state (read with the head), else read here."""
    near = statecache.nearest(game.pk, seq)
    if near is None:
        return None
    start_seq, start_hash, state = near
    if tail is not None and tail.after_seq == start_seq and tail.events:
        # (seq, hash, type, payload) rows from the cached state's on, as the query below reads them;
        # the cached state is on this log when the first event after it names its hash as its
        # predecessor (the hash chain: docs/fairness.md).
        first_prev = tail.events[0][1]
        rows = [(start_seq, first_prev, "", None), *((s, h, t, p) for s, _prev, h, t, p in tail.events)]
    else:
        with kept_cursor() as cursor:
            cursor.execute(
                "SELECT seq, hash, type, payload FROM games_event WHERE game_id = %s AND seq >= %s"
                " AND seq <= %s ORDER BY seq",
                [game.pk, start_seq, seq],
            )
            rows = cursor.fetchall()
    if not rows or rows[0][:2] != (start_seq, start_hash):
        # The cached state belongs to an append that was rolled back, or to another game that
        # had this id: it can never be on this log, so it is dropped.
        statecache.discard(game.pk, start_seq, start_hash)
        return None
    if rows[-1][:2] != (seq, digest):
        return None  # the log moved on since its head was read
    events = [engine.Event(t, json.loads(p) if isinstance(p, str) else p) for _, _, t, p in rows[1:]]
    statecache.stats["near_hits"] += 1
    return LoadedState(engine.fold_from(state, events), seq, start_seq, len(events), digest)


def head_at(game: Game, up_to_seq: int | None = None) -> tuple[int, str]:
    """The (seq, hash) of the game's last event, or of the last one at or before `up_to_seq`."""
    sql = "SELECT seq, hash FROM games_event WHERE game_id = %s"
    params: list[int] = [game.pk]
    if up_to_seq is not None:
        sql += " AND seq <= %s"
        params.append(up_to_seq)
    with kept_cursor() as cursor:
        cursor.execute(sql + " ORDER BY seq DESC LIMIT 1", params)
        row = cursor.fetchone()
    return (row[0], row[1]) if row else (0, GENESIS_HASH)


def must_act(state: GameState) -> list[str]:
    """The factions owing an order now: the player on turn, or everyone without a sealed winter order."""
    if state.phase == "winter_orders":
        return [f for f in state.seat_order if f not in state.winter_orders]
    on_turn = state.player_on_turn
    return [on_turn] if on_turn else []


def is_over(game: Game) -> bool:
    """H-END: once the game has ended, everyone sees everything (engine.event_view)."""
    return game.status == Game.Status.ENDED


# H-TRADE: an answer to a trade offer is given at any moment, on another's turn, and costs no action:
# it is not one's turn, so "since your last turn" does not start at it (else answering an offer
# would hide everything that happened before the answer).
NOT_TURNS = ("accept_offer", "decline_offer")


def last_turn_start(game: Game, viewer: str | None, up_to_seq: int | None = None) -> int:
    """The seq where `viewer`'s last turn began (an "OrderGiven" that is not an answer to a trade
    offer, NOT_TURNS, nor an order they took back, H-TAKEBACK); 1 when they have given none."""
    rows = Event.objects.filter(game=game, type=engine.ORDER_GIVEN, actor=viewer).exclude(
        payload__command__kind__in=NOT_TURNS
    )
    if up_to_seq is not None:
        rows = rows.filter(seq__lte=up_to_seq)
    start = rows.order_by("-seq").values_list("seq", flat=True).first()
    while start is not None and _taken_back(game.pk, start, up_to_seq):
        start = rows.filter(seq__lt=start).order_by("-seq").values_list("seq", flat=True).first()
    return start or 1


def _taken_back(game_id: int, order_seq: int, up_to_seq: int | None) -> bool:
    """H-TAKEBACK: whether the order at `order_seq` was taken back (by `up_to_seq`, when given)."""
    later = Event.objects.filter(
        game_id=game_id, seq__gt=order_seq, type=engine.ORDER_TAKEN_BACK, payload__order_seq=order_seq
    )
    return (later.filter(seq__lte=up_to_seq) if up_to_seq is not None else later).exists()


def happenings(game: Game, viewer: str | None, up_to_seq: int | None = None) -> list[str]:
    """The events since `viewer`'s previous order (with its outcome), in plain words as they may know them."""
    return told_happenings(game.pk, viewer, up_to_seq, over=is_over(game))


# What a player's order itself did, as they chose it (engine/actions.py, expansion.py, movement.py...):
# they know it, so "since your last turn" does not tell it back to them. What it drew or brought about
# (tiles drawn, a battle and its dice, a conquest, the next player's turn, a scoring) is still told, and
# so is a sealed winter order (H-WINTER-ORDERS): the sealer alone reads what it commits, and after a
# second seal which one counts (H-TAKEBACK).
ORDER_ITSELF = frozenset(
    {
        "PlayerPassed",
        "PhalanxesRecruited",
        "FortificationBuilt",
        "PolisFounded",
        "TradeLinkBuilt",
        "TilesDiscarded",
        "GovernmentReformed",
        "BuilderRecruited",
        "UnitsMoved",
        "NeutralTraded",
        "OfferMade",
    }
)

Row = tuple[int, str, dict[str, Any]]  # (seq, type, payload)


def since_last_turn(rows: Sequence[Row], viewer: str | None, start: int | None) -> list[Row]:
    """The told events of "since your last turn" (`rows`: the log from `start`, the viewer's last
    order, on, oldest first), without the noise around the order:

    - the viewer's own order (ORDER_ITSELF, when they gave it themself: a default order given for
      them after a deadline is told, since they did not choose it);
    - H-TAKEBACK: the events of an order that was taken back: the take-back's line says which order
      it was (words/take_back.py); the table's events between stay. Without this the same turn was
      told as beginning twice ("Action round 1: Athens to play." before and after the take-back).
    """
    undone = [(p["order_seq"], seq) for seq, kind, p in rows if kind == engine.ORDER_TAKEN_BACK]
    given = next((p for seq, kind, p in rows if seq == start and kind == engine.ORDER_GIVEN), None)
    skipping_own = given is not None and given.get("by", "player") == "player"
    kept = []
    for seq, kind, payload in rows:
        if kind in UNTOLD:
            continue
        own = kind in ORDER_ITSELF and payload.get("player") == viewer and not payload.get("automatic")
        if skipping_own and own:
            continue
        skipping_own = False  # only the order's own first events, not what came after
        if kind not in TABLE_EVENTS and any(first <= seq < back for first, back in undone):
            continue
        kept.append((seq, kind, payload))
    return kept


def told_happenings(game_id: int, viewer: str | None, up_to_seq: int | None, over: bool) -> list[str]:
    """happenings, told as before (`over` False) or after (True) the game's end (H-END)."""
    before: int | None = None
    while True:
        start, rows = _since_rows(game_id, viewer, up_to_seq, before)
        # H-TAKEBACK: an order taken back is no turn of its player: "since your last turn" starts at
        # the order before it (a take-back is of the game's last order, so this is rare and short).
        if start is None or not any(
            kind == engine.ORDER_TAKEN_BACK and p.get("order_seq") == start for _, kind, p in rows
        ):
            break
        before = start
    return [
        describe(kind, payload, viewer, over, game=game_id)
        for _, kind, payload in since_last_turn(rows, viewer, start)
    ]


def _since_rows(
    game_id: int, viewer: str | None, up_to_seq: int | None, before: int | None
) -> tuple[int | None, list[Row]]:
    """The viewer's last order's seq (before `before` when given; None for a spectator or when they
    have given none) and the newest HAPPENINGS_LIMIT told events from it on, with that order, oldest first."""
    untold = sorted(UNTOLD)
    upper = " AND seq <= %s" if up_to_seq is not None else ""
    bound = [up_to_seq] if up_to_seq is not None else []
    marks = ", ".join(["%s"] * len(untold))
    start: int | None = None
    if viewer is not None:
        # From the start of the viewer's last order (last_turn_start): its outcome (dice, scoring
        # that it triggered) is part of what they need to read, then everything after.
        earlier = " AND seq < %s" if before is not None else ""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT seq FROM games_event WHERE game_id = %s AND type = %s AND actor = %s"
                f" AND (payload -> 'command' ->> 'kind') NOT IN (%s, %s){upper}{earlier}"
                " ORDER BY seq DESC LIMIT 1",
                [game_id, engine.ORDER_GIVEN, viewer, *NOT_TURNS, *bound, *([before] if before else [])],
            )
            found = cursor.fetchone()
        start = found[0] if found else None
    # The viewer's order itself is read too: whether they gave it or it was given for them (its "by").
    sql = (
        f"SELECT seq, type, payload FROM games_event WHERE game_id = %s"
        f" AND (type NOT IN ({marks}) OR seq = %s) AND seq >= %s{upper}"
    )
    params: list[Any] = [game_id, *untold, start or 0, start or 1, *bound]
    # Plain SQL: every turn email and page view runs this, and the ORM's version of the query
    # cost about as much client time as the rest of an email.
    with connection.cursor() as cursor:
        cursor.execute(sql + " ORDER BY seq DESC LIMIT %s", [*params, HAPPENINGS_LIMIT])
        recent = cursor.fetchall()
    return start, [
        (seq, kind, json.loads(payload) if isinstance(payload, str) else payload)
        for seq, kind, payload in reversed(recent)
    ]


def happenings_when_sent(game: Game, viewer: str, up_to_seq: int) -> dict[str, Any]:
    """An email's "what happened since your last turn", for its frozen context: named, not told. The
    worker that sends the email tells it (games.mail.turns.late_parts), from the log up to `up_to_seq`,
    which no later event changes, as it would have been told now: the same lines, without a query
    and the narration in the order's transaction. Whether the game has ended is fixed now (H-END)."""
    return {"happenings_of": {"viewer": viewer, "up_to_seq": up_to_seq, "over": is_over(game)}}


def whose_turn(state: GameState, viewer: str | None = None) -> str:
    """One sentence: who must act now."""
    owing = must_act(state)
    if state.phase == "ended":
        return _("The game has ended.")
    if state.phase == "winter_orders":
        # The viewer who still owes a sealed order is told so, not named among the others.
        named = [faction_name(f) for f in owing if f != viewer]
        others = ", ".join(named)
        if viewer in owing and others:
            # One other player's order is "that of" / "der von", several are "those of" / "die von".
            return ngettext(
                "Waiting for your sealed winter order and that of %(players)s.",
                "Waiting for your sealed winter order and those of %(players)s.",
                len(named),
            ) % {"players": others}
        if viewer in owing:
            return _("Only your sealed winter order is missing.")
        return _("Waiting for sealed winter orders from %(players)s.") % {"players": others}
    if viewer is not None and owing == [viewer]:
        return _("It is your turn.")
    return _("Waiting for %(player)s.") % {"player": ", ".join(faction_name(f) for f in owing)}


@dataclass(frozen=True)
class PlayerScreen:
    """Everything the player page and the JSON state show one seat (H-SCREEN via player_view).

    `view` and `happenings` are worked out when first read (in the language active when the
    screen was made): a posted order needs only the state and the legal orders to check the
    form, and a successful one redirects to the page, which reads them then.
    """

    seq: int
    state: GameState
    must_act: list[str]
    whose_turn: str
    legal: list[Command]
    game: Game
    faction: str | None
    language: str | None

    @cached_property
    def view(self) -> dict[str, Any]:
        return engine.player_view(self.state, self.faction)

    @cached_property
    def happenings(self) -> list[str]:
        with translation.override(self.language):
            return happenings(self.game, self.faction, up_to_seq=self.seq)

    @property
    def year_label(self) -> str:
        return year_label(self.state.year)

    @property
    def phase_label(self) -> str:
        return phase_label(self.state.phase, self.state.action_round)


def player_screen(game: Game, faction: str | None) -> PlayerScreen:
    """The game as `faction` may see it now (None: the organiser, as a spectator)."""
    loaded = load_game(game)
    state = loaded.state
    owing = must_act(state)
    # Not only the player on turn may have orders to give (e.g. answers to a trade offer, H-TRADE).
    # H-TAKEBACK: a player who sealed may seal again until the reveal, on the same form.
    legal = (
        (engine.legal_commands(state, faction) or engine.reseal_commands(state, faction)) if faction else []
    )
    return PlayerScreen(
        seq=loaded.seq,
        state=state,
        must_act=owing,
        whose_turn=whose_turn(state, faction),
        legal=legal,
        game=game,
        faction=faction,
        language=translation.get_language(),
    )
