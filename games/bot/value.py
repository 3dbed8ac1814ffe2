"""How good a position is for one faction: the bot's evaluation (docs/bot.md "The evaluation").

A position is worth the VP already scored plus what it promises before the game ends, all in VP:
the Poleis ranking still to be scored (S-WINTER, S-RANK), the income still to come (S-INC, H-GOV),
the neutral trade the links give (H-TRADE), coins and Blanks for the Coin and Mint rankings, AP/FP,
the army, the King (H-HEROES), the Mission Cards' progress (H-MISSIONS) — and the battles within
reach, each weighed by its exact odds (odds.py): a Polis a rival army could take is worth less to its
owner and a little to the rival. `advantage` is a faction's worth less the mean of its rivals'.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from games.engine import GameState, data
from games.engine.board import coordinates
from games.engine.missions import card_in_force, objective_progress
from games.engine.trade import linked_neutrals, tradable_neutrals

from .odds import win_chance


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights, in VP (tuned against the bench's greedy player, docs/bot.md)."""

    polis_per_scoring: float = 1.1
    income_point: float = 0.22  # one printed AP/FP/coin per income still to come
    ap: float = 0.25
    fp: float = 0.25
    blank: float = 0.35
    coin: float = 0.6  # behind the screen, while a scoring is still to come
    phalanx: float = 0.45
    native: float = 3.0  # H-NATIVE-LOST: without it no reinforcement, recruits only beside the King
    king: float = 1.5
    link_per_year: float = 0.5  # a linked neutral to trade with, per year left
    fortification_hp: float = 0.06
    winter_card: float = 1.2
    builder_per_winter: float = 0.2  # S-BUILDER-FORT: a Fortification every winter
    threat: float = 0.4  # share of a Polis's worth counted for an army's chance of taking it
    reach: int = 4  # how far (Chebyshev) an army that can pay the way is counted as a threat or a chance


WEIGHTS = Weights()


def scorings_left(state: GameState) -> int:
    """S-WINTER: the scorings still to come, this year's included until it is scored."""
    if state.phase == "ended":
        return 0
    return sum(1 for y in data.SCORING_YEARS if y <= state.year)


def incomes_left(state: GameState) -> int:
    """S-INC: the Springs with income still to come (this year's has been paid)."""
    return sum(1 for y in data.INCOME_YEARS if y < state.year)


def _polis_worth(tile_id: str, scorings: int, incomes: int, w: Weights) -> float:
    """What holding a Polis is worth to anyone until the end: its scorings and its printed income."""
    tile = data.TILES[tile_id]
    return w.polis_per_scoring * scorings + w.income_point * (tile.ap + tile.fp + tile.coins) * incomes


def chances(state: GameState, faction: str, w: Weights = WEIGHTS) -> float:
    """The Poleis `faction`'s armies could take with their next Move, each weighed by the best exact odds
    (S-COMBAT, S-FORT) of any one army that can pay the way there (S-MOVE: ceil(units / 4) × distance
    in FP, Blanks paying too, S-BLANK)."""
    player = state.players[faction]
    purse = player.fp + player.blanks
    armies = []
    for space, polis in state.board.items():
        if polis.owner == faction and polis.phalanxes:
            steps = min(w.reach, purse // ceil(polis.phalanxes / data.UNITS_PER_FLEET_STEP))
            if steps:
                armies.append((*coordinates(space), polis.phalanxes, steps))
    if not armies:
        return 0.0
    scorings, incomes = scorings_left(state), incomes_left(state)
    total = 0.0
    for space, polis in state.board.items():
        if polis.owner == faction:
            continue
        col, row = coordinates(space)
        best = 0.0
        for army_col, army_row, phalanxes, steps in armies:
            if max(abs(col - army_col), abs(row - army_row)) <= steps:  # H-BOARD: Chebyshev
                best = max(best, win_chance(phalanxes, polis.phalanxes, tuple(polis.fortification_hp)))
        if best:
            native = w.native if data.TILES[polis.tile_id].native_of == polis.owner is not None else 0.0
            total += best * (_polis_worth(polis.tile_id, scorings, incomes, w) + native)
    return total


def _missions(state: GameState, faction: str, w: Weights) -> float:
    value = 0.0
    for card_id in state.players[faction].mission_cards:
        card = card_in_force(state, card_id)
        if card is None:
            continue
        if card.is_winter:
            value += w.winter_card
        else:  # H-MISSIONS: half the card's VP, as the objective comes in sight
            progress = min(objective_progress(state, faction, card.kind) / card.target, 1.0)
            value += 0.5 * card.vp * progress**2
    return value


def _government(government: str, w: Weights) -> float:
    """H-GOV: the government's bonus at each income still to come."""
    bonus = data.GOVERNMENTS[government]
    return bonus.bonus_ap * w.ap + bonus.bonus_fp * w.fp + bonus.bonus_blanks * w.blank


def worth(state: GameState, faction: str, w: Weights = WEIGHTS) -> float:
    """Everything `faction` holds and may still score, in VP (module docstring)."""
    player = state.players[faction]
    owned = [s for s, p in state.board.items() if p.owner == faction]
    scorings = scorings_left(state)
    value = float(player.vp)
    if state.phase == "ended":
        return value
    incomes = incomes_left(state)
    value += sum(_polis_worth(state.board[s].tile_id, scorings, incomes, w) for s in owned)
    native = state.board.get(data.native_space(faction))
    value += w.native if native is not None and native.owner == faction else 0.0
    value += sum(state.board[s].phalanxes for s in owned) * w.phalanx
    value += sum(len(state.board[s].fortification_hp) for s in owned) * w.fortification_hp * 3
    value += player.ap * w.ap + player.fp * w.fp + player.blanks * w.blank
    coins = sum(player.coins_behind_screen.values())
    value += coins * (w.coin if scorings else 0.01)
    value += w.king if player.king_alive else 0.0
    years_left = state.year - data.LAST_YEAR + 1
    # H-TRADE: a link to a neutral pays every year left; this year's trade, once made, is in the supply.
    value += len(linked_neutrals(state, faction)) * w.link_per_year * (years_left - 1)
    value += len(tradable_neutrals(state, faction)) * w.link_per_year * 0.5
    value += _missions(state, faction, w)
    builders = sum(state.board[s].builders for s in owned)
    value += builders * w.builder_per_winter * years_left
    value += _government(player.government, w) * incomes
    value += w.threat * chances(state, faction, w)
    return value


def advantage(state: GameState, faction: str, w: Weights = WEIGHTS) -> float:
    """`faction`'s worth less the mean of its rivals' (S-TIME: the most VP wins, a race against all)."""
    rivals = [f for f in state.seat_order if f != faction]
    mine = worth(state, faction, w)
    if not rivals:
        return mine
    return mine - sum(worth(state, f, w) for f in rivals) / len(rivals)
