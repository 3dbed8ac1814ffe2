"""A random bot and the invariants every state must keep; used by tests and `manage.py simulate`.

Pure: no Django. The bot draws from its own `random.Random` (a bot is a player, not the
engine, so it may); the engine's randomness still comes only from GameRng.
"""

from __future__ import annotations

import random as random_module
from collections.abc import Callable

from . import data
from .commands import Command
from .events import Event
from .fold import apply_in_place
from .legal import legal_commands
from .missions import deck_of
from .rng import GameRng
from .state import GameState, Player


def random_legal_command(state: GameState, player: str, random: random_module.Random) -> Command | None:
    """A uniformly random order out of `legal_commands` (None when `player` need not act)."""
    commands = legal_commands(state, player)
    return random.choice(commands) if commands else None


class InvariantBroken(AssertionError):
    """A state broke an invariant (the message names the first one and the event).

    `offset` is the index of the offending event in the batch applied; `seq` (set by
    play_random_game) its place in the whole game's log, counted from 1, and `event_type` its type.
    """

    offset: int = 0
    seq: int = 0
    event_type: str = ""


# Called with each batch before it is applied: (player or None for the opening, command or
# None, the batch's events, the seq of its first event). `manage.py simulate` stores it there.
BatchHook = Callable[[str | None, Command | None, list[Event], int], None]


def play_random_game(
    factions: list[str],
    seed: str,
    bot_seed: int | random_module.Random,
    check: bool = True,
    max_orders: int = 10_000,
    *,
    recorded: bool = False,
    on_batch: BatchHook | None = None,
    rules_version: int | None = None,
) -> tuple[list[Event], GameState]:
    """Play a whole game with random legal orders; returns the events and the state kept while playing.

    Each decision draws from GameRng(seed, seq of its first event), as the service does; with
    `recorded`, the batches are built as the service stores them (opening_recorded,
    decide_recorded: "OrderGiven" and "RandomnessDrawn" around each, H-END). `bot_seed` is a
    seed or the bot's own Random (to play several games from one). `on_batch` sees every batch
    before it is applied. With `check`, the invariants are checked after every event and
    InvariantBroken is raised, its `seq` naming the event. `rules_version`: the rules the game is
    played under (H-RULES-VERSION: an older one the engine still decides; default the engine's).
    """
    from . import RULES_VERSION, decide, decide_recorded, new_game, opening_recorded  # no import cycle

    version = RULES_VERSION if rules_version is None else rules_version
    bot = bot_seed if isinstance(bot_seed, random_module.Random) else random_module.Random(bot_seed)
    setup = {"factions": factions}
    events = opening_recorded(setup, seed, version) if recorded else new_game(setup, seed, None, version)
    state = GameState()
    _play_batch(state, None, None, events, 1, check, on_batch)
    for _ in range(max_orders):
        waiting = players_to_act(state)
        if not waiting:
            break
        player = bot.choice(waiting)
        command = random_legal_command(state, player, bot)
        if command is None:
            broken = InvariantBroken(f"{player} must act but has no legal order")
            broken.seq = len(events)
            raise broken
        position = len(events) + 1
        if recorded:
            new = decide_recorded(state, command, seed, position, "bot", version)
        else:
            new = decide(state, command, GameRng(seed, position))
        _play_batch(state, player, command, new, position, check, on_batch)
        events += new
    if state.phase != "ended":
        raise InvariantBroken(f"the game did not end within {max_orders} orders")
    return events, state


def _play_batch(
    state: GameState,
    player: str | None,
    command: Command | None,
    batch: list[Event],
    first_seq: int,
    check: bool,
    on_batch: BatchHook | None,
) -> None:
    if on_batch is not None:
        on_batch(player, command, batch, first_seq)
    try:
        apply_checked(state, batch, check)
    except InvariantBroken as broken:
        broken.seq, broken.event_type = first_seq + broken.offset, batch[broken.offset].type
        raise


def apply_checked(state: GameState, events: list[Event], check: bool = True) -> None:
    """Apply `events` to `state` one by one, checking the invariants after each (InvariantBroken).

    The exception's `offset` is the index in `events` of the event that broke one.
    """
    for offset, event in enumerate(events):
        # Of the previous state only the VP are compared; a full copy per event would be slow.
        before = GameState(players={f: Player(f, vp=p.vp) for f, p in state.players.items()})
        apply_in_place(state, [event])
        problems = check_invariants(before, state) if check else []
        if problems:
            broken = InvariantBroken(f"after {event.type} {event.payload}: {problems[0]}")
            broken.offset = offset
            raise broken


def players_to_act(state: GameState) -> list[str]:
    """Who may act now: the player on turn, or everyone without a sealed winter order; and
    (H-TRADE) every rival with an open offer to answer, on turn or not."""
    if state.phase == "winter_orders":
        return [f for f in state.seat_order if f not in state.winter_orders]
    on_turn = state.player_on_turn
    answering = [f for f in state.seat_order if f != on_turn and any(o.to == f for o in state.offers)]
    return ([on_turn] if on_turn else []) + answering


