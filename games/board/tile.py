"""One Polis on the board picture: its tile as printed, who holds it and what stands on it.

The coloured part of the tile is the controller's (H-CONTROL), with their mark; the light
strip at the bottom is what the tile prints (H-TILES: AP, FP, coins and a Mint's design).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.words.board_names import FACTION_INITIALS, coin_name, tile_name
from games.words.names import faction_name

from ..engine.data import FORTIFICATION_HP, TILES
from . import draw, style
from .draw import Element, el

TILE = style.CELL - 2 * style.GAP
STRIP = 22  # the printed strip's height
MAX_FORTS_DRAWN = 3


def coins_words(coins: dict[str, int]) -> str:
    return ", ".join(f"{n} × {coin_name(d)}" for d, n in sorted(coins.items()) if n)


def polis_title(space: str, polis: dict[str, Any]) -> str:
    """What a screen reader (and a hover) says about a Polis: where, whose, and what stands on it."""
    name = tile_name(polis["tile_id"])
    owner = polis.get("owner")
    if owner:
        holder = _("held by %(faction)s") % {"faction": faction_name(owner)}
        troops = ngettext("%(n)d phalanx", "%(n)d phalanxes", polis["phalanxes"]) % {"n": polis["phalanxes"]}
    else:
        holder = _("neutral")
        troops = ngettext(
            "a neutral garrison of %(n)d phalanx", "a neutral garrison of %(n)d phalanxes", polis["phalanxes"]
        ) % {"n": polis["phalanxes"]}
    parts = [troops]
    if polis.get("king"):
        parts.append(_("the King"))
    if polis.get("navigators"):
        n = polis["navigators"]
        parts.append(ngettext("%(n)d Navigator", "%(n)d Navigators", n) % {"n": n})
    if polis.get("builders"):
        n = polis["builders"]
        parts.append(ngettext("%(n)d Builder", "%(n)d Builders", n) % {"n": n})
    for hp in polis.get("fortification_hp", []):
        parts.append(_("a Fortification with %(hp)d of %(full)d HP") % {"hp": hp, "full": FORTIFICATION_HP})
    if any(polis.get("unminted_coins", {}).values()):
        parts.append(_("unminted coins: %(coins)s") % {"coins": coins_words(polis["unminted_coins"])})
    return _("%(space)s %(name)s, %(holder)s: %(units)s") % {
        "space": space,
        "name": name,
        "holder": holder,
        "units": "; ".join(parts),
    }


def printed_text(tile_id: str) -> str:
    """What the tile prints (H-TILES), in words."""
    tile = TILES[tile_id]
    text = ngettext(
        "Pays %(ap)d AP, %(fp)d FP and %(coins)d coin at income.",
        "Pays %(ap)d AP, %(fp)d FP and %(coins)d coins at income.",
        tile.coins,
    ) % {
        "ap": tile.ap,
        "fp": tile.fp,
        "coins": tile.coins,
    }
    if tile.mint:
        text += " " + _("A Mint of the %(design)s design.") % {"design": coin_name(tile.mint)}
    return text


def draw_polis(
    parent: Element, space: str, polis: dict[str, Any], x: float, y: float, prefix: str
) -> Element:
    """The tile at cell (x, y): a group with a title and description for screen readers (H-TILES, S-FORT)."""
    owner = polis.get("owner")
    g = el(parent, "g", {"class": f"space polis owner-{owner or 'neutral'}", "data-space": space})
    el(g, "title", None, polis_title(space, polis))
    el(g, "desc", None, printed_text(polis["tile_id"]))
    draw_tile(g, polis["tile_id"], owner, x, y, prefix)
    draw_pieces(g, polis, x, y)
    return g


def draw_tile(g: Element, tile_id: str, owner: str | None, x: float, y: float, prefix: str) -> None:
    """The tile in cell (x, y) as printed (H-TILES), in its controller's colour, pattern and mark
    (S-FAC, H-CONTROL); a neutral tile's border is dashed."""
    fs = style.FACTION_STYLES[owner] if owner else style.NEUTRAL
    left, top = x + style.GAP, y + style.GAP
    outline = {"x": left, "y": top, "width": TILE, "height": TILE, "rx": 8}
    el(g, "rect", {**outline, "fill": fs.fill, "class": "tile"})
    if fs.pattern != "none":
        el(g, "rect", {**outline, "fill": f"url(#{prefix}-pattern-{owner})"})
    _printed_strip(g, tile_id, left, top + TILE - STRIP)
    border = {"fill": "none", "stroke": style.OUTLINE, "stroke-width": 2}
    if not owner:
        border = {"fill": "none", "stroke": "#4a4a4a", "stroke-width": 2, "stroke-dasharray": "7 4"}
    el(g, "rect", {**outline, **border})
    name = tile_name(tile_id)
    draw.label(g, left + TILE / 2, top + 16, name, draw.fitted_size(name, TILE - 10, 15), fs.ink, bold=True)
    if owner:
        draw.mark(g, left + 17, top + 39, 11, fs, str(FACTION_INITIALS[owner]))


def draw_pieces(g: Element, polis: dict[str, Any], x: float, y: float) -> None:
    """What stands on the tile in cell (x, y): its phalanxes (or neutral garrison, H-NEUTRAL), its
    Fortifications (S-FORT), its heroes (H-HEROES, S-BUILDER) and unminted coins."""
    draw_troops(g, polis.get("owner"), polis["phalanxes"], x, y)
    draw_fortifications(g, polis.get("fortification_hp", []), x, y)
    draw_units(g, polis, x, y)


