"""Corinth's Builders: S-BUILDER (the 8th action, the cap of 5 in play) and S-BUILDER-FORT (the winter step).

Which faction may recruit Builders is data (FactionData.extra_actions, H-FACTION). Builders
move with an army (movement: S-MOVE-FREE, S-MOVE-BUILDER, H-CONTROL) and die with it (combat:
heroes fall with their side's last phalanx, or are captured on an unguarded Polis). Whatever
they have built stays: Fortifications belong to the Polis (S-FORT).
"""

from __future__ import annotations

from typing import Any

from . import data
from .commands import RecruitBuilder
from .events import Event, RuleViolation
from .fold import applies
from .state import GameState

RECRUIT_BUILDER = "recruit_builder"


def may_recruit_builders(faction: str) -> bool:
    """H-FACTION, S-BUILDER: the Builder is an extra action of the factions whose data names it."""
    return RECRUIT_BUILDER in data.FACTIONS[faction].extra_actions


def builders_in_play(state: GameState, faction: str) -> int:
    """S-BUILDER: the faction's Builders on the board now; a lost one no longer counts (it frees its slot)."""
    return sum(p.builders for p in state.board.values() if p.owner == faction)


def decide_recruit_builder(state: GameState, cmd: RecruitBuilder) -> list[Event]:
    """S-BUILDER: a Builder appears in the Native Polis for the action alone; at most 5 in play.

    House reading: the Builder appears only in the Native Polis, so while a rival holds it no
    Builder can be recruited (as H-NATIVE-LOST stops recruiting there).
    """
    if not may_recruit_builders(cmd.player):
        raise RuleViolation("S-BUILDER", "Recruiting a Builder is not one of your faction's actions.")
    native = state.board.get(data.native_space(cmd.player))
    if native is None or native.owner != cmd.player:
        raise RuleViolation(
            "S-BUILDER", "A Builder appears in your Native Polis, and you do not hold it now."
        )
    in_play = builders_in_play(state, cmd.player)
    if in_play >= data.MAX_BUILDERS:
        raise RuleViolation(
            "S-BUILDER",
            "At most %(max)d Builders may be in play, and you have %(have)d.",
            max=data.MAX_BUILDERS,
            have=in_play,
        )
    return [Event("BuilderRecruited", {"player": cmd.player, "space": native.space})]


def builders_fortify(state: GameState) -> list[Event]:
    """S-BUILDER-FORT (H-WINTER-ORDER's second step): each Builder in play builds one Fortification
    where it stands, at no cost and without a decision — never in its own faction's Native Polis.

    House reading: "the Native Polis" is the Builder's own faction's (Corinth's); a Builder in a
    rival's Native Polis that its army conquered does build there.
    """
    events = []
    for space, polis in sorted(state.board.items()):
        if polis.owner is None or not polis.builders or space == data.native_space(polis.owner):
            continue
        events.append(
            Event(
                "BuildersFortified", {"player": polis.owner, "space": space, "fortifications": polis.builders}
            )
        )
    return events


@applies("BuilderRecruited")
def _builder_recruited(state: GameState, payload: dict[str, Any]) -> None:
    state.board[payload["space"]].builders += 1


@applies("BuildersFortified")
def _builders_fortified(state: GameState, payload: dict[str, Any]) -> None:
    polis = state.board[payload["space"]]
    polis.fortification_hp.extend([data.FORTIFICATION_HP] * payload["fortifications"])
