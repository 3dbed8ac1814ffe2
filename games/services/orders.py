"""The order loop's services (docs/order-loop.md): submit an order (a game is set up by
games/services/game_setup.py).

Every way in — web form, JSON API, management commands — goes through `submit_order`:
load the state, let the engine decide, append the events at the seq the order was decided
on, and write the outbox rows for whoever must act now, all in one transaction.
The read side (state, who must act, a player's screen) is games/reading/situation.py, the emails
games/mail/turns.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError
from django.utils.translation import gettext_lazy

from aegea_pbem.sql_pipeline import pipelined_transaction
from games import engine
from games.engine import GameState, RuleViolation, command_from_dict
from games.engine.commands import AcceptOffer, Command, CommitCoins, DeclineOffer
from games.engine.table import TABLE_EVENTS
from games.eventstore import statecache
from games.eventstore.store import ConcurrencyError, append_events, is_seq_conflict, snapshot_appended
from games.mail.turns import notify_after_order
from games.models import Event, Game, Seat
from games.projectors.seat_clocks import read_with_lock, written_after
from games.reading.links import LinkClaim, LinkError, seat_claimed
from games.reading.log_head import head_known
from games.reading.situation import deciding, load_game
from games.services.order_lock import Locked, lock_game

SNAPSHOT_EVERY = 100
MAX_RESEALS = 3  # a sealed winter order is decided again at most this often when others seal first
# The events of a batch that only seals a winter order (H-WINTER-ORDERS).
SEALED_BATCH = (engine.ORDER_GIVEN, "WinterOrderSealed", engine.RANDOMNESS_DRAWN)


class GameMovedOn(Exception):
    """The order was decided on an old state: another order came first. Nothing was changed."""

    # Said whether or not it is still the reader's turn: not "re-order", which a player whose turn
    # has passed cannot; the game as it is now says what they may do.
    message = gettext_lazy(
        "The game has moved on since you loaded this page: your order was not given, and nothing "
        "was changed. Look at the game as it is now."
    )


class GameEnded(GameMovedOn):
    """H-END: the game moved on to its end: it takes no order any more (not "look again and
    re-order"). Nothing was changed."""

    message = gettext_lazy("The game has ended: it takes no more orders, and nothing was changed.")


class OrderAlreadyGiven(GameMovedOn):
    """H-ORDER: this very order was accepted already, decided on the same state (a double tap, a
    retried request, the same order emailed twice). Nothing more was changed; `order_seq` is the seq
    of its OrderGiven."""

    message = gettext_lazy("Your order was already accepted; it was not given a second time.")

    def __init__(self, order_seq: int) -> None:
        self.order_seq = order_seq
        super().__init__(order_seq)


@dataclass(frozen=True)
class OrderResult:
    seq: int  # the game's last seq after the order
    events: list[Event]
    state: GameState


def submit_order(
    game: Game, seat: Seat, command: Command, expected_seq: int, *, by: str = "player"
) -> OrderResult:
    """Decide `command` for `seat` on the state at `expected_seq` and append its events.

    Raises GameMovedOn when the game is past `expected_seq` (also when another order wins
    the race while this one is decided) — OrderAlreadyGiven, its subclass, when the order that
    came first on that state was this same one (H-ORDER) —, RuleViolation when the rules refuse the order;
    in both cases nothing is written and nobody is mailed. Two exceptions are decided again on
    the current state: a sealed winter order while only other players' sealed orders came in
    meanwhile, since it cannot depend on them (H-WINTER-ORDERS), and an answer to a trade offer,
    which the offer waits for whoever plays meanwhile (H-TRADE; unless it was given already).
    In the same transaction as the events, every player who must act now gets an outbox
    row (sealed winter orders: all players at once), and everyone gets one at the end.

    The batch is recorded as engine.decide_recorded builds it: "OrderGiven" (with `by`: "player",
    or "system" for a default order given on the player's behalf) first, whose seq is the
    batch's RNG position, and the draws in "RandomnessDrawn" (docs/fairness.md).
    """
    if seat.game_id != game.pk:
        raise RuleViolation("H-ORDER", "This seat does not play in this game.")
    _check_own(seat, command)
    return _in_order_transaction(game.pk, lambda _locked: (seat, command), expected_seq, by, game)[1]


def submit_linked_order(
    claim: LinkClaim, raw_command: dict[str, Any], expected_seq: int
) -> tuple[Seat, OrderResult]:
    """submit_order for the seat a link claims (the JSON API), with the command as sent (its player,
    when left out, is the seat's): the claim is checked against the seats read with the game's lock,
    so the order costs no query of its own for the seat and its game. Raises LinkError (the seat is
    not in the game, or the game is not there any more: "gone"; or its links were revoked) besides
    submit_order's errors; nothing is written."""

    def claimed(locked: Locked) -> tuple[Seat, Command]:
        seat = seat_claimed(claim, locked.seats)
        command = command_from_dict({"player": seat.faction, **raw_command})
        _check_own(seat, command)
        return seat, command

    try:
        return _in_order_transaction(claim.game_id, claimed, expected_seq, "player")
    except Game.DoesNotExist:  # lock_game found no game: deleted since the link was signed
        raise LinkError("gone") from None


def _check_own(seat: Seat, command: Command) -> None:
    """H-ORDER: a seat orders for its own faction only."""
    if command.player != seat.faction:
        raise RuleViolation("H-ORDER", "You can only give orders for %(player)s.", player=seat.faction)


def _in_order_transaction(
    game_id: int,
    choose: Callable[[Locked], tuple[Seat, Command]],
    expected_seq: int,
    by: str,
    game: Game | None = None,
) -> tuple[Seat, OrderResult]:
    """Lock the game, take the seat and command `choose` gives for what the lock read, and decide and
    append them; `game`: the caller's instance of the game, refreshed (its status) from the lock."""
    for _attempt in range(MAX_RESEALS + 1):
        status_read = None
        try:
            # The game row is locked first, so the head read with the lock is the one the order is
            # decided on and appended after (one query fewer than reading the head for the state
            # cache and again for the append); no other order can come in between. The same query
            # reads the seats the order's emails go to and their clocks. Any failure in here
            # (GameMovedOn, RuleViolation, LinkError) rolls the whole order back: nothing is written.
            # The writes and the COMMIT are pipelined (aegea_pbem/sql_pipeline.py): an error of one
            # comes at a later statement or at the pipeline's end, inside the transaction it rolls back.
            with pipelined_transaction():
                locked = lock_game(game_id, statecache.newest_seq(game_id))
                if game is None:
                    game = locked.game
                game.status = status_read = locked.game.status
                seat, command = choose(locked)
                loaded = load_game(game, head=locked.head, tail=locked.tail)
                if loaded.seq != expected_seq and not (
                    _only_table_talk_since(game, expected_seq, loaded.seq)
                    or _only_sealed_by_others(game, expected_seq, seat, command)
                    or _answers_an_offer(game, expected_seq, seat, command, by)
                ):
                    raise _moved_on(game, expected_seq, seat, command, by)
                return seat, _decide_and_append(game, seat, command, loaded.state, locked, by)
        except BaseException as error:
            if game is not None and status_read is not None:
                game.status = status_read  # a status the projectors set was rolled back with them
            if isinstance(error, ConcurrencyError) or (
                isinstance(error, IntegrityError) and is_seq_conflict(error)
            ):
                continue  # an append that bypassed the lock came first (the unique index): look again
            raise
    raise GameMovedOn()


def _moved_on(game: Game, expected_seq: int, seat: Seat, command: Command, by: str) -> GameMovedOn:
    """H-ORDER: OrderAlreadyGiven when the first order decided on the state at `expected_seq` was this
    same order of this seat (a sealed winter order may follow others' sealed orders: it was decided
    again; an answer to a trade offer may follow any orders), else GameEnded or GameMovedOn. Only an
    order decided on the same state counts: the same order given later, on a newer page, may be meant
    as a second one."""
    if isinstance(command, OFFER_ANSWERS):
        given = _given_since(game, expected_seq, seat, command, by)
        return _not_taken(game) if given is None else OrderAlreadyGiven(given)
    sealed = isinstance(command, CommitCoins)
    # Before the own batch, at most the other players' sealed batches (3 of 3 events each).
    since = (
        Event.objects.filter(game=game, seq__gt=expected_seq)
        .exclude(type__in=TABLE_EVENTS)
        .order_by("seq")
        .values_list("seq", "type", "actor", "payload")[: 4 * len(SEALED_BATCH)]
    )
    for seq, type_, actor, payload in since:
        if type_ == engine.ORDER_GIVEN and actor == seat.faction:
            if payload["command"] == command.to_dict() and payload["by"] == by:
                return OrderAlreadyGiven(seq)
            break
        if not (sealed and type_ in SEALED_BATCH and actor != seat.faction):
            break
    return _not_taken(game)


def _not_taken(game: Game) -> GameMovedOn:
    """GameEnded when the game has ended (its status as read with the lock), else GameMovedOn."""
    return GameEnded() if game.status == Game.Status.ENDED else GameMovedOn()


OFFER_ANSWERS = (AcceptOffer, DeclineOffer)


def _answers_an_offer(game: Game, expected_seq: int, seat: Seat, command: Command, by: str) -> bool:
    """H-TRADE: an answer to a trade offer is decided on the current state whatever was ordered since
    its email: the offer waits for the rival's answer while the others play on (its email says the
    answer may come before the rival's turn; with 3 or 4 players someone else usually moves first),
    and the engine checks it against the state now (the offer still open, both sides able to pay).
    Not when this same answer was given already since (H-ORDER: _moved_on says so)."""
    return isinstance(command, OFFER_ANSWERS) and _given_since(game, expected_seq, seat, command, by) is None


def _given_since(
    game: Game, expected_seq: int, seat: Seat, command: AcceptOffer | DeclineOffer, by: str
) -> int | None:
    """The seq of this seat's OrderGiven of this same answer after `expected_seq`, or None. The
    database picks the answers to this offer (an API client's `expected_seq` may be 0: the whole
    game's orders of this seat were read and decoded, under the game's lock)."""
    given = Event.objects.filter(
        game=game,
        seq__gt=expected_seq,
        type=engine.ORDER_GIVEN,
        actor=seat.faction,
        payload__command__kind=command.kind,
        payload__command__offer=command.offer,
    ).values_list("seq", "payload")
    wanted = command.to_dict()
    return next((seq for seq, p in given if p["command"] == wanted and p["by"] == by), None)


def _only_sealed_by_others(game: Game, expected_seq: int, seat: Seat, command: Command) -> bool:
    """True when `command` is a sealed winter order and the game has since seen only others' sealed orders."""
    if not isinstance(command, CommitCoins):
        return False
    since = list(
        Event.objects.filter(game=game, seq__gt=expected_seq)
        .exclude(type__in=TABLE_EVENTS)
        .values_list("type", "actor")
    )
    return bool(since) and all(t in SEALED_BATCH and actor != seat.faction for t, actor in since)


def _only_table_talk_since(game: Game, expected_seq: int, head: int) -> bool:
    """Messages, vacations and the like change no state, so an order decided before them stands."""
    since = Event.objects.filter(game=game, seq__gt=expected_seq)
    return 0 <= expected_seq < head and not since.exclude(type__in=TABLE_EVENTS).exists()


def _decide_and_append(
    game: Game, seat: Seat, command: Command, before: GameState, locked: Locked, by: str
) -> OrderResult:
    """Inside submit_order's transaction, which holds the game's lock and read `locked` with it."""
    seq = locked.head[0]
    # load_game left the state of this head in the state cache: a second unpickling of it is a
    # private copy to fold the order onto, cheaper than the copy decide would make (None: cache off).
    scratch = statecache.get(game.pk, *locked.head)
    events, after = engine.decide_recorded_with_state(
        before, command, game.seed, position=seq + 1, by=by, scratch=scratch
    )
    # The projectors take `after` as the state after these events instead of folding them again,
    # and the clocks and deadline settings read with the lock instead of reading them again.
    with (
        deciding(game, seq, events, after),
        read_with_lock(
            game, seq, locked.clocks, locked.seats, locked.deadline_settings, locked.has_vacations
        ),
    ):
        # No savepoint: any failure in here rolls the whole order back.
        rows = append_events(game, seq, events, actor=seat.faction, savepoint=False, locked=locked.head)
        new_seq = rows[-1].seq
        clocks = written_after(game, rows)
        with head_known(game, new_seq, rows[-1].hash):  # the emails' witness (docs/fairness.md)
            notify_after_order(game, before, after, new_seq, clocks=clocks, seats=locked.seats)
        if new_seq // SNAPSHOT_EVERY > seq // SNAPSHOT_EVERY:
            snapshot_appended(game, new_seq, after.to_dict())
    return OrderResult(seq=new_seq, events=rows, state=after)
