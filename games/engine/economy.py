"""Coins and income: the coin bag (S-BAG, H-BAG) and Spring income (S-INC, with H-GOV's bonus).

Coin collections are `{design: count}` dicts without zero entries, so that equal
holdings always compare equal, whichever way they were reached.
"""

from __future__ import annotations

from typing import Any

from . import data
from .events import Event
from .fold import applies
from .rng import GameRng
from .state import Coins, GameState
from .versions import SEED_WINS, plays_by


def add_coins(target: Coins, coins: Coins) -> None:
    """H-BAG: coins move between bag, screens and Poleis; none is created or lost."""
    for design, n in coins.items():
        if n:
            target[design] = target.get(design, 0) + n


def remove_coins(source: Coins, coins: Coins) -> None:
    """H-BAG: take `coins` out of `source`; the caller has checked that they are there."""
    for design, n in coins.items():
        left = source.get(design, 0) - n
        if left < 0:
            raise ValueError(f"cannot take {n} {design} coins from {source}")
        if left:
            source[design] = left
        else:
            source.pop(design, None)


def coin_count(coins: Coins) -> int:
    """How many coins, of any design (S-RANK's Coin ranking, H-END's tie-break)."""
    return sum(coins.values())


def has_coins(holder: Coins, coins: Coins) -> bool:
    """H-WINTER-ORDERS: only coins that are there can be committed."""
    return all(holder.get(design, 0) >= n for design, n in coins.items())


def draw_from_bag(bag: Coins, count: int, rng: GameRng) -> Coins:
    """S-BAG: draw `count` coins blind from the bag, one at a time (H-BAG: an empty bag pays nothing).

    Reads `bag` without changing it; the drawn coins go into the event and the applier
    moves them. Every coin in the bag is equally likely, so common designs come up more often.
    """
    left = dict(bag)
    drawn: Coins = {}
    for _ in range(count):
        pool = [design for design in sorted(left) for _ in range(left[design])]
        if not pool:
            break
        design = rng.choice(pool, "coin")
        remove_coins(left, {design: 1})
        add_coins(drawn, {design: 1})
    return drawn


def is_income_year(year: int) -> bool:
    """S-INC: Spring income in 431, 429, 427, 425 and 423 — never in 421."""
    return year in data.INCOME_YEARS


def controlled_poleis(state: GameState, faction: str) -> list[str]:
    """Spaces of the Poleis `faction` controls (H-CONTROL: units need not be there)."""
    return sorted(space for space, polis in state.board.items() if polis.owner == faction)


def printed_income(state: GameState, faction: str) -> tuple[int, int, int]:
    """(AP, FP, coins) the faction's Poleis pay: S-INC, exactly what the tiles print; a Mint adds nothing."""
    ap = fp = coins = 0
    for space in controlled_poleis(state, faction):
        tile = data.TILES[state.board[space].tile_id]
        ap, fp, coins = ap + tile.ap, fp + tile.fp, coins + tile.coins
    return ap, fp, coins


def economy_coins(state: GameState, faction: str) -> int:
    """H-FACTION: the faction's own coins at income (Thebes' economy: +1), from the data file, while it
    holds its Native Polis. No Polis pays them: the Native Polis pays its print like any other (S-INC)."""
    native = state.board.get(data.native_space(faction))
    return data.FACTIONS[faction].economy_coins if native and native.owner == faction else 0


def government_bonus(government: str) -> dict[str, int]:
    """H-GOV: Tyranny +1 AP, Oligarchy +1 FP, Democracy +1 Blank (S-BLANK) at each income, from data."""
    g = data.GOVERNMENTS[government]
    return {"ap": g.bonus_ap, "fp": g.bonus_fp, "blanks": g.bonus_blanks}


def spring_income(state: GameState, year: int, rng: GameRng) -> list[Event]:
    """S-INC, S-BAG: each player, in seat order, receives what their Poleis print; coins drawn blind.

    H-GOV: and the bonus of their government, kept apart in the payload ("bonus"), since it
    is not printed on any tile; Blanks come from the unlimited supply (H-BAG). H-FACTION: the
    faction's own economy (Thebes), drawn blind after the Poleis' coins and kept apart too
    ("economy"); under rules version 1 it was counted into the Poleis' coins ("owed").
    """
    events = []
    bag = dict(state.bag)
    apart = plays_by(state.rules_version, SEED_WINS)
    for faction in state.seat_order:
        ap, fp, coin_total = printed_income(state, faction)
        extra = economy_coins(state, faction)
        coins = draw_from_bag(bag, coin_total if apart else coin_total + extra, rng)
        remove_coins(bag, coins)
        government = state.players[faction].government
        payload: dict[str, Any] = {"player": faction, "year": year, "ap": ap, "fp": fp, "coins": coins}
        payload["owed"] = coin_total if apart else coin_total + extra
        payload |= {"government": government, "bonus": government_bonus(government)}
        if apart and extra:
            own = draw_from_bag(bag, extra, rng)
            remove_coins(bag, own)
            payload["economy"] = {"coins": own, "owed": extra}
        events.append(Event("IncomeReceived", payload))
    return events


@applies("IncomeReceived")
def _income_received(state: GameState, payload: dict[str, Any]) -> None:
    player = state.players[payload["player"]]
    bonus = payload.get("bonus", {})  # events older than H-GOV's bonus carry none
    player.ap += payload["ap"] + bonus.get("ap", 0)
    player.fp += payload["fp"] + bonus.get("fp", 0)
    player.blanks += bonus.get("blanks", 0)
    for coins in (payload["coins"], payload.get("economy", {}).get("coins", {})):
        remove_coins(state.bag, coins)
        add_coins(player.coins_behind_screen, coins)
