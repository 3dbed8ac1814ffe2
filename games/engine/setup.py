"""Setting up a game (H-SETUP, H-NEUTRAL, H-BAG, H-PIECES, S-FAC).

`game_started` draws the seat order, the five neutral Poleis and their treasure from the
seed and writes everything into one "GameStarted" event. Tiles are drawn one at a time at
random from the sorted remaining deck, so no secret deck order sits in the log.
"""

from __future__ import annotations

from typing import Any

from . import data
from .economy import draw_from_bag, remove_coins
from .events import Event, RuleViolation
from .fold import applies
from .missions import deal_hands, form_deck
from .record import RULES_VERSION, rules_version_of
from .rng import GameRng, seed_hash
from .state import GameState, Player, Polis


def check_factions(chosen: Any, random_seats: Any = 0, fewest_random: int = 0) -> list[str]:
    """S-FAC: a game's seats are 2 to 4 different known factions: those `chosen` (a list) and
    `random_seats` more to be drawn (at least `fewest_random`; H-SETUP, seat_draw.py). Returns `chosen`;
    RuleViolation("S-FAC") otherwise. A new game's factions and a gathered game's draw share this one
    check so that both refuse the same tables with the same words."""
    if (
        not isinstance(chosen, list)
        or isinstance(random_seats, bool)
        or not isinstance(random_seats, int)
        or random_seats < fewest_random
        or not data.MIN_PLAYERS <= len(chosen) + random_seats <= data.MAX_PLAYERS
        or len(set(chosen)) != len(chosen)
        or any(faction not in data.FACTIONS for faction in chosen)
    ):
        raise RuleViolation(
            "S-FAC",
            "A game needs 2 to 4 different factions out of %(known)s.",
            known=", ".join(data.FACTION_IDS),
        )
    return chosen


def draw_tile(deck: list[str], rng: GameRng) -> str:
    """A random tile of the remaining deck (S-EXP: face down); `deck` is not changed."""
    return rng.choice(sorted(deck), "tile")


def draw_neutral_polis(space: str, tile: str, bag: dict[str, int], rng: GameRng) -> dict[str, Any]:
    """H-NEUTRAL: a new tile's printed garrison, and its printed treasure drawn blind from the bag."""
    printed = data.TILES[tile]
    treasure = draw_from_bag(bag, printed.treasure, rng)
    return {"space": space, "tile": tile, "garrison": printed.garrison, "treasure": treasure}


def game_started(setup: Any, seed: str, rng: GameRng, rules_version: int = RULES_VERSION) -> Event:
    """H-SETUP: seat order drawn at random; natives, four phalanxes and the King; five neutral Poleis.

    `rules_version`: the rules the game begins under (H-RULES-VERSION: an older one only to replay a game
    recorded under it; its Mission deck differs, H-MISSIONS)."""
    factions = check_factions(setup.get("factions") if isinstance(setup, dict) else None)
    seat_order = rng.shuffled(sorted(factions), "seat")
    deck = list(data.DECK_TILES)
    bag = {design: data.COINS_PER_DESIGN for design in data.COIN_DESIGNS}
    neutrals = []
    for space in data.NEUTRAL_SPACES:
        tile = draw_tile(deck, rng)
        deck.remove(tile)
        neutral = draw_neutral_polis(space, tile, bag, rng)
        remove_coins(bag, neutral["treasure"])
        neutrals.append(neutral)
    holdings = {
        f: {
            "native_space": data.FACTIONS[f].native_space,
            "native_tile": data.FACTIONS[f].native_tile,
            "phalanxes": data.STARTING_PHALANXES,
            "navigators": data.FACTIONS[f].starting_navigators,
            "ap": data.STARTING_AP,
            "fp": data.STARTING_FP,
            "government": data.FACTIONS[f].starting_government,
        }
        for f in seat_order
    }
    return Event(
        "GameStarted",
        {
            "seed_hash": seed_hash(seed),
            "rules_version": rules_version,  # H-RULES-VERSION: the rules the opening is decided by
            "seat_order": seat_order,
            "players": holdings,
            "deck": list(data.DECK_TILES),
            "bag": {design: data.COINS_PER_DESIGN for design in data.COIN_DESIGNS},
            "neutrals": neutrals,
            "mission_hands": deal_hands(seat_order, rng, rules_version),  # H-SETUP: secret, see event_view
        },
    )


def place_neutral_polis(state: GameState, neutral: dict[str, Any]) -> None:
    """Put a drawn tile on the board as a neutral Polis with garrison and treasure (H-NEUTRAL)."""
    treasure = dict(neutral["treasure"])
    remove_coins(state.bag, treasure)
    state.board[neutral["space"]] = Polis(
        space=neutral["space"],
        tile_id=neutral["tile"],
        phalanxes=neutral["garrison"],
        unminted_coins=treasure,
    )


@applies("GameStarted")
def _game_started(state: GameState, payload: dict[str, Any]) -> None:
    state.seed_hash = payload["seed_hash"]
    state.rules_version = rules_version_of(payload)
    state.seat_order = list(payload["seat_order"])
    state.deck = list(payload["deck"])
    state.bag = dict(payload["bag"])
    for faction, h in payload["players"].items():
        state.players[faction] = Player(
            faction=faction,
            ap=h["ap"],
            fp=h["fp"],
            phalanx_supply=data.PHALANX_PIECES - h["phalanxes"],
            government=h["government"],
        )
        state.board[h["native_space"]] = Polis(
            space=h["native_space"],
            tile_id=h["native_tile"],
            owner=faction,
            phalanxes=h["phalanxes"],
            king=True,
            navigators=h["navigators"],
        )
    for neutral in payload["neutrals"]:
        state.deck.remove(neutral["tile"])
        place_neutral_polis(state, neutral)
    if "mission_hands" in payload:  # logs from before the Mission Cards have none
        form_deck(state, payload["mission_hands"])
    state.phase = "setup"
