"""Commands: what a player orders, as plain dataclasses.

The web form, the JSON API, email replies and the bots all build these, and all go
through `engine.decide`. `command_from_dict` parses untrusted JSON and raises
RuleViolation("H-ORDER", ...) for anything malformed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class Command:
    kind: ClassVar[str] = ""
    player: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True)
class Pass(Command):
    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Expand(Command):
    """S-EXP: name the empty space first, then the tile source; optional upgrades."""

    kind: ClassVar[str] = "expand"
    space: str = ""
    source: str = "deck"  # "deck" | "discard"
    second_source: str | None = None  # S-EXP-CHOICE: the second tile's source
    link_from: str | None = None  # S-EXP-LINK / H-EXP-LINK: adjacent own Polis to link from


@dataclass(frozen=True)
class ChooseTile(Command):
    """Second step of S-EXP-CHOICE: keep one tile, or keep neither (double-discard).

    With `keep` None, `discard_order` lists both tiles in the order they go onto the
    discard pile (the last one ends on top).
    """

    kind: ClassVar[str] = "choose_tile"
    keep: str | None = None
    discard_order: tuple[str, ...] = ()


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
    origin: str = ""
    destinations: tuple[Destination, ...] = ()
    battle_order: tuple[str, ...] = ()


@dataclass(frozen=True)
class Recruit(Command):
    """H-ACTIONS Recruit: phalanxes in the Native Polis or where the King stands."""

    kind: ClassVar[str] = "recruit"
    space: str = ""
    phalanxes: int = 1


@dataclass(frozen=True)
class Fortify(Command):
    """H-ACTIONS Fortify: 3 AP for one Fortification on a Polis you control."""

    kind: ClassVar[str] = "fortify"
    space: str = ""


@dataclass(frozen=True)
class CommitCoins(Command):
    """H-WINTER-ORDERS: the sealed winter order — screened coins (and Blanks) to commit."""

    kind: ClassVar[str] = "commit_coins"
    coins: tuple[tuple[str, int], ...] = ()  # (design, count) pairs, sorted
    blanks: int = 0

    @property
    def coin_counts(self) -> dict[str, int]:
        return dict(self.coins)


COMMAND_TYPES: dict[str, type[Command]] = {
    cls.kind: cls for cls in (Pass, Expand, ChooseTile, Move, Recruit, Fortify, CommitCoins)
}
