"""A battle told round by round (S-COMBAT, S-FORT, H-HEROES): whose dice, their faces, the hits,
what the Fortifications absorbed, the losses and who fell, in words and as dice to draw.

The engine writes every die of a combat into its BattleFought event (engine/combat.py `fight`),
so everything told here is read from the payload; nothing is re-rolled or re-computed beyond
adding up what the rounds record. A payload without rounds (none is known, but the words must
never break a page) is told by its summary alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.data import HIT_MIN
from games.words.names import faction_name
from games.words.told import Told

# S-COMBAT: where a die's pips sit on a 24-unit square, by face (the picture in _battle.html).
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((12, 12),),
    2: ((7, 7), (17, 17)),
    3: ((7, 7), (12, 12), (17, 17)),
    4: ((7, 7), (17, 7), (7, 17), (17, 17)),
    5: ((7, 7), (17, 7), (12, 12), (7, 17), (17, 17)),
    6: ((7, 7), (17, 7), (7, 12), (17, 12), (7, 17), (17, 17)),
}
# The faces as characters, for the emails (their HTML may not carry a picture of their own).
FACE_GLYPHS = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


@dataclass(frozen=True)
class Die:
    face: int
    hit: bool

    @property
    def pips(self) -> tuple[tuple[int, int], ...]:
        return PIPS.get(self.face, ())

    @property
    def glyph(self) -> str:
        return FACE_GLYPHS.get(self.face, str(self.face))


@dataclass(frozen=True)
class Round:
    number: int
    side: str  # "attacker" or "defender": whose dice
    roller: str  # the rolling side's name
    dice: tuple[Die, ...]
    text: str


class ToldBattle(Told):
    """A battle's words as one line (the JSON answer, a digest) that also carries its parts, so
    that a page or an email can draw each round's dice under the summary."""

    summary: str
    rounds: tuple[Round, ...]
    fallen: tuple[str, ...]
    space: str

    def __new__(cls, summary: str, rounds: list[Round], fallen: list[str], space: str) -> ToldBattle:
        whole = " ".join([summary, *(r.text for r in rounds), *fallen])
        told = super().__new__(cls, whole)
        told.summary, told.rounds, told.fallen, told.space = summary, tuple(rounds), tuple(fallen), space
        return told


def _losses(loser: str, n: int) -> str:
    return ngettext("%(side)s lost %(n)s phalanx", "%(side)s lost %(n)s phalanxes", n) % {
        "side": loser,
        "n": n,
    }


def round_text(number: int, roller: str, loser: str, r: dict[str, Any]) -> str:
    """S-COMBAT, S-FORT: "Round 2: Athens rolled 6, 4, 2 — 2 hits; the Fortifications absorbed 1;
    Sparta lost 1 phalanx." The attacker's hits land on the Fortifications first."""
    hits = r["hits"]
    parts = [
        _("Round %(n)s: %(side)s rolled %(faces)s")
        % {"n": number, "side": roller, "faces": ", ".join(str(d) for d in r["dice"])},
        ngettext("%(n)s hit", "%(n)s hits", hits) % {"n": hits} if hits else _("no hit"),
    ]
    consequences = []
    if r.get("fortification_hits"):
        consequences.append(_("the Fortifications absorbed %(n)s") % {"n": r["fortification_hits"]})
    if r.get("phalanx_hits"):
        consequences.append(_losses(loser, r["phalanx_hits"]))
    told = " — ".join(parts)
    if consequences:
        told += "; " + "; ".join(consequences)
    return told + "."


def _rounds(p: dict[str, Any]) -> list[Round]:
    names = {"attacker": faction_name(p["attacker"]), "defender": faction_name(p["defender"])}
    rounds = []
    for number, r in enumerate(p.get("rounds") or [], 1):
        side = r["side"]
        other = "defender" if side == "attacker" else "attacker"
        roller, loser = capfirst(names[side]), names[other]
        dice = tuple(Die(face, face >= HIT_MIN) for face in r["dice"])
        rounds.append(Round(number, side, roller, dice, round_text(number, roller, loser, r)))
    return rounds


def heroes_fallen(p: dict[str, Any]) -> list[str]:
    """H-HEROES: the Navigators and Builders that fell with their side's last phalanx (a fallen
    King is told with the VP it gave, events._kings)."""
    told = []
    for side in ("attacker", "defender"):
        lost = (p.get("heroes_lost") or {}).get(side) or {}
        heroes = []
        if lost.get("navigators"):
            n = lost["navigators"]
            heroes.append(ngettext("%(n)d Navigator", "%(n)d Navigators", n) % {"n": n})
        if lost.get("builders"):
            n = lost["builders"]
            heroes.append(ngettext("%(n)d Builder", "%(n)d Builders", n) % {"n": n})
        if heroes:
            values = {"side": faction_name(p[side]), "heroes": _(" and ").join(heroes)}
            told.append(_("With its last phalanx %(side)s lost %(heroes)s.") % values)
    return told


def told_battle(p: dict[str, Any], summary: str, kings: list[str]) -> ToldBattle:
    """The battle's summary, each round and who fell, as one ToldBattle."""
    return ToldBattle(summary, _rounds(p), [*heroes_fallen(p), *kings], p["space"])
