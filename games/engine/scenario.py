"""Scenarios: a GameState built from a short, hand-written dict (see docs/scenarios.md).

Used by tests, tutorials and bug reports (`manage.py loadscenario FILE`). Every field may
be left out; the defaults keep the pieces and coins conserved (H-PIECES, H-BAG): a
faction's phalanx supply is 60 minus its phalanxes on the board, the bag holds 12 of each
design minus the coins on screens and lying unminted on the board, and the deck holds
every deck tile that is neither on the board nor in the discard pile.
"""

from __future__ import annotations

import copy
from typing import Any

from . import data
from . import scenario_parts as parts
from .events import Event
from .fold import applies
from .missions import deck_of
from .record import RULES_VERSION, rules_version_of
from .scenario_parts import ScenarioError
from .state import GameState, PendingChoice, Player, TradeOffer
from .versions import DECIDED_VERSIONS

_TOP_KEYS = {
    "players", "seat_order", "year", "phase", "action_round", "on_turn", "turn_index", "board",
    "deck", "discard", "bag", "trade_links", "pending_choice", "winter_orders", "seed_hash", "winners",
    "revealed_seed", "events_applied", "mission_deck", "mission_discard", "offers", "next_offer_id",
    "neutral_trades", "rules_version",
}  # fmt: skip
# "setup" (before the first Spring) and "winter" (between scoring and the next year) never wait
# on a player, but a state folded from part of a log may be in them.
_PHASES = ("setup", "actions", "choice", "winter_orders", "winter", "ended")


def scenario(spec: dict[str, Any]) -> GameState:
    """Build a GameState from a scenario dict (format in docs/scenarios.md).

    Defaults keep H-PIECES (supply + board == 60) and H-BAG (12 coins of each design in play).
    Raises ScenarioError (a ValueError) naming the first field that makes no sense.
    """
    if not isinstance(spec, dict):
        raise ScenarioError("a scenario is a JSON object")
    parts.check_keys("scenario", spec, _TOP_KEYS)
    raw_players = parts.read_players(spec.get("players"))
    factions = list(raw_players)
    seat_order = list(spec.get("seat_order", factions))
    if sorted(seat_order) != sorted(factions):
        raise ScenarioError("seat_order must list every player exactly once")
    board = parts.read_board(spec.get("board", parts.starting_board(factions)), factions)

    players: dict[str, Player] = {}
    for faction, fields in raw_players.items():
        on_board = sum(p.phalanxes for p in board.values() if p.owner == faction)
        # H-PIECES: 60, and 6 more with every reinforcement from the reserve (S-REINF, rules version 2 on).
        pieces = fields.get("phalanx_pieces", data.PHALANX_PIECES)
        if parts.count(f"players.{faction}.phalanx_pieces", pieces) < data.PHALANX_PIECES:
            raise ScenarioError(
                f"players.{faction}: phalanx_pieces is at least {data.PHALANX_PIECES} (H-PIECES)"
            )
        if on_board > pieces:
            raise ScenarioError(f"players.{faction}: more than {pieces} phalanxes (H-PIECES)")
        supply = fields.get("phalanx_supply", pieces - on_board)
        if parts.count(f"players.{faction}.phalanx_supply", supply) + on_board != pieces:
            raise ScenarioError(f"players.{faction}: supply + board must be {pieces} (H-PIECES)")
        fd = data.FACTIONS[faction]
        players[faction] = Player(
            faction=faction,
            ap=parts.count(f"players.{faction}.ap", fields.get("ap", 0)),
            fp=parts.count(f"players.{faction}.fp", fields.get("fp", 0)),
            blanks=parts.count(f"players.{faction}.blanks", fields.get("blanks", 0)),
            vp=parts.count(f"players.{faction}.vp", fields.get("vp", 0)),
            coins_behind_screen=parts.coins(
                f"players.{faction}.coins_behind_screen", fields.get("coins_behind_screen", {})
            ),
            phalanx_supply=supply,
            king_alive=bool(fields.get("king_alive", True)),
            government=parts.government(
                f"players.{faction}.government", fields.get("government", fd.starting_government)
            ),
            mission_cards=list(fields.get("mission_cards", [])),
            phalanx_pieces=pieces,
        )

    discard = list(spec.get("discard", []))
    on_table = {p.tile_id for p in board.values()} | set(discard)
    deck = list(spec.get("deck", sorted(t for t in data.DECK_TILES if t not in on_table)))
    for tile in deck + discard:
        if tile not in data.DECK_TILES:
            raise ScenarioError(f"deck/discard: {tile!r} is not a deck tile")
    if len(set(deck) | on_table) != len(deck) + len(on_table):
        raise ScenarioError("deck/discard: a tile is in two places")

    if "bag" in spec:
        bag = parts.coins("bag", spec["bag"])
    else:
        bag = {}
        for design in data.COIN_DESIGNS:
            elsewhere = sum(p.coins_behind_screen.get(design, 0) for p in players.values()) + sum(
                p.unminted_coins.get(design, 0) for p in board.values()
            )
            if elsewhere > data.COINS_PER_DESIGN:
                raise ScenarioError(f"more than {data.COINS_PER_DESIGN} {design} coins in play (H-BAG)")
            if data.COINS_PER_DESIGN - elsewhere:
                bag[design] = data.COINS_PER_DESIGN - elsewhere

    phase = spec.get("phase", "actions")
    if phase not in _PHASES:
        raise ScenarioError(f"phase must be one of {', '.join(_PHASES)}")
    year = spec.get("year", data.FIRST_YEAR)
    if year not in range(data.LAST_YEAR, data.FIRST_YEAR + 1):
        raise ScenarioError("year must be 431…421")
    action_round = spec.get("action_round", 1)
    if action_round not in range(1, data.ACTION_ROUNDS + 1):
        raise ScenarioError("action_round must be 1, 2 or 3")
    if "on_turn" in spec:
        if spec["on_turn"] not in seat_order:
            raise ScenarioError("on_turn must be a player")
        turn_index = seat_order.index(spec["on_turn"])
    else:
        turn_index = spec.get("turn_index", 0)
        if turn_index not in range(len(seat_order)):
            raise ScenarioError("turn_index out of range")

    pending = spec.get("pending_choice")
    if (pending is not None) != (phase == "choice"):
        raise ScenarioError("pending_choice is given exactly when phase is 'choice'")
    links = [sorted(link) for link in spec.get("trade_links", [])]
    for link in links:
        if len(link) != 2 or any(s not in board for s in link):
            raise ScenarioError("trade_links: each link joins two Poleis on the board")

    rules_version = spec.get("rules_version", RULES_VERSION)
    if rules_version not in DECIDED_VERSIONS:
        raise ScenarioError(f"rules_version must be one of {', '.join(map(str, DECIDED_VERSIONS))}")
    missions = _missions(spec, players, rules_version)
    return GameState(
        rules_version=rules_version,
        **missions,
        seed_hash=spec.get("seed_hash", ""),
        seat_order=seat_order,
        year=year,
        phase=phase,
        action_round=action_round,
        turn_index=turn_index,
        board=board,
        players=players,
        deck=deck,
        discard=discard,
        bag=bag,
        trade_links=sorted(links),
        pending_choice=PendingChoice(**pending) if pending else None,
        winter_orders={f: dict(o) for f, o in spec.get("winter_orders", {}).items()},
        revealed_seed=spec.get("revealed_seed"),
        winners=list(spec.get("winners", [])),
        events_applied=parts.count("events_applied", spec.get("events_applied", 0)),
    )


