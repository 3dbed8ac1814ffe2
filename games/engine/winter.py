"""Winter: sealed coin orders, the three rankings, reinforcement and the end of the game.

Rules: H-WINTER-ORDERS (sealed CommitCoins, revealed together), S-WINTER (Poleis, then
Coins, then Mint), S-RANK and H-RANK (competition ranking; 3/2/1/0, with 2 players 3/2;
only committers ranked in Coins and Mint), H-MINT, H-BAG (committed coins go back into the
bag), S-REINF with H-NATIVE-LOST and H-PIECES, and H-END.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from . import data, mission_scoring
from .board import neighbours
from .commands import CommitCoins
from .economy import add_coins, coin_count, controlled_poleis, has_coins, remove_coins
from .events import Event, RuleViolation
from .fold import applies
from .rng import GameRng
from .state import GameState
from .versions import SEED_WINS, TAKE_BACK, plays_by

SALT_DRAWS = 2  # 2 × 64 bits of salt: nobody can try every possible order against a commitment

# --- H-WINTER-ORDERS -------------------------------------------------------------------------


def order_commitment(order: dict[str, Any], salt: str) -> str:
    """H-WINTER-ORDERS: the SHA-256 (hex) of the canonical JSON of {"order": order, "salt": salt}.

    `order` is the order as revealed (coins, blanks, mission_card, card_coins, card_blanks);
    canonical JSON as in the event log: sorted keys, no whitespace, UTF-8 (docs/fairness.md).
    """
    text = json.dumps(
        {"order": order, "salt": salt}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def decide_commit(state: GameState, cmd: CommitCoins, rng: GameRng) -> list[Event]:
    """H-WINTER-ORDERS: one sealed order per player per scoring winter, from the coins behind the screen;
    H-TAKEBACK (rules version 3 on): sealed again until the reveal, the last one counts.

    The order is sealed with a commitment everyone may see at once; its salt is drawn from the
    game's seed (so the replay re-derives it) and the reveal carries it, proving the order unchanged.
    """
    if state.phase != "winter_orders":
        raise RuleViolation("H-WINTER-ORDERS", "Coins are committed only in a scoring winter.")
    superseded = state.winter_orders.get(cmd.player)
    if superseded is not None and not plays_by(state.rules_version, TAKE_BACK):
        raise RuleViolation("H-WINTER-ORDERS", "You have already sent your winter order.")
    player = state.players[cmd.player]
    coins = cmd.coin_counts
    mission_scoring.check_winter_card(state, cmd)
    # The coins spent on a Combo or Flush card come from the same screen as the committed ones.
    spent = dict(coins)
    add_coins(spent, dict(cmd.card_coins))
    if not has_coins(player.coins_behind_screen, spent):
        raise RuleViolation("H-WINTER-ORDERS", "You cannot commit coins that are not behind your screen.")
    if cmd.blanks + cmd.card_blanks > player.blanks:
        raise RuleViolation(
            "H-WINTER-ORDERS", "You have only %(blanks)d Blanks to commit.", blanks=player.blanks
        )
    sealed = {"player": cmd.player, "coins": coins, "blanks": cmd.blanks, **mission_scoring.sealed_card(cmd)}
    salt = "".join(f"{rng.randbelow(1 << 64, 'salt'):016x}" for _ in range(SALT_DRAWS))
    sealed |= {"salt": salt, "commitment": order_commitment(_revealed_order(sealed), salt)}
    if superseded is not None:
        # H-TAKEBACK: sealed again before the reveal; the new order replaces the old, whose commitment
        # the log names as superseded, so an audit sees every seal and that only the last counted.
        sealed["supersedes"] = order_commitment(_revealed_order(superseded), superseded.get("salt", ""))
    return [Event("WinterOrderSealed", sealed)]


# --- S-RANK / H-RANK ------------------------------------------------------------------------


def competition_places(values: dict[str, int]) -> dict[str, int]:
    """H-RANK: 1 + the number of ranked players with a strictly better value (ties share the better rank)."""
    return {f: 1 + sum(1 for other in values.values() if other > v) for f, v in values.items()}


def rank_vp(place: int, players_in_game: int) -> int:
    """S-RANK: places from the top score 3/2/1/0; with 2 players only 3/2."""
    table = data.RANK_VP_TWO_PLAYERS if players_in_game == 2 else data.RANK_VP
    return table[place - 1] if place <= len(table) else 0


def mint_count(state: GameState, faction: str, committed: dict[str, int]) -> int:
    """H-MINT: committed coins bearing the design of a Mint Polis the player controls (Blanks never count)."""
    designs = {data.TILES[state.board[s].tile_id].mint for s in controlled_poleis(state, faction)}
    return sum(n for design, n in committed.items() if design in designs)


def ranking_values(state: GameState) -> dict[str, dict[str, int]]:
    """The value each ranked player has in each ranking (S-RANK: who is ranked at all).

    Poleis: every player, one rank each, a player without a Polis too (with 0): S-RANK leaves
    players out only of the Coin and Mint rankings. Coins: players who committed at least one
    coin or Blank. Mint: players whose Mint count is at least 1 (H-RANK).
    """
    orders = state.winter_orders
    poleis = {f: len(controlled_poleis(state, f)) for f in state.seat_order}
    coins = {
        f: (coin_count(orders[f]["coins"]) + orders[f]["blanks"]) * mission_scoring.coin_multiplier(state, f)
        for f in state.seat_order
    }
    mint = {f: mint_count(state, f, orders[f]["coins"]) for f in state.seat_order}
    return {
        "poleis": poleis,
        "coins": {f: v for f, v in coins.items() if v >= 1},
        "mint": {f: v for f, v in mint.items() if v >= 1},
    }


def scoring(state: GameState) -> list[Event]:
    """S-WINTER: reveal the sealed orders; (1) the winter Mission Cards that act first; (2) Poleis,
    Coins and Mint, in that order; (3) Second coin scoring (H-MISSIONS, via mission_scoring)."""
    orders = {f: _revealed_order(state.winter_orders[f]) for f in state.seat_order}
    # H-WINTER-ORDERS: with the salts, anyone can check each order against its commitment.
    salts = {f: state.winter_orders[f]["salt"] for f in state.seat_order if "salt" in state.winter_orders[f]}
    values = ranking_values(state)
    rankings = []
    for ranking in data.RANKINGS:
        places = competition_places(values[ranking])
        vp = {f: rank_vp(p, len(state.seat_order)) for f, p in places.items()}
        rankings.append({"ranking": ranking, "values": values[ranking], "places": places, "vp": vp})
    by_name = {r["ranking"]: r for r in rankings}
    return [
        Event("WinterOrdersRevealed", {"year": state.year, "orders": orders, "salts": salts}),
        *mission_scoring.before_rankings(state, by_name["poleis"]["vp"]),
        *(Event("RankingScored", r) for r in rankings),
        *mission_scoring.after_rankings(state, by_name["coins"]),
    ]


def _revealed_order(order: dict[str, Any]) -> dict[str, Any]:
    """A sealed order as revealed to all: committed coins and Blanks, and the card redeemed with its coins."""
    return {
        "coins": dict(order["coins"]),
        "blanks": order["blanks"],
        "mission_card": order.get("mission_card"),
        "card_coins": dict(order.get("card_coins", {})),
        "card_blanks": order.get("card_blanks", 0),
    }


# --- S-REINF ---------------------------------------------------------------------------------


def is_pressured(state: GameState, faction: str) -> bool:
    """S-REINF: rival phalanxes stand on a Polis next to the faction's Native Polis."""
    for space in neighbours(data.native_space(faction)):
        polis = state.board.get(space)
        if polis and polis.owner not in (None, faction) and polis.phalanxes > 0:
            return True
    return False


