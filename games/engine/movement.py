"""The Move action: S-MOVE, S-MOVE-FREE, S-MOVE-NAV, S-MOVE-ORDER, S-MOVE-BUILDER, H-CONTROL's heroes
rule, and S-BLANK (the order names how many of the FP are paid in Blanks).

`decide_move` validates a Move, charges its single FP cost and hands every destination
the mover does not control to combat (S-COMBAT-EMPTY, S-COMBAT). Units arriving at a
Polis of their own simply join the units there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from . import board
from .combat import force_units, resolve_arrival
from .commands import Destination, Move
from .data import MAX_DESTINATIONS, UNITS_PER_FLEET_STEP, native_space
from .events import Event, RuleViolation
from .fold import applies, apply_events, apply_in_place
from .payment import check_blanks, short_of_points
from .rng import GameRng
from .state import GameState


def move_cost(units_counted: int, farthest: int, navigators: int) -> int:
    """S-MOVE, S-MOVE-NAV: ceil(units / 4) × distance to the farthest destination, less 1 per Navigator.

    `units_counted` already leaves out the King and Builders (S-MOVE-FREE) and includes
    the Navigators, who count as units. The Navigator discount comes last and never
    takes the cost below 0. The excerpts apply it "after any Convergence"; this edition
    has no Convergence step (H-CONVERGENCE), so nothing else happens in between.
    """
    return max(0, math.ceil(units_counted / UNITS_PER_FLEET_STEP) * farthest - navigators)


def counted_units(destinations: tuple[Destination, ...]) -> int:
    """S-MOVE-FREE: phalanxes and Navigators count; the King and Builders ride free."""
    return sum(d.phalanxes + d.navigators for d in destinations)


@dataclass(frozen=True)
class MovePlan:
    """A validated move: what it costs and where each group of units ends up."""

    cost: int
    farthest: int
    joins: tuple[Destination, ...]  # destinations the mover already controls
    conquests: tuple[Destination, ...]  # undefended rival or neutral Poleis, in the order named
    battles: tuple[Destination, ...]  # defended Poleis, in the attacker's battle order


def _check_counts(dest: Destination) -> None:
    numbers_ok = all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0
        for n in (dest.phalanxes, dest.navigators, dest.builders)
    )
    if not numbers_ok or not isinstance(dest.king, bool):
        raise RuleViolation(
            "H-ORDER", "The units sent to %(space)s must be whole numbers of 0 or more.", space=dest.space
        )
    if dest.phalanxes + dest.navigators + dest.builders == 0 and not dest.king:
        raise RuleViolation("S-MOVE", "Send at least one unit to %(space)s.", space=dest.space)
    # Heroes and Builders never travel alone (H-HEROES, H-CONTROL, S-MOVE-BUILDER).
    if dest.phalanxes == 0 and dest.king:
        raise RuleViolation(
            "H-CONTROL", "Your King cannot travel to %(space)s without a phalanx.", space=dest.space
        )
    if dest.phalanxes == 0 and dest.navigators:
        raise RuleViolation(
            "H-HEROES", "A Navigator cannot travel to %(space)s without a phalanx.", space=dest.space
        )
    if dest.phalanxes == 0 and dest.builders:
        raise RuleViolation(
            "S-MOVE-BUILDER", "A Builder cannot travel to %(space)s without a phalanx.", space=dest.space
        )


def _check_destinations(state: GameState, cmd: Move) -> None:
    if not cmd.destinations:
        raise RuleViolation("S-MOVE", "Name at least one destination for your units.")
    if len(cmd.destinations) > MAX_DESTINATIONS:
        raise RuleViolation(
            "S-MOVE",
            "A move may reach at most 3 destinations; you named %(count)d.",
            count=len(cmd.destinations),
        )
    seen: set[str] = set()
    for dest in cmd.destinations:
        if not board.is_space(dest.space) or dest.space not in state.board:
            raise RuleViolation(
                "S-MOVE", "%(space)s holds no Polis; units can only move to a Polis.", space=dest.space
            )
        if dest.space == cmd.origin:
            raise RuleViolation(
                "S-MOVE", "%(space)s is where your units start; it cannot be a destination.", space=dest.space
            )
        if dest.space in seen:
            raise RuleViolation("S-MOVE", "%(space)s is named twice as a destination.", space=dest.space)
        seen.add(dest.space)
        _check_counts(dest)


def _check_units_available(state: GameState, cmd: Move) -> None:
    origin = state.board[cmd.origin]
    wanted = {
        "phalanxes": (sum(d.phalanxes for d in cmd.destinations), origin.phalanxes),
        "Navigators": (sum(d.navigators for d in cmd.destinations), origin.navigators),
        "Builders": (sum(d.builders for d in cmd.destinations), origin.builders),
    }
    kings_moving = sum(1 for d in cmd.destinations if d.king)
    if kings_moving > (1 if origin.king else 0):
        raise RuleViolation(
            "S-MOVE",
            "You can send your King to one destination, and only if he is in %(origin)s.",
            origin=cmd.origin,
        )
    for kind, (moving, present) in wanted.items():
        if moving > present:
            raise RuleViolation(
                "S-MOVE",
                "You move %(moving)d %(kind)s out of %(origin)s, but %(origin)s holds only %(present)d.",
                moving=moving,
                kind=kind,
                origin=cmd.origin,
                present=present,
            )
    phalanxes_left = origin.phalanxes - wanted["phalanxes"][0]
    if phalanxes_left > 0 or cmd.origin == native_space(cmd.player):
        return
    # H-CONTROL: outside its Native Polis no hero (nor a Builder, S-BUILDER) stays behind alone.
    if origin.king and not kings_moving:
        raise RuleViolation(
            "H-CONTROL",
            "Your King cannot stay alone in %(origin)s: leave a phalanx with him or take him along.",
            origin=cmd.origin,
        )
    if origin.navigators > wanted["Navigators"][0]:
        raise RuleViolation(
            "H-CONTROL",
            "A Navigator cannot stay alone in %(origin)s: leave a phalanx or take it along.",
            origin=cmd.origin,
        )
    if origin.builders > wanted["Builders"][0]:
        raise RuleViolation(
            "S-BUILDER",
            "A Builder cannot stay alone in %(origin)s: leave a phalanx or take it along.",
            origin=cmd.origin,
        )


def battles_as_listed(state: GameState, cmd: Move) -> tuple[str, ...]:
    """S-MOVE-ORDER: the destinations of `cmd` that are defended (another's or a neutral Polis with
    phalanxes), in the order the Move lists them: the battle order a player gives by the order of
    their destinations, where they name none (the order form, the Moves offered)."""
    return tuple(
        d.space
        for d in cmd.destinations
        if state.board[d.space].owner != cmd.player and state.board[d.space].phalanxes > 0
    )


def _battle_order(cmd: Move, battles: list[Destination]) -> tuple[Destination, ...]:
    """S-MOVE-ORDER: the attacker's battle_order must list each defended destination once."""
    by_space = {d.space: d for d in battles}
    order = list(cmd.battle_order)
    if not order and len(battles) <= 1:
        return tuple(battles)
    if not all(isinstance(s, str) for s in order) or sorted(order) != sorted(by_space):
        raise RuleViolation(
            "S-MOVE-ORDER",
            "Give the order of your battles: each of %(spaces)s exactly once.",
            spaces=", ".join(sorted(by_space)) or "(no battles)",
        )
    return tuple(by_space[space] for space in order)


