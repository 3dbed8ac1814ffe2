"""What a player holds, in words, for the emails that ask for an order (turn, welcome on turn).

A player who orders by email reply must decide from the email alone: the board picture is in the
HTML part only, and the happenings say what was received, never the totals. These lines give the
player's own position as their page's table shows it (H-SCREEN: only their own screen and cards):
AP, FP, Blanks, VP, the coins behind the screen, the government, the phalanxes in supply, where
their units stand and their Mission Cards.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .engine import GameState
from .trade_words import card_names
from .words import GOVERNMENT_NAMES, coins_text, tile_name, units_text


def position_lines(state: GameState, faction: str) -> list[str]:
    """The player's resources, their Poleis with the units in each, and their Mission Cards."""
    player = state.players.get(faction)
    if player is None:
        return []
    lines = [
        _("You have %(ap)s AP, %(fp)s FP, %(blanks)s, %(vp)s VP; behind your screen: %(coins)s.")
        % {
            "ap": player.ap,
            "fp": player.fp,
            "blanks": ngettext("%(n)s Blank", "%(n)s Blanks", player.blanks) % {"n": player.blanks},
            "vp": player.vp,
            "coins": coins_text(player.coins_behind_screen),
        },
        _("Government: %(government)s; phalanxes in supply: %(supply)s.")
        % {
            "government": GOVERNMENT_NAMES.get(player.government, player.government),
            "supply": player.phalanx_supply,
        },
    ]
    poleis = []
    for space in sorted(state.board):
        polis = state.board[space]
        if polis.owner != faction:
            continue
        text = f"{space} {tile_name(polis.tile_id)}: {units_text(polis.__dict__)}"
        if polis.fortification_hp:
            n = len(polis.fortification_hp)
            text += ", " + ngettext("%(n)s Fortification", "%(n)s Fortifications", n) % {"n": n}
        poleis.append(text)
    if poleis:
        lines.append(_("Your Poleis and units: %(poleis)s.") % {"poleis": "; ".join(poleis)})
    if player.mission_cards:
        lines.append(_("Your Mission Cards: %(cards)s.") % {"cards": card_names(player.mission_cards)})
    return lines
