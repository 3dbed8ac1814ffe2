"""Commands: what a player orders, as plain dataclasses.

The web form, the JSON API, email replies and the bots all build these, and all go
through `engine.decide`. `order_reading.command_from_dict` parses untrusted JSON and raises
RuleViolation("H-ORDER", ...) for anything malformed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Command:
    """An order of `player`. H-ORDER: a field without a default must be given; the others may be
    left out of the JSON (order_reading.command_from_dict refuses a missing one by name)."""

    kind: ClassVar[str] = ""
    player: str

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON (lists, not tuples); `command_from_dict(c.to_dict()) == c`. A field added by a
        later rules version is left out at its default, so an order recorded before it reads the same
        (H-RULES-VERSION: an older game's "OrderGiven" is rebuilt exactly on replay)."""
        plain = _plain(asdict(self))
        for f in fields(self):
            if f.metadata.get(LATER) and plain[f.name] == f.default:
                del plain[f.name]
        return {"kind": self.kind, **plain}


LATER = "added_by_a_later_rules_version"


def _later(default: Any) -> Any:
    """A field that a later rules version added (left out of `to_dict` at its default)."""
    return field(default=default, metadata={LATER: True})


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Pass(Command):
    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Expand(Command):
    """S-EXP: name the empty space first, then the tile source; optional upgrades."""

    kind: ClassVar[str] = "expand"
    space: str
    source: str = "deck"  # "deck" | "discard"
    second_source: str | None = None  # S-EXP-CHOICE: the second tile's source
    link_from: str | None = None  # S-EXP-LINK / H-EXP-LINK: adjacent own Polis to link from
    blanks: int = 0  # S-BLANK: how many of the upgrades' FP are paid in Blanks
    # H-CHOICE-STEP: see the first tile, then keep it or pay the Choice for a second (ChooseTile).
    choice_step: bool = _later(False)


@dataclass(frozen=True)
class ChooseTile(Command):
    """Second step of S-EXP-CHOICE: keep one tile, or keep neither (double-discard).

    With `keep` None, `discard_order` lists both tiles in the order they go onto the
    discard pile (the last one ends on top). H-CHOICE-STEP: after the first tile alone,
    `second_source` asks for the second tile (the Choice's FP, `blanks` of them in Blanks).
    """

    kind: ClassVar[str] = "choose_tile"
    keep: str | None = None
    discard_order: tuple[str, ...] = ()
    second_source: str | None = _later(None)
    blanks: int = _later(0)


@dataclass(frozen=True)
class Destination:
    space: str
    phalanxes: int = 0
    king: bool = False
    navigators: int = 0
    builders: int = 0


@dataclass(frozen=True)
class Move(Command):
    """S-MOVE: units out of ONE Polis to up to 3 destinations; battle order per S-MOVE-ORDER."""

    kind: ClassVar[str] = "move"
    origin: str
    destinations: tuple[Destination, ...]
    battle_order: tuple[str, ...] = ()
    blanks: int = 0  # S-BLANK: how many of the move's FP are paid in Blanks


@dataclass(frozen=True)
class Recruit(Command):
    """H-ACTIONS Recruit: phalanxes (and, H-HEROES, hired Navigators) in the Native Polis or where
    the King stands."""

    kind: ClassVar[str] = "recruit"
    space: str
    phalanxes: int = 1
    navigators: int = 0  # H-HEROES: Navigators hired, 2 AP each
    blanks: int = 0  # S-BLANK: how many of the AP are paid in Blanks


@dataclass(frozen=True)
class Fortify(Command):
    """H-ACTIONS Fortify: 3 AP for one Fortification on a Polis you control."""

    kind: ClassVar[str] = "fortify"
    space: str
    blanks: int = 0  # S-BLANK: how many of the 3 AP are paid in Blanks


@dataclass(frozen=True)
class Reform(Command):
    """H-GOV Reform: change to another government (it costs the action only)."""

    kind: ClassVar[str] = "reform"
    government: str


@dataclass(frozen=True)
class RecruitBuilder(Command):
    """S-BUILDER: Corinth's 8th action, a Builder in the Native Polis (it costs the action only)."""

    kind: ClassVar[str] = "recruit_builder"


@dataclass(frozen=True)
class CommitCoins(Command):
    """H-WINTER-ORDERS: the sealed winter order — screened coins (and Blanks) to commit."""

    kind: ClassVar[str] = "commit_coins"
    coins: tuple[tuple[str, int], ...] = ()  # (design, count) pairs, sorted
    blanks: int = 0
    mission_cards: tuple[str, ...] = ()  # H-MISSIONS: the winter card redeemed (S-WINTER: at most one)
    card_coins: tuple[tuple[str, int], ...] = ()  # coins spent on a Combo or Flush card
    card_blanks: int = 0  # S-BLANK: Blanks filling a Combo or Flush

    @property
    def coin_counts(self) -> dict[str, int]:
        return dict(self.coins)


@dataclass(frozen=True)
class Oracle(Command):
    """H-ACTIONS Oracle: draw a Mission Card for 1 coin from behind the screen (a design, or "blank")."""

    kind: ClassVar[str] = "oracle"
    coin: str


@dataclass(frozen=True)
class NeutralTrade(Command):
    """H-TRADE neutral trade: collect from every linked neutral Polis not yet traded with this year."""

    kind: ClassVar[str] = "neutral_trade"


@dataclass(frozen=True)
class Bundle:
    """One side of an H-TRADE transaction: AP, FP, Blanks, screened coins and a non-native Polis."""

    ap: int = 0
    fp: int = 0
    blanks: int = 0
    coins: tuple[tuple[str, int], ...] = ()  # (design, count) pairs, sorted
    polis: str | None = None

    def payload(self) -> dict[str, Any]:
        """The bundle as stored in an event: coins as a design -> count mapping."""
        return {**asdict(self), "coins": dict(self.coins)}


@dataclass(frozen=True)
class OfferTrade(Command):
    """H-TRADE transaction: offer `give` to the rival `to` in return for `take` (the Trade action)."""

    kind: ClassVar[str] = "offer_trade"
    to: str
    give: Bundle = Bundle()
    take: Bundle = Bundle()


@dataclass(frozen=True)
class _OfferAnswer(Command):
    """H-TRADE: the rival's answer to an open offer (any time in the action rounds; it costs no action)."""

    offer: int


@dataclass(frozen=True)
class AcceptOffer(_OfferAnswer):
    """H-TRADE: the rival accepts an open offer."""

    kind: ClassVar[str] = "accept_offer"


@dataclass(frozen=True)
class DeclineOffer(_OfferAnswer):
    """H-TRADE: the rival declines an open offer."""

    kind: ClassVar[str] = "decline_offer"


COMMAND_TYPES: dict[str, type[Command]] = {
    cls.kind: cls
    for cls in (Pass, Expand, ChooseTile, Move, Recruit, Fortify, CommitCoins, Reform, RecruitBuilder)
    + (Oracle, NeutralTrade, OfferTrade, AcceptOffer, DeclineOffer)  # H-TRADE, H-MISSIONS
}
