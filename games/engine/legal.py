"""Legal orders for one player: a bounded, representative set for bots and the order form.

Whenever a player must act the list is non-empty (Pass on an action turn, an empty
CommitCoins in a scoring winter). It is not every possible order — Move in particular is
offered as a sample by `movement.legal_moves` — but every order listed is legal.
"""

from __future__ import annotations

from . import data
from .actions import recruit_cost, recruit_places
from .board import adjacent
from .commands import ChooseTile, Command, CommitCoins, Expand, Fortify, Pass, Recruit
from .expansion import expand_cost, expandable_spaces
from .movement import legal_moves
from .state import GameState


def _expands(state: GameState, faction: str) -> list[Command]:
    fp = state.players[faction].fp
    sources = [s for s, pile in (("deck", state.deck), ("discard", state.discard)) if pile]
    pairs = [
        (a, b)
        for a in sources
        for b in sources
        if a != b or len(state.deck if a == "deck" else state.discard) > 1
    ]
    out: list[Command] = []
    for space in expandable_spaces(state, faction):
        link_from = next(
            (s for s in sorted(state.board) if state.board[s].owner == faction and adjacent(s, space)), None
        )
        out += [Expand(faction, space=space, source=s) for s in sources]
        if link_from and fp >= expand_cost(faction, False, True):
            out += [Expand(faction, space=space, source=s, link_from=link_from) for s in sources]
        if fp >= expand_cost(faction, True, False):
            out += [Expand(faction, space=space, source=a, second_source=b) for a, b in pairs]
        if link_from and fp >= expand_cost(faction, True, True):
            out += [
                Expand(faction, space=space, source=a, second_source=b, link_from=link_from) for a, b in pairs
            ]
    return out


def _most_recruits(state: GameState, faction: str, space: str) -> int:
    """The most phalanxes the AP buy in `space` (Sparta's native rate buys two per AP), within the supply."""
    player = state.players[faction]
    count = player.phalanx_supply
    while count and recruit_cost(faction, space, count) > player.ap:
        count -= 1
    return count


def _recruits(state: GameState, faction: str) -> list[Command]:
    """One phalanx, and as many as the AP and supply allow, in each place a recruit may stand."""
    out: list[Command] = []
    for space in recruit_places(state, faction):
        most = _most_recruits(state, faction, space)
        out += [Recruit(faction, space=space, phalanxes=n) for n in sorted({1, most}) if 1 <= n <= most]
    return out


def _fortifies(state: GameState, faction: str) -> list[Command]:
    if state.players[faction].ap < data.FORTIFY_AP:
        return []
    return [Fortify(faction, space=s) for s in sorted(state.board) if state.board[s].owner == faction]


def _winter_orders(state: GameState, faction: str) -> list[Command]:
    screen = state.players[faction].coins_behind_screen
    everything = tuple(sorted(screen.items()))
    out: list[Command] = [
        CommitCoins(faction),
        CommitCoins(faction, coins=everything, blanks=state.players[faction].blanks),
    ]
    out += [CommitCoins(faction, coins=((design, n),)) for design, n in everything]
    return list(dict.fromkeys(out))


def legal_commands(state: GameState, player: str) -> list[Command]:
    """Legal orders of `player` now; [] when they need not act (H-YEAR, H-CHOICES, H-WINTER-ORDERS)."""
    if player not in state.players:
        return []
    if state.phase == "winter_orders":
        return [] if player in state.winter_orders else _winter_orders(state, player)
    if state.player_on_turn != player:
        return []
    if state.phase == "choice" and state.pending_choice is not None:
        a, b = state.pending_choice.tiles
        return [
            ChooseTile(player, keep=a),
            ChooseTile(player, keep=b),
            ChooseTile(player, discard_order=(a, b)),
            ChooseTile(player, discard_order=(b, a)),
        ]
    commands: list[Command] = [Pass(player)]
    commands += _expands(state, player) + _recruits(state, player) + _fortifies(state, player)
    commands += legal_moves(state, player)
    return commands
