"""What a bot's seat may see, and one world consistent with it (H-SCREEN, docs/bot.md "Never sees a secret").

A bot decides from a `Sight`: the engine's `player_view` of its seat, nothing else. The Sight refuses a
view that shows a secret (a rival's screen or hand, the bag, the decks), so a bot cannot be handed the
hidden state by mistake. To look one order ahead with the engine's own rules the bot needs a whole
GameState; `determinise` builds one from the Sight, filling in what the seat cannot see by sampling it,
consistently with what it can see, from the bot's own seed:

- the Polis deck: exactly the tiles on no Poleis, in no discard pile and in no pending Choice (its order
  does not matter: S-EXP draws at random);
- the Mission deck and the rivals' hands: the cards in no hand of the seat's and not face up, dealt to the
  rivals by the counts the view shows (H-MISSIONS);
- the coin bag and the rivals' screens: the coins of each design not behind the seat's screen and not on a
  Polis; each rival is given the coins it offers the seat (H-TRADE) and about what its Poleis printed
  (S-INC, H-FACTION), the rest is the bag;
- a scoring winter's sealed orders of the rivals: each commits all it is given (H-WINTER-ORDERS);
- the game's seed: never used (its hash is blanked), the bot's own seed stands in for every draw.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine import CommitCoins, GameRng, GameState, data, decide, player_view
from games.engine.fold import apply_in_place
from games.engine.missions import deck_of
from games.engine.view import HIDDEN, SUBMITTED


class SightError(ValueError):
    """A view given to a bot shows something its seat may not see."""


@dataclass(frozen=True)
class Sight:
    """The player view of one seat (engine.player_view), the only input a bot decides from."""

    faction: str
    view: Mapping[str, Any]

    def __post_init__(self) -> None:
        view = self.view
        if self.faction not in view.get("players", {}):
            raise SightError(f"{self.faction} has no seat in this view")
        if view.get("phase") == "ended":
            return
        if view.get("bag") != HIDDEN or "deck" in view or "mission_deck" in view:
            raise SightError("the view shows the bag or a deck: build it with sight_of")
        for other, player in view["players"].items():
            if other != self.faction and (
                player["coins_behind_screen"] != HIDDEN or not isinstance(player["mission_cards"], int)
            ):
                raise SightError(f"the view shows {other}'s screen or hand: build it with sight_of")


def sight_of(state: GameState, faction: str) -> Sight:
    """The Sight of `faction`: exactly what engine.player_view lets that seat see (H-SCREEN)."""
    return Sight(faction, player_view(state, faction))


def _rival_coins_guess(view: Mapping[str, Any], faction: str) -> int:
    """About the coins a rival holds: what its Poleis printed at the last income (S-INC, H-FACTION)."""
    printed = sum(data.TILES[p["tile_id"]].coins for p in view["board"].values() if p["owner"] == faction)
    native = view["board"].get(data.native_space(faction))
    own = data.FACTIONS[faction].economy_coins if native and native["owner"] == faction else 0
    return printed + own


def determinise(sight: Sight, seed: int) -> GameState:
    """One GameState consistent with `sight`, its hidden parts sampled from `seed` (module docstring)."""
    rnd = random.Random(seed)
    me, view = sight.faction, copy.deepcopy(dict(sight.view))
    deck_count = view.pop("deck_count", 0)
    view.pop("mission_deck_count", None)
    view["seed_hash"], view["revealed_seed"] = "", None
    if view["phase"] == "ended":
        return GameState.from_dict(view)
    seen_tiles = {p["tile_id"] for p in view["board"].values()} | set(view["discard"])
    if view.get("pending_choice"):
        seen_tiles |= set(view["pending_choice"]["tiles"])
    deck = [t for t in data.DECK_TILES if t not in seen_tiles]
    rnd.shuffle(deck)
    view["deck"] = deck[:deck_count]

    rivals = [f for f in view["seat_order"] if f != me]
    players = view["players"]
    unseen_cards = set(deck_of(view.get("rules_version"))) - set(players[me]["mission_cards"])
    unseen = sorted(unseen_cards - set(view["mission_discard"]))
    rnd.shuffle(unseen)
    for rival in rivals:
        count = players[rival]["mission_cards"]
        players[rival]["mission_cards"], unseen = unseen[:count], unseen[count:]
    view["mission_deck"] = unseen

    pool = [
        design
        for design in data.COIN_DESIGNS
        for _ in range(
            data.COINS_PER_DESIGN
            - players[me]["coins_behind_screen"].get(design, 0)
            - sum(p["unminted_coins"].get(design, 0) for p in view["board"].values())
        )
    ]
    offered = _coins_offered_to(view, me)
    for coins in offered.values():
        for design, n in coins.items():
            for _ in range(n):
                pool.remove(design)
    rnd.shuffle(pool)
    for rival in rivals:
        take = min(_rival_coins_guess(view, rival), len(pool) // 2)
        screen = dict(offered.get(rival, {}))
        for design in pool[:take]:
            screen[design] = screen.get(design, 0) + 1
        players[rival]["coins_behind_screen"], pool = screen, pool[take:]
    view["bag"] = {d: pool.count(d) for d in data.COIN_DESIGNS if pool.count(d)}
    view["offers"] = [_offer_guessed(o) for o in view["offers"]]
    sealed_by_rivals = [f for f, o in view["winter_orders"].items() if o == SUBMITTED]
    view["winter_orders"] = {f: o for f, o in view["winter_orders"].items() if o != SUBMITTED}
    state = GameState.from_dict(view)
    if state.phase == "winter_orders" and me not in state.winter_orders:
        _seal_for_rivals(state, [f for f in rivals if f in sealed_by_rivals or f not in state.winter_orders])
    return state


def _coins_offered_to(view: dict[str, Any], me: str) -> dict[str, dict[str, int]]:
    """H-TRADE: the screened coins rivals offer the seat are shown to it, and are behind their screens."""
    offered: dict[str, dict[str, int]] = {}
    for offer in view["offers"]:
        if offer["to"] == me and offer["give"]["coins"] != HIDDEN:
            held = offered.setdefault(offer["player"], {})
            for design, n in offer["give"]["coins"].items():
                held[design] = max(held.get(design, 0), n)
    return offered


def _offer_guessed(offer: dict[str, Any]) -> dict[str, Any]:
    """An offer between two rivals: its screened coins, hidden, are guessed to be none."""
    return {
        **offer,
        "give": {
            **offer["give"],
            "coins": {} if offer["give"]["coins"] == HIDDEN else offer["give"]["coins"],
        },
        "take": {
            **offer["take"],
            "coins": {} if offer["take"]["coins"] == HIDDEN else offer["take"]["coins"],
        },
    }


def _seal_for_rivals(state: GameState, rivals: list[str]) -> None:
    """H-WINTER-ORDERS: each rival's sealed order, guessed as committing all it was given."""
    for rival in rivals:
        player = state.players[rival]
        order = CommitCoins(
            rival, coins=tuple(sorted(player.coins_behind_screen.items())), blanks=player.blanks
        )
        apply_in_place(state, decide(state, order, GameRng("determinised", 0)))
