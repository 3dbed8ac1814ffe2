"""The board as an SVG picture, drawn on the server from a player's view (H-BOARD, H-SCREEN).

Only a `player_view` is drawn, never the raw state: the picture shows the board, which is
public, and names the factions in play; nothing behind a screen is read at all.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.words.names import faction_name

from ..engine.board import COLUMNS, ROWS, SPACES, coordinates
from ..engine.data import FACTION_IDS
from ..engine.view import HIDDEN
from . import draw, style
from .draw import Element, el
from .legend import draw_legend, legend_height
from .tile import draw_polis

SVG_NS = "http://www.w3.org/2000/svg"


class NotAPlayerView(ValueError):
    """The board picture was asked to draw a state that still holds others' secrets (H-SCREEN)."""


def check_redacted(view: dict[str, Any]) -> None:
    """Raises NotAPlayerView unless `view` is a player's view (H-SCREEN)."""
    # player_view drops the deck and hides the bag until the game ends (H-SCREEN, H-END).
    if view.get("phase") != "ended" and ("deck" in view or view.get("bag") != HIDDEN):
        raise NotAPlayerView("render_board draws engine.player_view(state, faction), never the raw state")


def board_size(view: dict[str, Any]) -> tuple[int, int]:
    """The picture's width and height in user units (= pixels of the PNG at scale 1)."""
    legend = legend_height(factions_in_play(view), style.GRID)
    return style.WIDTH, int(style.MARGIN + style.GRID + style.PAD + legend)


def render_board(view: dict[str, Any], *, language: str, id_prefix: str = "board") -> str:
    """The board of `view` (an engine.player_view) as SVG text, its words in `language`.

    Draws H-BOARD's 9×9 grid with its coordinates; each Polis as printed (H-TILES, H-MINT),
    its controller by colour, mark and pattern (S-FAC, H-CONTROL), its phalanxes or neutral
    garrison (H-NEUTRAL), heroes (H-HEROES, S-BUILDER), Fortifications with their damage
    (S-FORT), unminted coins (H-NEUTRAL); trade links (S-EXP-LINK, H-TRADE). The same view
    gives the same bytes. `id_prefix` keeps ids unique when a page shows several boards.
    Raises NotAPlayerView for a state that is not a player's view (H-SCREEN).
    """
    check_redacted(view)
    with translation.override(language):
        return _render(view, id_prefix, language)


def factions_in_play(view: dict[str, Any]) -> list[str]:
    """The factions of the game, in the rulebook's order (S-FAC): the key names these."""
    return [f for f in FACTION_IDS if f in view.get("players", {})]


def cell(space: str) -> tuple[float, float]:
    """The top-left corner of a space's cell."""
    col, row = coordinates(space)
    return style.MARGIN + col * style.CELL, style.MARGIN + row * style.CELL


def _render(view: dict[str, Any], prefix: str, language: str) -> str:
    width, height = board_size(view)
    title, summary = _title(view), _summary(view)
    root = ET.Element("svg")
    for key, value in {
        "xmlns": SVG_NS,
        "viewBox": f"0 0 {width} {height}",
        "width": str(width),
        "height": str(height),
        "lang": language,
        "role": "img",
        "aria-label": title,
        "aria-describedby": f"{prefix}-desc",
        "class": "board-picture",
        "font-family": style.FONT,
    }.items():
        root.set(key, value)
    el(root, "title", {"id": f"{prefix}-title"}, title)
    el(root, "desc", {"id": f"{prefix}-desc"}, summary)
    pattern_defs(root, prefix, factions_in_play(view))
    el(root, "rect", {"width": width, "height": height, "fill": style.PRINT})
    board = view.get("board", {})
    grid = sea(root)
    for space in SPACES:  # H-BOARD order, row by row: a stable order gives stable bytes
        if space not in board:
            empty_space(grid, space)
    tiles = el(root, "g", {"class": "poleis"})
    for space in SPACES:
        if space in board:
            draw_polis(tiles, space, board[space], *cell(space), prefix)
    links = el(root, "g", {"class": "trade-links"})
    for a, b in trade_links(view):
        trade_link(links, a, b)
    legend(root, factions_in_play(view))
    return svg_text(root)


def svg_text(root: Element) -> str:
    """An SVG element tree as text, without whitespace where it would be drawn."""
    ET.indent(root, space="")
    for text in root.iter("text"):  # whitespace inside <text> would be drawn
        for part in text:
            part.tail = None
    return ET.tostring(root, encoding="unicode")


def legend(root: Element, factions: list[str]) -> None:
    """The key, below the grid."""
    draw_legend(root, factions, style.MARGIN, style.MARGIN + style.GRID + style.PAD + 10, style.GRID)


def _title(view: dict[str, Any]) -> str:
    return _("The board in %(year)s BC") % {"year": view.get("year", "")}


