"""Reading the players and the board of a scenario (scenario.py, docs/scenarios.md).

Each reader checks one part of the hand-written dict and raises ScenarioError naming the
first field that makes no sense; the defaults put the factions' starting pieces on their
Native Poleis (H-SETUP).
"""

from __future__ import annotations

from typing import Any

from . import data
from .board import is_space
from .state import Polis

PLAYER_KEYS = {
    "faction", "ap", "fp", "blanks", "vp", "coins_behind_screen", "phalanx_supply", "king_alive",
    "government", "mission_cards", "phalanx_pieces",
}  # fmt: skip
POLIS_KEYS = {
    "tile", "tile_id", "space", "owner", "phalanxes", "king", "navigators", "builders", "fortification_hp",
    "fortifications", "unminted_coins",
}  # fmt: skip


class ScenarioError(ValueError):
    """A scenario that does not describe a possible game state."""


def check_keys(what: str, given: dict[str, Any], allowed: set[str]) -> None:
    """Refuse any field of `given` not in `allowed`."""
    unknown = sorted(set(given) - allowed)
    if unknown:
        raise ScenarioError(f"{what}: unknown field(s) {', '.join(unknown)}")


def count(what: str, value: Any) -> int:
    """A whole number of at least 0 (pieces, points, coins)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScenarioError(f"{what} must be a whole number ≥ 0, not {value!r}")
    return value


def coins(what: str, value: Any) -> dict[str, int]:
    """H-BAG: coin design -> count, designs from the data file, zero counts left out."""
    if not isinstance(value, dict):
        raise ScenarioError(f"{what} must map coin designs to counts")
    coins: dict[str, int] = {}
    for design, n in value.items():
        if design not in data.COIN_DESIGNS:
            raise ScenarioError(f"{what}: unknown coin design {design!r}")
        if count(f"{what}.{design}", n):
            coins[design] = n
    return coins


def government(what: str, value: Any) -> str:
    """H-GOV: one of the three governments."""
    if value not in data.GOVERNMENTS:
        raise ScenarioError(f"{what} must be one of {', '.join(data.GOVERNMENTS)} (H-GOV)")
    return value


def read_players(raw: Any) -> dict[str, dict[str, Any]]:
    """S-FAC: 2 to 4 factions, as a list or a dict of faction -> player fields (default Athens, Sparta)."""
    if raw is None:
        raw = ["athens", "sparta"]
    if isinstance(raw, list):
        raw = {f: {} for f in raw}
    if not isinstance(raw, dict) or not data.MIN_PLAYERS <= len(raw) <= data.MAX_PLAYERS:
        raise ScenarioError("players: 2 to 4 factions (a list, or a dict of faction -> fields)")
    for faction, fields in raw.items():
        if faction not in data.FACTIONS:
            raise ScenarioError(f"players: unknown faction {faction!r}")
        check_keys(f"players.{faction}", fields, PLAYER_KEYS)
        if fields.get("faction", faction) != faction:
            raise ScenarioError(f"players.{faction}: its faction field says {fields['faction']!r}")
    return raw


def starting_board(factions: list[str]) -> dict[str, dict[str, Any]]:
    """H-SETUP: each faction's Native Polis with its starting phalanxes, King and Navigators."""
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


def read_board(raw: dict[str, Any], factions: list[str]) -> dict[str, Polis]:
    """H-BOARD, H-TILES: the Poleis by space; each tile on one space, each King on one Polis (H-HEROES)."""
    used = {p.get("tile") or p.get("tile_id") for p in raw.values() if isinstance(p, dict)} - {None}
    board: dict[str, Polis] = {}
    kings: set[str] = set()
    for space in sorted(raw):
        fields = raw[space]
        if not is_space(space):
            raise ScenarioError(f"board: {space!r} is not a space (A1…I9)")
        if not isinstance(fields, dict):
            raise ScenarioError(f"board.{space} must be a dict")
        check_keys(f"board.{space}", fields, POLIS_KEYS)
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
            phalanxes=count(f"board.{space}.phalanxes", fields.get("phalanxes", 0)),
            king=bool(fields.get("king", False)),
            navigators=count(f"board.{space}.navigators", fields.get("navigators", 0)),
            builders=count(f"board.{space}.builders", fields.get("builders", 0)),
            fortification_hp=list(hp),
            unminted_coins=coins(f"board.{space}.unminted_coins", fields.get("unminted_coins", {})),
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