def plan_move(state: GameState, cmd: Move) -> MovePlan:
    """Check a Move against S-MOVE, S-MOVE-FREE, S-MOVE-NAV, S-MOVE-ORDER and H-CONTROL.

    Raises RuleViolation for the first rule it breaks; returns the plan otherwise.
    """
    player = state.players.get(cmd.player)
    origin = state.board.get(cmd.origin)
    if player is None or origin is None or origin.owner != cmd.player:
        raise RuleViolation(
            "S-MOVE",
            "You can only move units out of a Polis you control; %(origin)s is not yours.",
            origin=cmd.origin,
        )
    _check_destinations(state, cmd)
    _check_units_available(state, cmd)

    farthest = max(board.distance(cmd.origin, d.space) for d in cmd.destinations)
    navigators = sum(d.navigators for d in cmd.destinations)
    cost = move_cost(counted_units(cmd.destinations), farthest, navigators)
    check_blanks(player, cost, cmd.blanks)
    if cost - cmd.blanks > player.fp:
        if cmd.blanks:
            raise short_of_points("S-MOVE", cost, "FP", player.fp, cmd.blanks)
        raise RuleViolation(
            "S-MOVE", "This move costs %(cost)d FP, but you have only %(fp)d FP.", cost=cost, fp=player.fp
        )
    joins = tuple(d for d in cmd.destinations if state.board[d.space].owner == cmd.player)
    contested = [d for d in cmd.destinations if state.board[d.space].owner != cmd.player]
    conquests = tuple(d for d in contested if state.board[d.space].phalanxes == 0)
    battles = _battle_order(cmd, [d for d in contested if state.board[d.space].phalanxes > 0])
    return MovePlan(cost, farthest, joins, conquests, battles)


