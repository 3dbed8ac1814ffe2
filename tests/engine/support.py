"""Helpers for the engine's rule examples: decide an order on a hand-made state, or see it refused."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Command, Event, GameRng, GameState, RuleViolation, decide, fold_from, scenario
from games.engine.commands import Destination, Move
from games.engine.fold import apply_events
from games.engine.movement import decide_move


def state_of(**spec: Any) -> GameState:
    """A scenario (docs/scenarios.md) given as keyword arguments."""
    return scenario(spec)


def play(state: GameState, command: Command, seed: str = "example") -> tuple[list[Event], GameState]:
    """Decide `command` and return its events and the state after them; `state` is left as it was."""
    before = state.to_dict()
    events = decide(state, command, GameRng(seed, state.events_applied))
    assert state.to_dict() == before, "decide changed the state it was given"
    return events, fold_from(state.copy(), events)


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def only(events: list[Event], event_type: str) -> Event:
    (match,) = [e for e in events if e.type == event_type]
    return match


def refused(state: GameState, command: Command, rule: str) -> RuleViolation:
    """The order is refused naming `rule`, and the state is unchanged."""
    before = state.to_dict()
    with pytest.raises(RuleViolation) as caught:
        decide(state, command, GameRng("example", 0))
    assert caught.value.rule == rule, caught.value
    assert state.to_dict() == before
    return caught.value


def into_year(year: int, **spec: Any) -> tuple[list[Event], GameState]:
    """Finish year `year + 1` from the scenario `spec` and return what happens into `year`.

    After a scoring winter the last player's sealed order closes it; after any other winter
    the last player's third-round pass does.
    """
    from games.engine import CommitCoins, Pass
    from games.engine.data import SCORING_YEARS

    if year + 1 in SCORING_YEARS:
        seats = scenario(spec).seat_order
        orders = {f: {"coins": {}, "blanks": 0} for f in seats[:-1]}
        state = scenario({**spec, "year": year + 1, "phase": "winter_orders", "winter_orders": orders})
        return play(state, CommitCoins(seats[-1]))
    state = scenario({**spec, "year": year + 1, "action_round": 3})
    state = scenario({**spec, "year": year + 1, "action_round": 3, "on_turn": state.seat_order[-1]})
    return play(state, Pass(state.seat_order[-1]))


# The Move examples' helpers (test_movement, test_combat, test_fortification): hand-made positions and
# dice that fall as the example says.
class ScriptedDice(GameRng):
    """A GameRng whose dice fall as the test says, so each combat is an exact example."""

    def __init__(self, *rolls: int) -> None:
        super().__init__("scripted", 0)
        self.rolls = list(rolls)

    def die(self) -> int:
        assert self.rolls, "the engine rolled more dice than the example scripted"
        return self.rolls.pop(0)


def game(board: dict[str, dict[str, Any]], **players: dict[str, Any]) -> GameState:
    """A hand-made position; Athens (10 FP) and Sparta play unless others are named."""
    return scenario({"players": players or {"athens": {"fp": 10}, "sparta": {"fp": 10}}, "board": board})


def move(
    origin: str, *destinations: Destination, player: str = "athens", order: tuple[str, ...] = ()
) -> Move:
    return Move(player=player, origin=origin, destinations=destinations, battle_order=order)


def play_move(state: GameState, cmd: Move, rng: GameRng | None = None) -> tuple[list[Event], GameState]:
    """Decide the move and fold its events; a move without combat may roll no die at all."""
    dice = rng or ScriptedDice()
    events = decide_move(state, cmd, dice)
    if isinstance(dice, ScriptedDice):
        assert dice.rolls == [], "every scripted die must be used"
    return events, apply_events(state, events)


def units_at(state: GameState, space: str) -> tuple[str | None, int, bool, int]:
    p = state.board[space]
    return p.owner, p.phalanxes, p.king, p.navigators


def with_dice(state: GameState, command: Any, *rolls: int) -> tuple[list[Event], GameState]:
    """Decide `command` with these dice, each of which must be used; the events and the state after."""
    dice = ScriptedDice(*rolls)
    events = decide(state, command, dice)
    assert dice.rolls == [], "every scripted die must be used"
    return events, fold_from(state.copy(), events)