def check_invariants(previous: GameState | None, state: GameState) -> list[str]:
    """The invariants of a well-formed state; an empty list when all hold.

    - H-PIECES: each faction's phalanx supply + phalanxes on the board == its pieces (60, and 6 more
      with every reinforcement from the reserve, S-REINF).
    - H-BAG: each coin design: bag + screens + unminted coins on Poleis == 12 (committed
      coins stay behind the screen until the reveal, then go back into the bag).
    - S-FORT: every Fortification has 1..3 HP (a destroyed one is removed).
    - H-CONTROL, "no two owners on a Polis": a Polis has one owner field, so what can go wrong
      is units of a second side on it — neutral Poleis carry no heroes, and a faction's King
      stands on at most one Polis, only while it lives; no negative unit counts.
    - VP never decreases (between `previous` and `state`); AP, FP, Blanks never negative.
    - S-BUILDER: at most 5 Builders of a faction in play; H-HEROES: at most 2 Navigators.
    """
    problems: list[str] = []
    for faction, player in state.players.items():
        on_board = sum(p.phalanxes for p in state.board.values() if p.owner == faction)
        if player.phalanx_supply + on_board != player.phalanx_pieces:
            problems.append(
                f"H-PIECES: {faction} has {player.phalanx_supply} in supply + {on_board} on the board"
            )
        if min(player.ap, player.fp, player.blanks, player.phalanx_supply) < 0:
            problems.append(f"{faction} has a negative AP, FP, Blanks or supply")
        kings = [s for s, p in state.board.items() if p.king and p.owner == faction]
        if len(kings) > 1 or (kings and not player.king_alive):
            problems.append(f"H-HEROES: {faction}'s King stands on {kings} (alive: {player.king_alive})")
        builders = sum(p.builders for p in state.board.values() if p.owner == faction)
        navigators = sum(p.navigators for p in state.board.values() if p.owner == faction)
        if builders > data.MAX_BUILDERS or navigators > data.MAX_NAVIGATORS:
            problems.append(f"S-BUILDER/H-HEROES: {faction} has {builders} Builders, {navigators} Navigators")
        if previous is not None and faction in previous.players and player.vp < previous.players[faction].vp:
            problems.append(f"VP of {faction} fell from {previous.players[faction].vp} to {player.vp}")
    problems += _mission_card_problems(state)
    for design in data.COIN_DESIGNS:
        total = (
            state.bag.get(design, 0)
            + sum(p.coins_behind_screen.get(design, 0) for p in state.players.values())
            + sum(p.unminted_coins.get(design, 0) for p in state.board.values())
        )
        if total != data.COINS_PER_DESIGN:
            problems.append(f"H-BAG: {total} {design} coins in bag, screens and on Poleis")
    for space, polis in state.board.items():
        if any(not 1 <= hp <= data.FORTIFICATION_HP for hp in polis.fortification_hp):
            problems.append(f"S-FORT: fortification HP {polis.fortification_hp} on {space}")
        if min(polis.phalanxes, polis.navigators, polis.builders) < 0:
            problems.append(f"negative units on {space}")
        if polis.owner is None and (polis.king or polis.navigators or polis.builders):
            problems.append(f"H-CONTROL: heroes on the neutral Polis {space}")
        if polis.owner is not None and polis.owner not in state.players:
            problems.append(f"H-CONTROL: {space} is owned by {polis.owner}, who is not playing")
        if any(n < 0 for n in polis.unminted_coins.values()):
            problems.append(f"negative unminted coins on {space}")
        heroes = polis.king or polis.navigators or polis.builders
        if heroes and not polis.phalanxes and space != data.native_space(polis.owner or ""):
            problems.append(f"H-CONTROL: heroes without a phalanx on {space}")
    return problems


def _mission_card_problems(state: GameState) -> list[str]:
    """H-MISSIONS: every card is in exactly one place (deck, one hand, or face up), and all are accounted
    for once the deck has been formed; open offers (H-TRADE) are between two different players."""
    places = (
        state.mission_deck
        + state.mission_discard
        + [c for p in state.players.values() for c in p.mission_cards]
    )
    problems = []
    deck = deck_of(state.rules_version)  # H-RULES-VERSION: the deck the game was dealt from
    if len(places) != len(set(places)) or any(c not in data.MISSION_CARDS for c in places):
        problems.append(f"H-MISSIONS: a Mission Card is in two places or unknown: {sorted(places)}")
    elif places and len(places) != len(deck):
        problems.append(f"H-MISSIONS: {len(places)} Mission Cards accounted for, not {len(deck)}")
    for offer in state.offers:
        if offer.player == offer.to or {offer.player, offer.to} - set(state.players):
            problems.append(f"H-TRADE: offer {offer.id} is not between two players")
    return problems
