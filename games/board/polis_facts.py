"""What the board says about each Polis, as lines of words for the Polis panel of the player page
(templates/games/_poleis.html, shown by games/static/games/polis_panel.js when a Polis is tapped,
listed below the board without JavaScript). Read from a player's view only (H-SCREEN): the board
is public, nothing behind a screen is read.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.words.board_names import coin_name, tile_name
from games.words.names import faction_name

from ..engine.board import SPACES
from ..engine.data import FORTIFICATION_HP, TILES
from .tile import coins_words


def polis_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Each Polis on the board of `view`, in H-BOARD order: its space, name, holder and facts."""
    board = view.get("board", {})
    return [polis_facts(space, board[space]) for space in SPACES if space in board]


def polis_facts(space: str, polis: dict[str, Any]) -> dict[str, Any]:
    """One Polis: what its tile prints (H-TILES: AP, FP, coins, a Mint, H-MINT), who holds it
    (H-CONTROL) or its neutral garrison (H-NEUTRAL), its units (phalanxes, the King, Navigators,
    Builders: H-HEROES, S-BUILDER), its Fortifications with their damage (S-FORT) and the
    unminted coins on it (H-NEUTRAL), as (label, value) lines."""
    tile = TILES[polis["tile_id"]]
    owner = polis.get("owner")
    lines = [
        (
            _("Prints"),
            ngettext(
                "%(ap)d AP, %(fp)d FP, %(coins)d coin", "%(ap)d AP, %(fp)d FP, %(coins)d coins", tile.coins
            )
            % {"ap": tile.ap, "fp": tile.fp, "coins": tile.coins},
        ),
        (_("Mint"), coin_name(tile.mint) if tile.mint else _("none")),
    ]
    n = polis.get("phalanxes", 0)
    if owner:
        lines.append((_("Held by"), faction_name(owner)))
        lines.append((_("Units"), units_words(polis)))
    else:
        lines.append((_("Held by"), _("neutral")))
        lines.append((_("Garrison"), ngettext("%(n)d phalanx", "%(n)d phalanxes", n) % {"n": n}))
    lines.append((_("Fortifications"), fortification_words(polis.get("fortification_hp", []))))
    unminted = coins_words(polis.get("unminted_coins", {}))
    lines.append((_("Unminted coins"), unminted or _("none")))
    return {
        "space": space,
        "name": tile_name(polis["tile_id"]),
        "owner": owner or "neutral",
        "lines": lines,
    }


def units_words(polis: dict[str, Any]) -> str:
    """The units of a held Polis: "6 phalanxes, the King, 1 Navigator"."""
    n = polis.get("phalanxes", 0)
    parts = [ngettext("%(n)d phalanx", "%(n)d phalanxes", n) % {"n": n}]
    if polis.get("king"):
        parts.append(_("the King"))
    if navigators := polis.get("navigators"):
        parts.append(ngettext("%(n)d Navigator", "%(n)d Navigators", navigators) % {"n": navigators})
    if builders := polis.get("builders"):
        parts.append(ngettext("%(n)d Builder", "%(n)d Builders", builders) % {"n": builders})
    return ", ".join(parts)


def fortification_words(hp: list[int]) -> str:
    """S-FORT: each Fortification with its HP left of its full HP, or "none"."""
    if not hp:
        return _("none")
    return ", ".join(_("%(hp)d of %(full)d HP") % {"hp": left, "full": FORTIFICATION_HP} for left in hp)
