"""Taking back an order (H-TAKEBACK): one service for the page and the email reply alike.

Under the game's row lock, as an order is given (games/services/order_lock.py): the game's last
order is read, the engine decides the take-back from the state before that order and the state now,
"OrderTakenBack" is appended after it (nothing is deleted), and whoever the order had told to act
is told it is not their turn yet (games/mail/take_back.py). The lock makes a take-back and the next
player's order at the same instant one after the other: whichever comes second is refused and told
why (the next order: "the game has moved on"; the take-back: "only the last order ... can be taken
back"). Re-sealing a winter order needs no service of its own: it is a sealed order given again.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from games import engine
from games.engine import GameState, RuleViolation
from games.engine.takeback import moved_on
from games.eventstore.store import append_events
from games.mail.take_back import notify_taken_back
from games.models import Event, Game, Seat
from games.reading.situation import deciding, load_game
from games.reading.take_back import last_order
from games.services.order_lock import lock_game


@dataclass(frozen=True)
class TakeBackResult:
    seq: int  # the game's last seq: the OrderTakenBack's
    kind: str  # the kind of the order taken back
    event: Event
    state: GameState  # the state as before the order


def take_back_order(game: Game, seat: Seat, seen_seq: int) -> TakeBackResult:
    """H-TAKEBACK: take back `seat`'s order, the game's last one, seen by the player on a page or in an
    email of the game at `seen_seq`. Raises RuleViolation("H-TAKEBACK") with the reason when it stands
    (an order came since `seen_seq`, or it is another's, or it drew or revealed something); then nothing
    is written and nobody is mailed."""
    if seat.game_id != game.pk:
        raise RuleViolation("H-ORDER", "This seat does not play in this game.")
    with transaction.atomic():
        locked = lock_game(game.pk)
        game.status = locked.game.status
        order = last_order(game)
        if order is not None and order.seq > seen_seq:
            raise moved_on()
        refusal = engine.why_it_stands(order.batch if order else [], seat.faction)
        if refusal is not None or order is None:
            raise refusal or moved_on()
        before = load_game(game, up_to_seq=order.seq - 1).state
        now = load_game(game, head=locked.head)
        event = engine.decide_take_back(before, now.state, order.batch, order.seq, seat.faction)
        restored = engine.fold_from(now.state.copy(), [event])
        with deciding(game, now.seq, [event], restored):
            (row,) = append_events(
                game, now.seq, [event], actor=seat.faction, savepoint=False, locked=locked.head
            )
            notify_taken_back(game, locked.seats, seat.faction, now.state, restored, row.seq)
    return TakeBackResult(row.seq, order.kind, row, restored)