def _summary(view: dict[str, Any]) -> str:
    board = view.get("board", {})
    parts = []
    for faction in factions_in_play(view):
        held = sum(1 for p in board.values() if p.get("owner") == faction)
        parts.append(
            ngettext("%(faction)s holds %(n)d Polis", "%(faction)s holds %(n)d Poleis", held)
            % {"faction": faction_name(faction), "n": held}
        )
    neutral = sum(1 for p in board.values() if not p.get("owner"))
    parts.append(ngettext("%(n)d neutral Polis", "%(n)d neutral Poleis", neutral) % {"n": neutral})
    links = len(view.get("trade_links", []))
    parts.append(ngettext("%(n)d trade link", "%(n)d trade links", links) % {"n": links})
    return "; ".join(parts) + "."


def pattern_defs(root: Element, prefix: str, factions: list[str]) -> None:
    """The faint patterns that tell the factions' tiles apart without colour (S-FAC)."""
    defs = el(root, "defs")
    for faction in factions:
        fs = style.FACTION_STYLES[faction]
        if fs.pattern == "none":
            continue
        pattern = el(
            defs,
            "pattern",
            {
                "id": f"{prefix}-pattern-{faction}",
                "width": 10,
                "height": 10,
                "patternUnits": "userSpaceOnUse",
            },
        )
        ink = {"stroke": fs.pattern_ink, "stroke-width": 1.6, "opacity": 0.55}
        if fs.pattern == "stripes":
            el(pattern, "path", {"d": "M0 5 H10", **ink})
        elif fs.pattern == "hatch":
            el(pattern, "path", {"d": "M-1 1 L1 -1 M0 10 L10 0 M9 11 L11 9", **ink})
        else:  # dots
            el(pattern, "circle", {"cx": 5, "cy": 5, "r": 1.7, "fill": fs.pattern_ink, "opacity": 0.7})


def sea(root: Element) -> Element:
    """H-BOARD: the sea, with columns A–I and rows 1–9 named at the edges; returns its group."""
    g = el(root, "g", {"class": "grid"})
    water(g)
    for i, column in enumerate(COLUMNS):
        x = style.MARGIN + (i + 0.5) * style.CELL
        draw.label(g, x, style.MARGIN - 9, column, 18, style.LABEL, bold=True)
    for i, row in enumerate(ROWS):
        y = style.MARGIN + (i + 0.5) * style.CELL + 6
        draw.label(g, style.MARGIN / 2, y, str(row), 18, style.LABEL, bold=True)
    return g


def water(parent: Element) -> None:
    """The sea inside its dark border."""
    el(
        parent,
        "rect",
        {
            "x": style.MARGIN,
            "y": style.MARGIN,
            "width": style.GRID,
            "height": style.GRID,
            "fill": style.SEA,
            "stroke": style.FRAME,
            "stroke-width": 2,
        },
    )


def empty_space(parent: Element, space: str) -> None:
    """A space without a Polis: open sea, its name written faintly."""
    x, y = cell(space)
    g = el(parent, "g", {"class": "space empty", "data-space": space})
    el(
        g,
        "rect",
        {
            "x": x,
            "y": y,
            "width": style.CELL,
            "height": style.CELL,
            "fill": style.SEA,
            "stroke": style.SEA_LINE,
            "stroke-width": 1,
        },
    )
    draw.label(g, x + style.CELL / 2, y + style.CELL / 2 + 5, space, 14, "#6f8a9c")


def trade_links(view: dict[str, Any]) -> list[tuple[str, str]]:
    """The trade links between two Poleis on the board, each once, in a stable order."""
    board = view.get("board", {})
    pairs = sorted({tuple(sorted(link)) for link in view.get("trade_links", [])})
    return [(a, b) for a, b in pairs if a in board and b in board]


def trade_link(parent: Element, a: str, b: str) -> None:
    """S-EXP-LINK, H-TRADE: a link is a gold bridge across the water between its two Poleis."""
    (ax, ay), (bx, by) = cell(a), cell(b)
    ax, ay, bx, by = (v + style.CELL / 2 for v in (ax, ay, bx, by))
    near, far = 0.43, 0.57  # only the stretch over the water, not over the tiles' writing
    d = (
        f"M{draw.num(ax + (bx - ax) * near)} {draw.num(ay + (by - ay) * near)} "
        f"L{draw.num(ax + (bx - ax) * far)} {draw.num(ay + (by - ay) * far)}"
    )
    link = el(parent, "g", {"class": "trade-link", "data-from": a, "data-to": b})
    el(link, "title", None, _("Trade link %(a)s–%(b)s") % {"a": a, "b": b})
    el(link, "path", {"d": d, "stroke": style.OUTLINE, "stroke-width": 9, "stroke-linecap": "round"})
    el(link, "path", {"d": d, "stroke": style.LINK, "stroke-width": 5, "stroke-linecap": "round"})