def _missions(spec: dict[str, Any], players: dict[str, Player], rules_version: int) -> dict[str, Any]:
    """H-MISSIONS, H-TRADE: by default the Mission deck holds every card of the rules version's deck in no
    hand and not discarded."""
    discard = list(spec.get("mission_discard", []))
    held = {c for p in players.values() for c in p.mission_cards} | set(discard)
    deck = list(spec.get("mission_deck", [c for c in deck_of(rules_version) if c not in held]))
    offers = [TradeOffer(**o) if isinstance(o, dict) else o for o in spec.get("offers", [])]
    return {
        "mission_deck": deck,
        "mission_discard": discard,
        "offers": offers,
        "next_offer_id": spec.get("next_offer_id", max((o.id for o in offers), default=0) + 1),
        "neutral_trades": {f: dict(d) for f, d in spec.get("neutral_trades", {}).items()},
    }


def scenario_loaded(spec: dict[str, Any], seed_hash: str) -> Event:
    """The opening event of a game that starts from a scenario (`manage.py loadscenario`).

    The scenario is checked here (ScenarioError) and stored whole, so the game's log
    starts from the position a tutorial or bug report describes; the game's own seed
    (published as `seed_hash`) drives every draw after it, under the rules version it names (H-RULES-VERSION).
    """
    state = scenario({**spec, "seed_hash": seed_hash, "events_applied": 0, "rules_version": RULES_VERSION})
    return Event("ScenarioLoaded", {"state": state.to_dict(), "rules_version": RULES_VERSION})


@applies("ScenarioLoaded")
def _apply_scenario_loaded(state: GameState, payload: dict[str, Any]) -> None:
    loaded = GameState.from_dict(copy.deepcopy(payload["state"]))
    for name, value in vars(loaded).items():
        if name != "events_applied":
            setattr(state, name, value)
    state.rules_version = rules_version_of(payload)  # H-RULES-VERSION: the opening names the rules
