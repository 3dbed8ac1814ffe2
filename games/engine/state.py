"""The state of one game of AEGEAPOLIS, as plain dataclasses.

State is only ever built by folding events (`engine.fold`) or from a scenario
(`engine.scenario`); rule modules read it and return events. `to_dict`/`from_dict`
give the JSON form used for snapshots and scenarios.
"""

from __future__ import annotations

import pickle
from dataclasses import asdict, dataclass, field, fields
from operator import attrgetter
from typing import Any, TypeVar

from .data import PHALANX_PIECES
from .versions import RULES_VERSION

T = TypeVar("T")

Coins = dict[str, int]  # coin design -> count, e.g. {"owl": 2, "turtle": 1}


def _pickled_by_position(cls: type[T]) -> type[T]:
    """Pickle the dataclass as its class called with its fields in order: about half the time of
    pickle's default (a dict of the fields set on a bare instance) to load, a third less to dump.
    The state is copied and cached as pickles on every order (GameState.copy, games/statecache.py)."""
    values = attrgetter(*(f.name for f in fields(cls)))  # type: ignore[arg-type]

    def __reduce__(self: T) -> tuple[type[T], tuple[Any, ...]]:
        return cls, values(self)

    cls.__reduce__ = __reduce__  # type: ignore[method-assign,assignment]
    return cls


@_pickled_by_position
@dataclass
class Polis:
    """A Polis tile on the board and everything standing on it.

    Units on a Polis always belong to its controller (H-CONTROL); `owner` None means a
    neutral Polis whose `phalanxes` are its neutral garrison (H-NEUTRAL).
    """

    space: str
    tile_id: str
    owner: str | None = None
    phalanxes: int = 0
    king: bool = False  # the owner's King stands here
    navigators: int = 0
    builders: int = 0
    fortification_hp: list[int] = field(default_factory=list)  # one entry per Fortification, 1..3
    unminted_coins: Coins = field(default_factory=dict)


@_pickled_by_position
@dataclass
class Player:
    """One seat: a faction and everything it holds. `coins_behind_screen` is secret (H-SCREEN)."""

    faction: str
    ap: int = 0
    fp: int = 0
    blanks: int = 0
    vp: int = 0
    coins_behind_screen: Coins = field(default_factory=dict)
    phalanx_supply: int = 0  # pieces not on the board
    king_alive: bool = True
    government: str = "oligarchy"
    mission_cards: list[str] = field(default_factory=list)
    # H-PIECES: the faction's pieces, supply + board: 60, and (rules version 2 on) 6 more with every
    # reinforcement, which comes from the reserve, never from the supply (S-REINF).
    phalanx_pieces: int = PHALANX_PIECES


@_pickled_by_position
@dataclass
class PendingChoice:
    """S-EXP-CHOICE / H-CHOICES: two tiles drawn for one space, waiting for the player on turn."""

    player: str
    space: str
    tiles: list[str]
    link_from: str | None = None
    link_blanks: int = 0  # S-BLANK: Blanks named in the order for the link's FP, paid when it is built


@_pickled_by_position
@dataclass
class TradeOffer:
    """H-TRADE: a transaction offered to one rival, open until accepted, declined or lapsed.

    `give` and `take` are bundles: {"ap", "fp", "blanks", "coins": {design: n}, "polis": space | None}.
    """

    id: int
    player: str  # who offers
    to: str  # the rival who may accept
    give: dict[str, Any]
    take: dict[str, Any]
    year: int  # the offer lapses when this year's action rounds end


@_pickled_by_position
@dataclass
class GameState:
    seed_hash: str = ""
    seat_order: list[str] = field(default_factory=list)  # factions, in turn order
    year: int = 431
    phase: str = "setup"  # setup | actions | choice | winter_orders | ended
    action_round: int = 1  # 1..3 (H-YEAR)
    turn_index: int = 0  # index into seat_order of the player on turn
    board: dict[str, Polis] = field(default_factory=dict)
    players: dict[str, Player] = field(default_factory=dict)
    deck: list[str] = field(default_factory=list)  # tiles left in the Polis deck (draws are random)
    discard: list[str] = field(default_factory=list)  # bottom .. top
    bag: Coins = field(default_factory=dict)
    trade_links: list[list[str]] = field(default_factory=list)  # sorted [space, space] pairs
    pending_choice: PendingChoice | None = None
    winter_orders: dict[str, dict[str, Any]] = field(default_factory=dict)  # sealed, by faction
    mission_deck: list[str] = field(default_factory=list)  # H-MISSIONS: undrawn cards (secret)
    mission_discard: list[str] = field(default_factory=list)  # redeemed and claimed cards (public)
    offers: list[TradeOffer] = field(default_factory=list)  # H-TRADE: open offers
    next_offer_id: int = 1
    neutral_trades: dict[str, dict[str, int]] = field(default_factory=dict)  # faction -> space -> year
    events_applied: int = 0
    revealed_seed: str | None = None
    winners: list[str] = field(default_factory=list)
    # H-RULES-VERSION: the rules the game is played under, from its opening and its last order; None:
    # a log from before versions were named (versions.plays_by reads it).
    rules_version: int | None = RULES_VERSION

    @property
    def player_on_turn(self) -> str | None:
        if self.phase in ("actions", "choice") and self.seat_order:
            return self.seat_order[self.turn_index]
        return None

    def copy(self) -> GameState:
        # A pickle round trip is a deep copy about four times faster than copy.deepcopy.
        return pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        data = dict(data)
        data["board"] = {space: Polis(**p) for space, p in data.get("board", {}).items()}
        data["players"] = {f: Player(**p) for f, p in data.get("players", {}).items()}
        data["offers"] = [TradeOffer(**o) for o in data.get("offers", [])]
        if data.get("pending_choice"):
            data["pending_choice"] = PendingChoice(**data["pending_choice"])
        return cls(**data)
