"""The Trade action (H-TRADE): neutral trade, and the representative offers the bots and the page suggest.

Neutral trade: for each neutral Polis you have a trade link to (a link whose other end is a
Polis you control), once per year, take its printed AP and FP, and its printed coins as
Blanks. House reading of the printed "(where it blocks a group)": every coin a neutral trade
pays is a Blank — nothing is drawn from the bag (S-BLANK, H-BAG). One Trade action collects
from every such Polis not yet traded with this year; with none left it is refused.
Transactions offered to a rival live in offers.py.
"""

from __future__ import annotations

from typing import Any

from . import data
from .commands import Bundle, Command, NeutralTrade, OfferTrade
from .events import Event, RuleViolation
from .fold import applies
from .offers import handover_problem
from .state import GameState


def linked_neutrals(state: GameState, faction: str) -> list[str]:
    """Neutral Poleis joined by a trade link to a Polis the faction controls."""
    spaces = set()
    for a, b in state.trade_links:
        for mine, other in ((a, b), (b, a)):
            if state.board[mine].owner == faction and state.board[other].owner is None:
                spaces.add(other)
    return sorted(spaces)


def tradable_neutrals(state: GameState, faction: str) -> list[str]:
    """H-TRADE: linked neutral Poleis the faction has not traded with this year."""
    done = state.neutral_trades.get(faction, {})
    return [s for s in linked_neutrals(state, faction) if done.get(s) != state.year]


def decide_neutral_trade(state: GameState, cmd: NeutralTrade) -> list[Event]:
    """H-TRADE neutral trade: printed AP and FP, and printed coins as Blanks, once per Polis per year."""
    spaces = tradable_neutrals(state, cmd.player)
    if not spaces:
        raise RuleViolation(
            "H-TRADE",
            "You have no trade link to a neutral Polis you have not yet traded with this year.",
        )
    tiles = [data.TILES[state.board[s].tile_id] for s in spaces]
    payload = {
        "player": cmd.player,
        "spaces": spaces,
        "ap": sum(t.ap for t in tiles),
        "fp": sum(t.fp for t in tiles),
        "blanks": sum(t.coins for t in tiles),
        "year": state.year,
    }
    return [Event("NeutralTraded", payload)]


def _handovers(state: GameState, faction: str) -> list[str]:
    return [s for s in sorted(state.board) if handover_problem(state, faction, s) is None]


def legal_offers(state: GameState, faction: str) -> list[Command]:
    """A few offers to each rival that the offering side can pay (for bots and the order page).

    1 AP for 1 FP and back, a Blank for 1 AP, one screened coin for 1 FP, and a handover of a
    non-native Polis for 2 AP. Whether the rival can pay is their business at acceptance.
    """
    player = state.players[faction]
    mine = _handovers(state, faction)
    screen = sorted(d for d, n in player.coins_behind_screen.items() if n)
    out: list[Command] = []
    for rival in state.seat_order:
        if rival == faction:
            continue
        candidates = [
            (player.ap >= 1, Bundle(ap=1), Bundle(fp=1)),
            (player.fp >= 1, Bundle(fp=1), Bundle(ap=1)),
            (player.blanks >= 1, Bundle(blanks=1), Bundle(ap=1)),
            (bool(screen), Bundle(coins=((screen[0], 1),) if screen else ()), Bundle(fp=1)),
            (bool(mine), Bundle(polis=mine[0] if mine else None), Bundle(ap=2)),
        ]
        out += [OfferTrade(faction, to=rival, give=give, take=take) for ok, give, take in candidates if ok]
    return out


def legal_trades(state: GameState, faction: str) -> list[Command]:
    """The Trade actions open to `faction` now: neutral trade if any linked neutral is left, and offers."""
    neutral: list[Command] = [NeutralTrade(faction)] if tradable_neutrals(state, faction) else []
    return neutral + legal_offers(state, faction)


@applies("NeutralTraded")
def _neutral_traded(state: GameState, p: dict[str, Any]) -> None:
    player = state.players[p["player"]]
    player.ap += p["ap"]
    player.fp += p["fp"]
    player.blanks += p["blanks"]  # H-BAG: Blanks come from the unlimited supply
    done = state.neutral_trades.setdefault(p["player"], {})
    for space in p["spaces"]:
        done[space] = p["year"]