def reinforcements(state: GameState) -> list[Event]:
    """S-REINF: a pressured player gets a flat 6 phalanxes in the Native Polis, exactly once.

    H-NATIVE-LOST: none while a rival holds the Native Polis. The government plays no part, and
    (rules version 2 on) neither does the supply: the 6 come from the reserve (H-PIECES,
    "from_reserve"). Under version 1 the supply cut them to what it held.
    """
    events = []
    from_reserve = plays_by(state.rules_version, SEED_WINS)
    for faction in state.seat_order:
        native = state.board.get(data.native_space(faction))
        if native is None or native.owner != faction or not is_pressured(state, faction):
            continue
        payload: dict[str, Any] = {"player": faction, "space": native.space}
        if from_reserve:
            payload |= {"phalanxes": data.REINFORCEMENT_PHALANXES, "from_reserve": True}
        else:
            payload["phalanxes"] = min(data.REINFORCEMENT_PHALANXES, state.players[faction].phalanx_supply)
        if payload["phalanxes"]:
            events.append(Event("PhalanxesReinforced", payload))
    return events


# --- H-END -----------------------------------------------------------------------------------


def game_ended(state: GameState) -> Event:
    """H-END: most VP wins; ties by Poleis controlled, then coins behind the screen. The seed is revealed
    by the service, which alone knows it (`seed` stays None here)."""
    standings = [
        {
            "player": f,
            "vp": state.players[f].vp,
            "poleis": len(controlled_poleis(state, f)),
            "coins": coin_count(state.players[f].coins_behind_screen),
        }
        for f in state.seat_order
    ]
    standings.sort(key=lambda s: (-s["vp"], -s["poleis"], -s["coins"], state.seat_order.index(s["player"])))
    best = standings[0]
    winners = [
        s["player"]
        for s in standings
        if (s["vp"], s["poleis"], s["coins"]) == (best["vp"], best["poleis"], best["coins"])
    ]
    return Event("GameEnded", {"winners": winners, "standings": standings, "seed": None})


# --- appliers --------------------------------------------------------------------------------


@applies("WinterOrderSealed")
def _winter_order_sealed(state: GameState, payload: dict[str, Any]) -> None:
    order = _revealed_order(payload)
    if "salt" in payload:  # orders sealed before commitments have none
        order["salt"] = payload["salt"]
    state.winter_orders[payload["player"]] = order


@applies("WinterOrdersRevealed")
def _winter_orders_revealed(state: GameState, payload: dict[str, Any]) -> None:
    # H-BAG: committed coins go back into the bag, committed Blanks back to the supply.
    for faction, order in payload["orders"].items():
        player = state.players[faction]
        remove_coins(player.coins_behind_screen, order["coins"])
        add_coins(state.bag, order["coins"])
        player.blanks -= order["blanks"]
    state.winter_orders = {}
    state.phase = "winter"


@applies("RankingScored")
def _ranking_scored(state: GameState, payload: dict[str, Any]) -> None:
    for faction, vp in payload["vp"].items():
        state.players[faction].vp += vp


@applies("PhalanxesReinforced")
def _phalanxes_reinforced(state: GameState, payload: dict[str, Any]) -> None:
    player = state.players[payload["player"]]
    if payload.get("from_reserve"):  # S-REINF: new pieces, the supply is not touched (H-PIECES)
        player.phalanx_pieces += payload["phalanxes"]
    else:
        player.phalanx_supply -= payload["phalanxes"]
    state.board[payload["space"]].phalanxes += payload["phalanxes"]


@applies("GameEnded")
def _game_ended(state: GameState, payload: dict[str, Any]) -> None:
    state.phase = "ended"
    state.winners = list(payload["winners"])
    state.revealed_seed = payload.get("seed")
