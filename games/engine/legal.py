"""Legal orders for one player: a bounded, representative set for bots and the order form.

Whenever a player must act the list is non-empty (Pass on an action turn, an empty
CommitCoins in a scoring winter). It is not every possible order — Move in particular is
offered as a sample by `move_options.legal_moves` — but every order listed is legal.
"""

from __future__ import annotations

from . import data
from .actions import hire_cost, navigators_in_play, recruit_cost, recruit_places
from .board import adjacent
from .builders import builders_in_play, may_recruit_builders
from .choice_step import second_tile_choices, step_expands
from .commands import ChooseTile, Command, CommitCoins, Expand, Fortify, Pass, Recruit, RecruitBuilder, Reform
from .expansion import expand_cost, expandable_spaces
from .government import reform_choices
from .mission_scoring import winter_card_orders
from .missions import legal_oracles
from .move_options import legal_moves
from .offers import answers
from .payment import blanks_to_cover
from .state import GameState
from .trade import legal_trades
from .versions import TAKE_BACK, plays_by


def _expands(state: GameState, faction: str) -> list[Command]:
    """Expand to each space from each source, with each affordable upgrade (S-BLANK: Blanks cover
    what the FP cannot)."""
    fp, blanks = state.players[faction].fp, state.players[faction].blanks

    def paid(choice: bool, link: bool) -> int | None:
        return blanks_to_cover(fp, blanks, expand_cost(faction, choice, link))

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
        if link_from and (b := paid(False, True)) is not None:
            out += [Expand(faction, space=space, source=s, link_from=link_from, blanks=b) for s in sources]
        if (b := paid(True, False)) is not None:
            out += [Expand(faction, space=space, source=x, second_source=y, blanks=b) for x, y in pairs]
        if link_from and (b := paid(True, True)) is not None:
            out += [
                Expand(faction, space=space, source=x, second_source=y, link_from=link_from, blanks=b)
                for x, y in pairs
            ]
    return out + step_expands(state, faction, expandable_spaces(state, faction))


def _most_recruits(state: GameState, faction: str, space: str) -> int:
    """The most phalanxes the AP and Blanks buy in `space` (Sparta's native rate buys two per AP), within
    the supply."""
    player = state.players[faction]
    count = player.phalanx_supply
    while count and recruit_cost(faction, space, count) > player.ap + player.blanks:
        count -= 1
    return count


def _recruits(state: GameState, faction: str) -> list[Command]:
    """One phalanx, and as many as the AP, Blanks and supply allow, in each place a recruit may stand;
    H-HEROES: a Navigator hired there, while fewer than 2 are in play. Blanks pay only what the AP cannot."""
    player = state.players[faction]
    out: list[Command] = []
    for space in recruit_places(state, faction):
        most = _most_recruits(state, faction, space)
        for n in sorted({1, most}):
            b = blanks_to_cover(player.ap, player.blanks, recruit_cost(faction, space, n))
            if 1 <= n <= most and b is not None:
                out.append(Recruit(faction, space=space, phalanxes=n, blanks=b))
        b = blanks_to_cover(player.ap, player.blanks, hire_cost(1))
        if navigators_in_play(state, faction) < data.MAX_NAVIGATORS and b is not None:
            out.append(Recruit(faction, space=space, phalanxes=0, navigators=1, blanks=b))
    return out


def _fortifies(state: GameState, faction: str) -> list[Command]:
    b = blanks_to_cover(state.players[faction].ap, state.players[faction].blanks, data.FORTIFY_AP)
    if b is None:
        return []
    return [
        Fortify(faction, space=s, blanks=b) for s in sorted(state.board) if state.board[s].owner == faction
    ]


def _reforms_and_builders(state: GameState, faction: str) -> list[Command]:
    """H-GOV: a Reform to each other government; S-BUILDER: a Builder, where the faction's data allows."""
    out: list[Command] = [Reform(faction, government=g) for g in reform_choices(state, faction)]
    native = state.board.get(data.native_space(faction))
    if (
        may_recruit_builders(faction)
        and native is not None
        and native.owner == faction
        and builders_in_play(state, faction) < data.MAX_BUILDERS
    ):
        out.append(RecruitBuilder(faction))
    return out


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
        if player in state.winter_orders:
            return []
        return _winter_orders(state, player) + winter_card_orders(state, player)
    offer_answers: list[Command] = list(answers(state, player))  # H-TRADE: legal on turn or not
    if state.player_on_turn != player:
        return offer_answers
    if state.phase == "choice" and state.pending_choice is not None:
        if len(state.pending_choice.tiles) == 1:  # H-CHOICE-STEP: the first tile alone
            return [*second_tile_choices(state, player), *offer_answers]
        a, b = state.pending_choice.tiles
        return [
            ChooseTile(player, keep=a),
            ChooseTile(player, keep=b),
            ChooseTile(player, discard_order=(a, b)),
            ChooseTile(player, discard_order=(b, a)),
            *offer_answers,
        ]
    commands: list[Command] = [Pass(player)]
    commands += _expands(state, player) + _recruits(state, player) + _fortifies(state, player)
    commands += legal_moves(state, player) + _reforms_and_builders(state, player)
    commands += legal_oracles(state, player) + legal_trades(state, player) + offer_answers
    return commands


def reseal_commands(state: GameState, player: str) -> list[Command]:
    """H-TAKEBACK (rules version 3 on): the sealed winter orders a player who has sealed may seal
    again until the reveal; [] otherwise. Apart from legal_commands, which lists what a player must
    still do (a bot, a page's "your turn"): having sealed, they need not act."""
    if state.phase != "winter_orders" or player not in state.winter_orders:
        return []
    if not plays_by(state.rules_version, TAKE_BACK):
        return []
    return _winter_orders(state, player) + winter_card_orders(state, player)
