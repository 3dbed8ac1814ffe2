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
from .board import is_space
from .events import Event
from .fold import applies
from .state import GameState, PendingChoice, Player, Polis, TradeOffer

_TOP_KEYS = {
    "players", "seat_order", "year", "phase", "action_round", "on_turn", "turn_index", "board",
    "deck", "discard", "bag", "trade_links", "pending_choice", "winter_orders", "seed_hash", "winners",
    "revealed_seed", "events_applied", "mission_deck", "mission_discard", "offers", "next_offer_id",
    "neutral_trades",
}  # fmt: skip
_PLAYER_KEYS = {
    "faction", "ap", "fp", "blanks", "vp", "coins_behind_screen", "phalanx_supply", "king_alive",
    "government", "mission_cards",
}  # fmt: skip
_POLIS_KEYS = {
    "tile", "tile_id", "space", "owner", "phalanxes", "king", "navigators", "builders", "fortification_hp",
    "fortifications", "unminted_coins",
}  # fmt: skip
# "setup" (before the first Spring) and "winter" (between scoring and the next year) never wait
# on a player, but a state folded from part of a log may be in them.
_PHASES = ("setup", "actions", "choice", "winter_orders", "winter", "ended")


class ScenarioError(ValueError):
    """A scenario that does not describe a possible game state."""


def _check_keys(what: str, given: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(given) - allowed)
    if unknown:
        raise ScenarioError(f"{what}: unknown field(s) {', '.join(unknown)}")


