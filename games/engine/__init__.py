"""AEGEAPOLIS rules engine: pure Python, deterministic, no Django, no I/O, no clock, no global RNG.

The facade used by the service, the bots and the tests alike:

- `new_game(setup, seed) -> list[Event]`: the opening events (H-SETUP) and the first Spring.
- `fold(events) -> GameState` / `fold_from(state, events)`: pure replay, no randomness.
- `decide(state, command, rng) -> list[Event]`: validate an order, resolve its randomness,
  return its events and their automatic consequences; raises RuleViolation, changes nothing.
- `decide_recorded(state, command, seed, position)` / `opening_recorded(setup, seed)`: the
  batches as stored, with "OrderGiven" and "RandomnessDrawn" around them (record.py).
- `draw_factions(chosen, random_seats, seed) -> Event`: a gathered game's "random" seats' factions
  drawn from the seed ("FactionsDrawn", seat_draw.py), recorded in its opening (H-SETUP).
- `decide_take_back(before, after, batch, order_seq, player) -> Event`: H-TAKEBACK, the last order
  taken back ("OrderTakenBack"), while it drew and revealed nothing; `why_it_stands` says why not.
- `legal_commands(state, player) -> list[Command]`: a bounded set of legal orders;
  `reseal_commands(state, player)` the sealed winter orders a player who sealed may seal again (H-TAKEBACK).
- `scenario(dict) -> GameState`: a hand-made state (docs/scenarios.md).
- `player_view(state, faction) -> dict`: what that player may see (H-SCREEN);
  `event_view(event, faction, game_over)` the same for one event of the history;
  `board_view(state)` only what the board shows, public to all.
- `command_from_dict(dict) -> Command`: read an untrusted order (H-ORDER).
- `RULES_VERSION`: the rules' meaning this engine decides by, named in every opening and order;
  `rules_version_of(payload)` reads it back; `DECIDED_VERSIONS` the older ones it still decides
  exactly, so their games replay (H-RULES-VERSION, docs/rules.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

# Importing every rule module registers its event appliers (fold.applies) before any fold.
from . import (  # noqa: F401
    actions,
    builders,
    combat,
    economy,
    expansion,
    government,
    mission_scoring,
    missions,
    movement,
    offers,
    record,
    setup,
    takeback,
    trade,
    turns,
    winter,
)
from .commands import (
    COMMAND_TYPES,
    AcceptOffer,
    Bundle,
    ChooseTile,
    Command,
    CommitCoins,
    DeclineOffer,
    Destination,
    Expand,
    Fortify,
    Move,
    NeutralTrade,
    OfferTrade,
    Oracle,
    Pass,
    Recruit,
    RecruitBuilder,
    Reform,
)
from .events import Event, RuleViolation
from .fold import apply_events, apply_in_place
from .legal import legal_commands, reseal_commands
from .order_reading import command_from_dict
from .record import (
    ORDER_GIVEN,
    RANDOMNESS_DRAWN,
    RULES_VERSION,
    order_given,
    randomness_drawn,
    reveal_seed,
    rules_version_of,
)
from .rng import GameRng
from .scenario import ScenarioError, scenario, scenario_loaded
from .seat_draw import FACTIONS_DRAWN, SEAT_DRAW_POSITION, draw_factions, seated_factions
from .state import GameState
from .takeback import ORDER_TAKEN_BACK, decide_take_back, why_it_stands, why_it_would_stand
from .versions import DECIDED_VERSIONS
from .view import board_view, event_view, player_view

__all__ = [
    "COMMAND_TYPES",
    "DECIDED_VERSIONS",
    "FACTIONS_DRAWN",
    "ORDER_GIVEN",
    "ORDER_TAKEN_BACK",
    "RANDOMNESS_DRAWN",
    "RULES_VERSION",
    "SEAT_DRAW_POSITION",
    "AcceptOffer",
    "Bundle",
    "DeclineOffer",
    "NeutralTrade",
    "OfferTrade",
    "Oracle",
    "ChooseTile",
    "Command",
    "CommitCoins",
    "Destination",
    "Event",
    "Expand",
    "Fortify",
    "GameRng",
    "GameState",
    "Move",
    "Pass",
    "Recruit",
    "RecruitBuilder",
    "Reform",
    "RuleViolation",
    "ScenarioError",
    "command_from_dict",
    "decide",
    "decide_take_back",
    "decide_recorded",
    "decide_recorded_with_state",
    "draw_factions",
    "board_view",
    "event_view",
    "fold",
    "fold_from",
    "legal_commands",
    "new_game",
    "opening_recorded",
    "player_view",
    "reseal_commands",
    "rules_version_of",
    "scenario",
    "scenario_loaded",
    "seated_factions",
    "why_it_stands",
    "why_it_would_stand",
]


def fold(events: Iterable[Event]) -> GameState:
    """Replay `events` from an empty state: pure, no randomness, no clock (H-SETUP … H-END)."""
    return fold_from(GameState(), events)


def fold_from(state: GameState, events: Iterable[Event]) -> GameState:
    """Continue folding from a snapshot (H-SETUP … H-END); `state` itself is changed and returned."""
    return apply_in_place(state, events)


def _settle(work: GameState, rng: GameRng) -> list[Event]:
    """Apply the automatic consequences to `work` until a player must act (turn flow, winter, end)."""
    events: list[Event] = []
    while batch := turns.follow_up(work, rng):
        apply_in_place(work, batch)
        events += batch
    return events


def new_game(
    setup_data: dict[str, Any], seed: str, rng: GameRng | None = None, rules_version: int = RULES_VERSION
) -> list[Event]:
    """H-SETUP: "GameStarted" (seat order, natives, neutral Poleis, deck and bag), then the first Spring.

    Every draw comes from GameRng(seed, 0) (or `rng`, to read its transcript afterwards). The game
    begins under `rules_version` (H-RULES-VERSION: an older one to replay a game recorded under it).
    Raises RuleViolation("S-FAC") for a bad faction list.
    """
    rng = rng or GameRng(seed, record.OPENING_POSITION)
    started = setup.game_started(setup_data, seed, rng, rules_version)
    work = fold([started])
    return [started, *_settle(work, rng)]


def opening_recorded(
    setup_data: dict[str, Any],
    seed: str,
    rules_version: int = RULES_VERSION,
    factions_drawn: Event | None = None,
) -> list[Event]:
    """A new game's opening as stored: new_game's events, then "RandomnessDrawn" at position 0.

    `factions_drawn`: a gathered game's "FactionsDrawn" (seat_draw.py: the "random" seats' factions,
    whose draws are at their own position), recorded right after "GameStarted", which stays first."""
    rng = GameRng(seed, record.OPENING_POSITION)
    started, *rest = new_game(setup_data, seed, rng, rules_version)
    drawn = [factions_drawn] if factions_drawn is not None else []
    return [started, *drawn, *rest, randomness_drawn(rng)]


def _on_turn(state: GameState, cmd: Command) -> None:
    """H-YEAR: actions are taken only in the action rounds, by the player on turn."""
    if state.phase == "choice":
        raise RuleViolation("S-EXP-CHOICE", "A tile choice must be answered first.")
    if state.phase != "actions":
        raise RuleViolation("H-YEAR", "No actions now: it is winter; send your winter order.")
    if state.player_on_turn != cmd.player:
        raise RuleViolation(
            "H-YEAR", "It is not your turn; the game waits for %(player)s.", player=state.player_on_turn
        )


_HANDLERS: dict[type[Command], Callable[[GameState, Any, GameRng], list[Event]]] = {
    Pass: lambda s, c, r: actions.decide_pass(s, c),
    Recruit: lambda s, c, r: actions.decide_recruit(s, c),
    Fortify: lambda s, c, r: actions.decide_fortify(s, c),
    Expand: expansion.decide_expand,
    Move: movement.decide_move,
    ChooseTile: expansion.decide_choose_tile,
    CommitCoins: winter.decide_commit,
    Reform: lambda s, c, r: government.decide_reform(s, c),
    RecruitBuilder: lambda s, c, r: builders.decide_recruit_builder(s, c),
    Oracle: missions.decide_oracle,
    NeutralTrade: lambda s, c, r: trade.decide_neutral_trade(s, c),
    OfferTrade: lambda s, c, r: offers.decide_offer(s, c),
    AcceptOffer: lambda s, c, r: offers.decide_accept(s, c),
    DeclineOffer: lambda s, c, r: offers.decide_decline(s, c),
}
_ACTIONS = (Pass, Recruit, Fortify, Expand, Move, Reform, RecruitBuilder, Oracle, NeutralTrade, OfferTrade)
# H-TRADE: answering an offer is legal off turn and costs no action, so it never ends a turn.
_FREE = (AcceptOffer, DeclineOffer)


def decide(state: GameState, command: Command, rng: GameRng) -> list[Event]:
    """Validate `command` against `state`, draw its randomness from `rng`, return the events.

    Common checks here: H-END (the game is over), H-ORDER (well-formed, a known player),
    H-YEAR (actions only by the player on turn, in the action rounds); the rule modules check
    the rest (S-EXP…, S-MOVE…, H-ACTIONS, H-WINTER-ORDERS).

    The events include the automatic consequences (next turn, automatic passes of players
    without a Polis, winter scoring and reinforcement, the next year's Spring, the end).
    Never changes `state`; an illegal order raises RuleViolation naming the rule.
    """
    return _decided(state, command, rng)[0]


def _decided(
    state: GameState,
    command: Command,
    rng: GameRng,
    scratch: GameState | None = None,
    rules_version: int | None = None,
) -> tuple[list[Event], GameState]:
    """decide's events, and the state after them (decide folds them as it goes, onto `scratch`
    when given: a copy of `state` nobody else holds, else onto a copy it makes). `rules_version`:
    the rules that decide the order, when not those the game was played under so far (H-RULES-VERSION:
    a game goes on under a new version from its first order after the change)."""
    if rules_version is not None and state.rules_version != rules_version:
        state = state.copy()
        state.rules_version = rules_version
        if scratch is not None:
            scratch.rules_version = rules_version
    if state.phase == "ended":
        raise RuleViolation("H-END", "The game is over.")
    if not isinstance(command, Command):
        raise RuleViolation("H-ORDER", "That is not an order.")
    command = command_from_dict(command.to_dict())  # H-ORDER: the same checks as untrusted JSON
    if command.player not in state.players:
        raise RuleViolation("H-ORDER", "%(player)s is not playing in this game.", player=command.player)
    if isinstance(command, _ACTIONS):
        _on_turn(state, command)
    events = _HANDLERS[type(command)](state, command, rng)
    work = apply_in_place(scratch if scratch is not None else state.copy(), events)
    if not isinstance(command, _FREE) and state.phase in ("actions", "choice") and work.phase == "actions":
        tail = turns.end_of_turn(work)
        apply_in_place(work, tail)
        events += tail
    return events + _settle(work, rng), work


def decide_recorded(
    state: GameState,
    command: Command,
    seed: str,
    position: int,
    by: str = "player",
    rules_version: int = RULES_VERSION,
) -> list[Event]:
    """One order's whole batch as stored: "OrderGiven", decide's events, "RandomnessDrawn" (H-END:
    the seed revealed in "GameEnded", which stays last). `position` is the seq "OrderGiven" will
    get, the batch's RNG position. The service, the bots and the verifier all build batches here;
    raises RuleViolation. `rules_version`: the rules that decide it (H-RULES-VERSION: the server's,
    or an older one the verifier replays a batch recorded under).
    """
    return decide_recorded_with_state(state, command, seed, position, by, rules_version=rules_version)[0]


def decide_recorded_with_state(
    state: GameState,
    command: Command,
    seed: str,
    position: int,
    by: str = "player",
    *,
    scratch: GameState | None = None,
    rules_version: int = RULES_VERSION,
) -> tuple[list[Event], GameState]:
    """decide_recorded's batch (H-ORDER, H-END) and the state after it, equal to folding the batch
    onto `state` (which is left unchanged): decide has folded its events already, so the service
    need not copy the state and fold them again. `scratch`: a copy of `state` that the caller gives
    up (equal to it, sharing nothing with it or anyone): the batch is folded onto it instead of
    onto a copy made here (the service unpickles one from its state cache, cheaper than a copy)."""
    rng = GameRng(seed, position)
    decided, after = _decided(state, command, rng, scratch, rules_version)
    events = [reveal_seed(e, seed) for e in decided]
    # H-END: "GameEnded" stays the game's last event; it draws nothing, so the draws go before it.
    ended = events[-1:] if events and events[-1].type == "GameEnded" else []
    given, drawn = order_given(command, by, rules_version), randomness_drawn(rng)
    recorded = [given, *events[: len(events) - len(ended)], drawn, *ended]
    if ended:  # the stored "GameEnded" reveals the seed that decide's did not: fold what is stored
        return recorded, apply_events(state, recorded)
    return recorded, apply_in_place(after, [given, drawn])
