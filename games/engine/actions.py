"""The simple actions of H-ACTIONS: Recruit, Fortify and Pass (with H-PIECES, H-NATIVE-LOST, H-FACTION).

Recruit also hires Navigators (H-HEROES); Recruit and Fortify may be paid partly in Blanks (S-BLANK).
"""

from __future__ import annotations

from math import ceil
from typing import Any

from . import data
from .commands import Fortify, Pass, Recruit
from .events import Event, RuleViolation
from .fold import applies
from .payment import check_blanks, short_of_points
from .state import GameState


def recruit_places(state: GameState, faction: str) -> list[str]:
    """H-ACTIONS, H-NATIVE-LOST: the Native Polis while the faction holds it, and where its King stands."""
    places = set()
    native = state.board.get(data.native_space(faction))
    if native is not None and native.owner == faction:
        places.add(native.space)
    places.update(s for s, p in state.board.items() if p.king and p.owner == faction)
    return sorted(places)


def recruit_per_ap(faction: str, space: str) -> int:
    """The phalanxes 1 AP recruits in `space`: 1 (H-ACTIONS); H-FACTION: Sparta 2 in its Native Polis."""
    if space == data.native_space(faction):
        return data.FACTIONS[faction].recruit_per_ap_native
    return data.RECRUIT_PHALANXES_PER_AP


def recruit_cost(faction: str, space: str, phalanxes: int) -> int:
    """AP for `phalanxes` recruits: 1 AP each; H-FACTION: Sparta 2 per AP in its Native Polis (rounded up)."""
    return ceil(phalanxes / recruit_per_ap(faction, space))


def navigators_in_play(state: GameState, faction: str) -> int:
    """H-HEROES: the faction's Navigators on the board (units on a Polis are its owner's, H-CONTROL)."""
    return sum(p.navigators for p in state.board.values() if p.owner == faction)


def hire_cost(navigators: int) -> int:
    """H-HEROES: a Navigator is hired as a Recruit option for 2 AP."""
    return navigators * data.NAVIGATOR_AP


def recruit_price(cmd: Recruit) -> int:
    """The AP a Recruit costs before Blanks: its phalanxes (recruit_cost) and its Navigators (hire_cost)."""
    return recruit_cost(cmd.player, cmd.space, cmd.phalanxes) + hire_cost(cmd.navigators)


def _check_navigators(state: GameState, cmd: Recruit) -> None:
    in_play = navigators_in_play(state, cmd.player)
    if cmd.navigators and in_play + cmd.navigators > data.MAX_NAVIGATORS:
        raise RuleViolation(
            "H-HEROES",
            "At most %(max)d Navigators each: you have %(have)d in play and want %(more)d more.",
            max=data.MAX_NAVIGATORS,
            have=in_play,
            more=cmd.navigators,
        )


def decide_recruit(state: GameState, cmd: Recruit) -> list[Event]:
    """H-ACTIONS Recruit; H-PIECES: only pieces from the supply; H-NATIVE-LOST; H-HEROES: Navigators
    hired for 2 AP each, at most 2 in play; S-BLANK: Blanks pay part of the AP as the order says."""
    if cmd.space not in recruit_places(state, cmd.player):
        native = state.board.get(data.native_space(cmd.player))
        if native is not None and native.owner != cmd.player and cmd.space == native.space:
            raise RuleViolation(
                "H-NATIVE-LOST", "A rival holds your Native Polis; you recruit only where your King stands."
            )
        raise RuleViolation(
            "H-ACTIONS",
            "Recruit only in your Native Polis or where your King stands, not in %(space)s.",
            space=cmd.space,
        )
    player = state.players[cmd.player]
    if cmd.phalanxes > player.phalanx_supply:
        raise RuleViolation(
            "H-PIECES", "Only %(supply)d phalanxes are left in your supply.", supply=player.phalanx_supply
        )
    _check_navigators(state, cmd)
    cost = recruit_price(cmd)
    check_blanks(player, cost, cmd.blanks)
    if cost - cmd.blanks > player.ap:
        if cmd.blanks:
            raise short_of_points("H-ACTIONS", cost, "AP", player.ap, cmd.blanks)
        raise RuleViolation(
            "H-ACTIONS", "Recruiting this costs %(cost)d AP; you have %(ap)d.", cost=cost, ap=player.ap
        )
    payload = {"player": cmd.player, "space": cmd.space, "phalanxes": cmd.phalanxes}
    payload |= {"navigators": cmd.navigators, "ap": cost - cmd.blanks, "blanks": cmd.blanks}
    return [Event("PhalanxesRecruited", payload)]


def decide_fortify(state: GameState, cmd: Fortify) -> list[Event]:
    """H-ACTIONS Fortify: 3 AP for one Fortification (S-FORT: 3 HP) on a Polis you control; S-BLANK."""
    polis = state.board.get(cmd.space)
    if polis is None or polis.owner != cmd.player:
        raise RuleViolation(
            "H-ACTIONS", "You can fortify only a Polis you control; %(space)s is not.", space=cmd.space
        )
    player = state.players[cmd.player]
    check_blanks(player, data.FORTIFY_AP, cmd.blanks)
    if data.FORTIFY_AP - cmd.blanks > player.ap:
        if cmd.blanks:
            raise short_of_points("H-ACTIONS", data.FORTIFY_AP, "AP", player.ap, cmd.blanks)
        raise RuleViolation(
            "H-ACTIONS", "A Fortification costs %(cost)d AP; you have %(ap)d.", cost=data.FORTIFY_AP,
            ap=player.ap,
        )  # fmt: skip
    paid = {"ap": data.FORTIFY_AP - cmd.blanks, "blanks": cmd.blanks}
    return [Event("FortificationBuilt", {"player": cmd.player, "space": cmd.space, **paid})]


def decide_pass(state: GameState, cmd: Pass) -> list[Event]:
    """H-YEAR: instead of an action, a player may pass."""
    return [Event("PlayerPassed", {"player": cmd.player, "automatic": False})]


@applies("PhalanxesRecruited")
def _phalanxes_recruited(state: GameState, payload: dict[str, Any]) -> None:
    player = state.players[payload["player"]]
    player.ap -= payload["ap"]
    player.blanks -= payload.get("blanks", 0)  # events older than S-BLANK carry no "blanks"
    player.phalanx_supply -= payload["phalanxes"]
    polis = state.board[payload["space"]]
    polis.phalanxes += payload["phalanxes"]
    polis.navigators += payload.get("navigators", 0)


@applies("FortificationBuilt")
def _fortification_built(state: GameState, payload: dict[str, Any]) -> None:
    player = state.players[payload["player"]]
    player.ap -= payload["ap"]
    player.blanks -= payload.get("blanks", 0)
    state.board[payload["space"]].fortification_hp.append(data.FORTIFICATION_HP)


@applies("PlayerPassed")
def _player_passed(state: GameState, payload: dict[str, Any]) -> None:
    """A pass changes nothing but the turn, which the turn flow advances."""