def _ink(owner: str | None) -> str:
    return (style.FACTION_STYLES[owner] if owner else style.NEUTRAL).ink


def draw_troops(g: Element, owner: str | None, phalanxes: int, x: float, y: float) -> None:
    """The number of phalanxes, large, beside the owner's mark."""
    left, top = x + style.GAP, y + style.GAP
    count = str(phalanxes)
    size = 30 if len(count) == 1 else 26
    troops = draw.label(g, left + 49 if owner else left + 38, top + 52, count, size, _ink(owner), bold=True)
    troops.set("class", "phalanxes")


def draw_fortifications(g: Element, hps: list[int], x: float, y: float) -> None:
    """S-FORT: one wall per Fortification, its lost HP crossed out in red; more than 3 show a count."""
    _fortifications(g, hps, x + style.GAP + TILE - 23, y + style.GAP + 24)


def draw_units(g: Element, polis: dict[str, Any], x: float, y: float) -> None:
    """The heroes and unminted coins in a row above the printed strip."""
    _row(g, polis, x + style.GAP + 5, y + style.GAP + TILE - STRIP - 17, _ink(polis.get("owner")))


def _printed_strip(g: Element, tile_id: str, left: float, top: float) -> None:
    """H-TILES: the printed AP, FP and coins, and the Mint's design on a ringed coin."""
    tile = TILES[tile_id]
    right, bottom, r = left + TILE, top + STRIP, 8
    n = draw.num
    path = " ".join(
        (
            f"M{n(left)} {n(top)} H{n(right)} V{n(bottom - r)}",
            f"Q{n(right)} {n(bottom)} {n(right - r)} {n(bottom)}",
            f"H{n(left + r)} Q{n(left)} {n(bottom)} {n(left)} {n(bottom - r)} Z",
        )
    )
    strip = el(g, "g", {"class": "printed"})
    el(strip, "path", {"d": path, "fill": style.PRINT})
    el(
        strip,
        "path",
        {
            "d": f"M{draw.num(left)} {draw.num(top)} H{draw.num(right)}",
            "stroke": style.OUTLINE,
            "stroke-width": 0.8,
        },
    )
    base = top + 15.5
    _amount(strip, left + 4, base, tile.ap, _("AP"))
    _amount(strip, left + 29, base, tile.fp, _("FP"))
    draw.coin(strip, left + 61, top + 11, 7.5, metal=style.GOLD, count=tile.coins)
    if tile.mint:
        mint = el(strip, "g", {"class": f"mint mint-{tile.mint}"})
        draw.coin(mint, left + TILE - 13, top + 11, 6.5, metal=style.GOLD, design=tile.mint, ring=True)


def _amount(parent: Element, x: float, y: float, amount: int, unit: str) -> None:
    """A printed amount: the number large, its unit small ("1 AP")."""
    text = draw.label(parent, x, y, str(amount), 12.5, style.PRINT_INK, anchor="start", bold=True)
    el(text, "tspan", {"font-size": 9, "font-weight": "normal", "dx": 1.5}, unit)


def _fortifications(g: Element, hps: list[int], x: float, y: float) -> None:
    if not hps:
        return
    group = el(g, "g", {"class": "fortifications"})
    shown = hps if len(hps) <= MAX_FORTS_DRAWN else hps[: MAX_FORTS_DRAWN - 1]
    for i, hp in enumerate(shown):
        fort = el(group, "g", {"class": "fortification", "data-hp": hp})
        draw.fortification(fort, x, y + i * 13, hp, FORTIFICATION_HP)
    if len(shown) < len(hps):
        draw.chip(group, x, y + len(shown) * 13, 20, 12)
        more = f"+{len(hps) - len(shown)}"
        draw.label(group, x + 10, y + len(shown) * 13 + 9.5, more, 9.5, style.PRINT_INK, bold=True)


def _row(g: Element, polis: dict[str, Any], x: float, y: float, ink: str) -> None:
    """Heroes (H-HEROES, S-BUILDER) and the unminted coins lying on the Polis (H-NEUTRAL), left to right."""
    row = el(g, "g", {"class": "units"})
    if polis.get("king"):
        king = el(row, "g", {"class": "king"})
        x += draw.hero(king, x, y, "king", 1) + 2
    if polis.get("navigators"):
        nav = el(row, "g", {"class": "navigator", "data-count": polis["navigators"]})
        x += draw.hero(nav, x, y, "navigator", polis["navigators"]) + 2
    if polis.get("builders"):
        builder = el(row, "g", {"class": "builder", "data-count": polis["builders"]})
        x += draw.hero(builder, x, y, "builder", polis["builders"]) + 2
    for design, count in sorted(polis.get("unminted_coins", {}).items()):
        if not count:
            continue
        pile = el(row, "g", {"class": f"unminted unminted-{design}", "data-count": count})
        draw.coin(pile, x + 7.5, y + 7.5, 7, metal=style.SILVER, design=design)
        x += 17
        if count > 1:
            draw.label(pile, x + 4, y + 12, f"×{count}", 11, ink, bold=True)
            x += 17
