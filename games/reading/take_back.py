"""Whether a player's last order can still be taken back, and why not (H-TAKEBACK), for the page, the
email that confirms an order, and the take-back service itself.

The last order of the game is read from the log: its "OrderGiven" and every event after it (the
table's events left out: a message in between changes nothing). The engine says why it stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Subquery

from games import engine
from games.engine.table import TABLE_EVENTS
from games.models import Event, Game


@dataclass(frozen=True)
class LastOrder:
    """The game's last order and everything after it (H-TAKEBACK)."""

    seq: int  # of its OrderGiven
    player: str
    kind: str
    batch: list[engine.Event]  # its OrderGiven first, table events left out

    def stands_for(self, faction: str) -> engine.RuleViolation | None:
        """Why `faction` cannot take this order back (engine.why_it_stands), or None when it can."""
        return engine.why_it_stands(self.batch, faction)

    @property
    def taken_back(self) -> bool:
        return any(e.type == engine.ORDER_TAKEN_BACK for e in self.batch)


@dataclass(frozen=True)
class TakeBackOffer:
    """What the page and the confirming email offer a player after their order: "Take it back" when
    `stands` is None, else the plain reason it stands ("Dice were rolled: the order stands.")."""

    order_seq: int
    kind: str
    stands: engine.RuleViolation | None
    command: dict[str, Any] = field(default_factory=dict)  # the order as given (its OrderGiven's)

    @property
    def can(self) -> bool:
        return self.stands is None


def last_order(game: Game | int) -> LastOrder | None:
    """The game's last "OrderGiven" with the events after it (one query); None before the first order."""
    rows = Event.objects.filter(game=game)
    last_given = rows.filter(type=engine.ORDER_GIVEN).order_by("-seq").values("seq")[:1]
    after = rows.filter(seq__gte=Subquery(last_given)).exclude(type__in=TABLE_EVENTS).order_by("seq")
    found = list(after.values_list("seq", "type", "payload"))
    if not found:
        return None
    seq, _type, payload = found[0]
    batch = [engine.Event(t, p) for _seq, t, p in found]
    return LastOrder(seq, payload["player"], payload["command"]["kind"], batch)


def take_back_offer(game: Game | int, faction: str) -> TakeBackOffer | None:
    """H-TAKEBACK: what to offer `faction` about its order while it is the game's last one and not
    taken back (given by the player, not on their behalf); None otherwise (nothing to say)."""
    order = last_order(game)
    if order is None or order.player != faction or order.taken_back or order.kind == "commit_coins":
        return None  # a sealed winter order is not taken back but sealed again (the page says so)
    if order.batch[0].payload.get("by", "player") != "player":
        return None
    return TakeBackOffer(order.seq, order.kind, order.stands_for(faction), order.batch[0].payload["command"])