def decide_move(state: GameState, cmd: Move, rng: GameRng) -> list[Event]:
    """The Move action (S-MOVE, S-MOVE-FREE, S-MOVE-NAV, S-MOVE-ORDER, H-CONTROL, S-COMBAT…).

    Returns "UnitsMoved" (FP paid, units joining own Poleis), then "PolisConquered" for
    each undefended rival or neutral destination in the order named, then for each
    defended one in the attacker's battle order "BattleFought" (every die) and, if
    won, "PolisConquered". Never changes `state`; an illegal move raises RuleViolation.
    """
    plan = plan_move(state, cmd)
    arrival = {d.space: "join" for d in plan.joins}
    arrival.update({d.space: "conquest" for d in plan.conquests})
    arrival.update({d.space: "battle" for d in plan.battles})
    moved = Event(
        "UnitsMoved",
        {
            "player": cmd.player,
            "origin": cmd.origin,
            "destinations": [
                {"space": d.space, **force_units(d), "arrival": arrival[d.space]} for d in cmd.destinations
            ],
            "units_counted": counted_units(cmd.destinations),
            "farthest": plan.farthest,
            "navigators": sum(d.navigators for d in cmd.destinations),
            "fp_paid": plan.cost - cmd.blanks,
            "blanks": cmd.blanks,
        },
    )
    events = [moved]
    work = apply_events(state, events)
    for dest in plan.conquests + plan.battles:
        arrived = resolve_arrival(work, cmd.player, cmd.origin, dest, rng)
        apply_in_place(work, arrived)
        events.extend(arrived)
    return events


@applies("UnitsMoved")
def apply_units_moved(state: GameState, p: dict[str, Any]) -> None:
    """Pay the move's FP; units joining an own Polis arrive now.

    Units bound for a rival or neutral Polis stay counted on the origin until their
    "PolisConquered" or "BattleFought" event, so no piece is ever off the board.
    """
    state.players[p["player"]].fp -= p["fp_paid"]
    state.players[p["player"]].blanks -= p.get("blanks", 0)  # events older than S-BLANK carry none
    origin = state.board[p["origin"]]
    for dest in p["destinations"]:
        if dest["arrival"] != "join":
            continue
        target = state.board[dest["space"]]
        origin.phalanxes -= dest["phalanxes"]
        target.phalanxes += dest["phalanxes"]
        origin.navigators -= dest["navigators"]
        target.navigators += dest["navigators"]
        origin.builders -= dest["builders"]
        target.builders += dest["builders"]
        if dest["king"]:
            origin.king, target.king = False, True