def _count(what: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScenarioError(f"{what} must be a whole number ≥ 0, not {value!r}")
    return value


def _coins(what: str, value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ScenarioError(f"{what} must map coin designs to counts")
    coins: dict[str, int] = {}
    for design, n in value.items():
        if design not in data.COIN_DESIGNS:
            raise ScenarioError(f"{what}: unknown coin design {design!r}")
        if _count(f"{what}.{design}", n):
            coins[design] = n
    return coins


def _government(what: str, value: Any) -> str:
    if value not in data.GOVERNMENTS:
        raise ScenarioError(f"{what} must be one of {', '.join(data.GOVERNMENTS)} (H-GOV)")
    return value


def _players(raw: Any) -> dict[str, dict[str, Any]]:
    if raw is None:
        raw = ["athens", "sparta"]
    if isinstance(raw, list):
        raw = {f: {} for f in raw}
    if not isinstance(raw, dict) or not data.MIN_PLAYERS <= len(raw) <= data.MAX_PLAYERS:
        raise ScenarioError("players: 2 to 4 factions (a list, or a dict of faction -> fields)")
    for faction, fields in raw.items():
        if faction not in data.FACTIONS:
            raise ScenarioError(f"players: unknown faction {faction!r}")
        _check_keys(f"players.{faction}", fields, _PLAYER_KEYS)
        if fields.get("faction", faction) != faction:
            raise ScenarioError(f"players.{faction}: its faction field says {fields['faction']!r}")
    return raw


def _starting_board(factions: list[str]) -> dict[str, dict[str, Any]]:
    board = {}
    for faction in factions:
        fd = data.FACTIONS[faction]
        board[fd.native_space] = {
            "tile": fd.native_tile,
            "owner": faction,
            "phalanxes": data.STARTING_PHALANXES,
            "king": True,
            "navigators": fd.starting_navigators,
        }
    return board


def _default_tile(space: str, used: set[str]) -> str:
    native_of = data.faction_of_native_space(space)
    if native_of and data.FACTIONS[native_of].native_tile not in used:
        return data.FACTIONS[native_of].native_tile
    for tile in sorted(data.DECK_TILES):
        if tile not in used:
            return tile
    raise ScenarioError(f"board.{space}: no unused tile left for a default")


def _board(raw: dict[str, Any], factions: list[str]) -> dict[str, Polis]:
    used = {p.get("tile") or p.get("tile_id") for p in raw.values() if isinstance(p, dict)} - {None}
    board: dict[str, Polis] = {}
    kings: set[str] = set()
    for space in sorted(raw):
        fields = raw[space]
        if not is_space(space):
            raise ScenarioError(f"board: {space!r} is not a space (A1…I9)")
        if not isinstance(fields, dict):
            raise ScenarioError(f"board.{space} must be a dict")
        _check_keys(f"board.{space}", fields, _POLIS_KEYS)
        if fields.get("space", space) != space:
            raise ScenarioError(f"board.{space}: its space field says {fields['space']!r}")
        tile = fields.get("tile") or fields.get("tile_id") or _default_tile(space, used)
        used.add(tile)
        if tile not in data.TILES:
            raise ScenarioError(f"board.{space}: unknown tile {tile!r}")
        owner = fields.get("owner")
        if owner is not None and owner not in factions:
            raise ScenarioError(f"board.{space}: owner {owner!r} is not a player")
        hp = fields.get("fortification_hp", fields.get("fortifications", []))
        if not isinstance(hp, list) or any(
            isinstance(h, bool) or not isinstance(h, int) or not 1 <= h <= data.FORTIFICATION_HP for h in hp
        ):
            raise ScenarioError(f"board.{space}: fortification_hp is a list of 1..3 per Fortification")
        polis = Polis(
            space=space,
            tile_id=tile,
            owner=owner,
            phalanxes=_count(f"board.{space}.phalanxes", fields.get("phalanxes", 0)),
            king=bool(fields.get("king", False)),
            navigators=_count(f"board.{space}.navigators", fields.get("navigators", 0)),
            builders=_count(f"board.{space}.builders", fields.get("builders", 0)),
            fortification_hp=list(hp),
            unminted_coins=_coins(f"board.{space}.unminted_coins", fields.get("unminted_coins", {})),
        )
        if owner is None and (polis.king or polis.navigators or polis.builders):
            raise ScenarioError(f"board.{space}: heroes need an owner")
        if polis.king:
            if owner in kings:
                raise ScenarioError(f"board: {owner}'s King stands on two Poleis")
            kings.add(owner)  # type: ignore[arg-type]
        board[space] = polis
    tiles = [p.tile_id for p in board.values()]
    if len(tiles) != len(set(tiles)):
        raise ScenarioError("board: a tile lies on two spaces")
    return board


def scenario(spec: dict[str, Any]) -> GameState:
    """Build a GameState from a scenario dict (format in docs/scenarios.md).

    Defaults keep H-PIECES (supply + board == 60) and H-BAG (12 coins of each design in play).
    Raises ScenarioError (a ValueError) naming the first field that makes no sense.
    """
    if not isinstance(spec, dict):
        raise ScenarioError("a scenario is a JSON object")
    _check_keys("scenario", spec, _TOP_KEYS)
    raw_players = _players(spec.get("players"))
    factions = list(raw_players)
    seat_order = list(spec.get("seat_order", factions))
    if sorted(seat_order) != sorted(factions):
        raise ScenarioError("seat_order must list every player exactly once")
    board = _board(spec.get("board", _starting_board(factions)), factions)

    players: dict[str, Player] = {}
    for faction, fields in raw_players.items():
        on_board = sum(p.phalanxes for p in board.values() if p.owner == faction)
        if on_board > data.PHALANX_PIECES:
            raise ScenarioError(f"players.{faction}: more than {data.PHALANX_PIECES} phalanxes (H-PIECES)")
        supply = fields.get("phalanx_supply", data.PHALANX_PIECES - on_board)
        if _count(f"players.{faction}.phalanx_supply", supply) + on_board != data.PHALANX_PIECES:
            raise ScenarioError(f"players.{faction}: supply + board must be {data.PHALANX_PIECES} (H-PIECES)")
        fd = data.FACTIONS[faction]
        players[faction] = Player(
            faction=faction,
            ap=_count(f"players.{faction}.ap", fields.get("ap", 0)),
            fp=_count(f"players.{faction}.fp", fields.get("fp", 0)),
            blanks=_count(f"players.{faction}.blanks", fields.get("blanks", 0)),
            vp=_count(f"players.{faction}.vp", fields.get("vp", 0)),
            coins_behind_screen=_coins(
                f"players.{faction}.coins_behind_screen", fields.get("coins_behind_screen", {})
            ),
            phalanx_supply=supply,
            king_alive=bool(fields.get("king_alive", True)),
            government=_government(
                f"players.{faction}.government", fields.get("government", fd.starting_government)
            ),
            mission_cards=list(fields.get("mission_cards", [])),
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
        bag = _coins("bag", spec["bag"])
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

    missions = _missions(spec, players)
    return GameState(
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
        events_applied=_count("events_applied", spec.get("events_applied", 0)),
    )


def _missions(spec: dict[str, Any], players: dict[str, Player]) -> dict[str, Any]:
    """H-MISSIONS, H-TRADE: by default the Mission deck holds every card in no hand and not discarded."""
    discard = list(spec.get("mission_discard", []))
    held = {c for p in players.values() for c in p.mission_cards} | set(discard)
    deck = list(spec.get("mission_deck", sorted(c for c in data.MISSION_CARDS if c not in held)))
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
    (published as `seed_hash`) drives every draw after it.
    """
    state = scenario({**spec, "seed_hash": seed_hash, "events_applied": 0})
    return Event("ScenarioLoaded", {"state": state.to_dict()})


@applies("ScenarioLoaded")
def _apply_scenario_loaded(state: GameState, payload: dict[str, Any]) -> None:
    loaded = GameState.from_dict(copy.deepcopy(payload["state"]))
    for name, value in vars(loaded).items():
        if name != "events_applied":
            setattr(state, name, value)
