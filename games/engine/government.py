"""Governments (H-GOV): the Reform action. The income bonus of each government is paid with the
Spring income (economy.spring_income, from data.GOVERNMENTS).

Reform costs the action only — no AP, FP or coins: the house rules price no other cost, and the
price of a Reform is the turn not spent elsewhere. The new government pays its bonus from the
next income on.
"""

from __future__ import annotations

from typing import Any

from . import data
from .commands import Reform
from .events import Event, RuleViolation
from .fold import applies
from .state import GameState


def reform_choices(state: GameState, faction: str) -> list[str]:
    """H-GOV: the governments a Reform may bring in — every one but the present."""
    return [g for g in data.GOVERNMENTS if g != state.players[faction].government]


def decide_reform(state: GameState, cmd: Reform) -> list[Event]:
    """H-GOV Reform: change to another government; the action is its only cost."""
    present = state.players[cmd.player].government
    if cmd.government not in data.GOVERNMENTS:
        raise RuleViolation(
            "H-GOV", "Choose Tyranny, Oligarchy or Democracy, not %(government)s.", government=cmd.government
        )
    if cmd.government == present:
        raise RuleViolation(
            "H-GOV", "You already live under %(government)s; a Reform must change it.", government=present
        )
    return [
        Event("GovernmentReformed", {"player": cmd.player, "previous": present, "government": cmd.government})
    ]


@applies("GovernmentReformed")
def _government_reformed(state: GameState, payload: dict[str, Any]) -> None:
    state.players[payload["player"]].government = payload["government"]
