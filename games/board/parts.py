"""The parts the email's board picture is laid out from, each drawn by cairo once per process.

The picture is made of the same few parts again and again: the sea with its coordinates, its
empty spaces and its key; the tiles, whose look depends only on what stands on them, not on
where; the trade links. Each part is drawn from the very SVG elements of the page's picture
(svg.py, tile.py), cut out of the board's own coordinates so that the patterns line up, and kept
in the picture's palette (palette.py). A tile is its printed face with what stands on it laid
over in three layers; apart, each layer comes back often, on the tiles of other games too.
"""

from __future__ import annotations

import functools
import io
import itertools
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from typing import Any

from django.utils import translation
from PIL import Image

from ..engine.board import COLUMNS, ROWS, SPACES, coordinates
from ..engine.data import FACTION_IDS, MAX_PLAYERS, MIN_PLAYERS
from . import style
from .draw import Element, el
from .palette import board_palette
from .svg import SVG_NS, board_size, cell, empty_space, legend, pattern_defs, sea, svg_text, trade_link, water
from .tile import draw_fortifications, draw_tile, draw_troops, draw_units

PREFIX = "part"  # the ids of the parts' patterns; no page shows these SVGs
Box = tuple[float, float, float, float]  # x, y, width, height in the picture's user units


def edges(space: str) -> tuple[bool, bool, bool, bool]:
    """Whether the space lies on the top, left, bottom and right edge of the sea."""
    column, row = coordinates(space)
    return (row == 0, column == 0, row == len(ROWS) - 1, column == len(COLUMNS) - 1)


INSIDE = next(space for space in SPACES if not any(edges(space)))  # where tiles are drawn


def polis_key(polis: dict[str, Any]) -> tuple[Any, ...]:
    """Everything draw_polis reads of a Polis: two Poleis with the same key look the same."""
    return (
        polis["tile_id"],
        polis.get("owner"),
        polis["phalanxes"],
        bool(polis.get("king")),
        polis.get("navigators", 0),
        polis.get("builders", 0),
        tuple(polis.get("fortification_hp", [])),
        tuple(sorted((d, n) for d, n in polis.get("unminted_coins", {}).items() if n)),
    )


def in_palette(image: Image.Image) -> Image.Image:
    """Each pixel to its nearest colour of the one palette (no dithering: the board is flat
    colour), so a part kept in the palette and a picture quantized whole give the same pixels."""
    return image.convert("RGB").quantize(palette=board_palette(), dither=Image.Dither.NONE)


def cell_box(space: str) -> Box:
    x, y = cell(space)
    return (x, y, style.CELL, style.CELL)


def link_box(a: str, b: str) -> Box:
    """From one cell's centre to the other's, and a link's width and round caps around them."""
    (ax, ay), (bx, by) = cell(a), cell(b)
    half, reach = style.CELL / 2, 6
    return (
        min(ax, bx) + half - reach,
        min(ay, by) + half - reach,
        abs(ax - bx) + 2 * reach,
        abs(ay - by) + 2 * reach,
    )


def _drawn(box: Box, scale: int, build: Callable[[Element], None]) -> Image.Image:
    """What `build` draws, cut out at `box`, drawn by cairo at `scale`, with its transparency."""
    import cairosvg  # imported here: only email sending needs cairo, the pages do not

    x, y, width, height = box
    root = ET.Element("svg")
    for key, value in {
        "xmlns": SVG_NS,
        "viewBox": f"{x} {y} {width} {height}",
        "width": str(width * scale),
        "height": str(height * scale),
        "font-family": style.FONT,
    }.items():
        root.set(key, value)
    build(root)
    png = cairosvg.svg2png(bytestring=svg_text(root).encode("utf-8"), unsafe=False)
    return Image.open(io.BytesIO(png)).convert("RGBA")


# Every table of 2 to 4 factions in each language: 22 empty boards of ~0.5 MB, drawn as a worker starts.
@functools.lru_cache(maxsize=32)
def backdrop(language: str, factions: tuple[str, ...], scale: int) -> Image.Image:
    """The picture of an empty board: the paper, the sea with its coordinates and every space
    empty, the key."""

    def build(root: Element) -> None:
        el(root, "rect", {"width": width, "height": height, "fill": style.PRINT})
        grid = sea(root)
        for space in SPACES:
            empty_space(grid, space)
        legend(root, list(factions))

    with translation.override(language):  # the key's height depends on its words
        width, height = board_size({"players": dict.fromkeys(factions)})
        return in_palette(_drawn((0, 0, width, height), scale, build))


# ~10 KB each: 4,096 are ~40 MB of a worker's memory, more than the boards of hundreds of games.
@functools.lru_cache(maxsize=4096)
def tile(language: str, key: tuple[Any, ...], scale: int) -> Image.Image:
    """A Polis (its polis_key) and the water around it in its cell."""
    owner, phalanxes, king, navigators, builders, fortification_hp, unminted_coins = key[1:]
    face = _printed(language, key[0], owner, scale).convert("RGB")
    layers = (
        _troops(owner, phalanxes, scale),
        _fortifications(fortification_hp, scale),
        _units(owner, king, navigators, builders, unminted_coins, scale),
    )
    for layer in layers:
        face.paste(layer, (0, 0), layer)
    return in_palette(face)


@functools.lru_cache(maxsize=1024)
def _printed(language: str, tile_id: str, owner: str | None, scale: int) -> Image.Image:
    """A tile as printed, in its controller's colours, on the water of its cell."""
    x, y = cell(INSIDE)

    def build(root: Element) -> None:
        water(root)
        if owner:
            pattern_defs(root, PREFIX, [owner])
        draw_tile(root, tile_id, owner, x, y, PREFIX)

    with translation.override(language):
        return in_palette(_drawn(cell_box(INSIDE), scale, build))


def _on_a_tile(scale: int, build: Callable[[Element, float, float], None]) -> Image.Image:
    x, y = cell(INSIDE)
    return _drawn(cell_box(INSIDE), scale, lambda root: build(root, x, y))


@functools.lru_cache(maxsize=512)
def _troops(owner: str | None, phalanxes: int, scale: int) -> Image.Image:
    return _on_a_tile(scale, lambda root, x, y: draw_troops(root, owner, phalanxes, x, y))


@functools.lru_cache(maxsize=512)
def _fortifications(hps: tuple[int, ...], scale: int) -> Image.Image:
    return _on_a_tile(scale, lambda root, x, y: draw_fortifications(root, list(hps), x, y))


@functools.lru_cache(maxsize=1024)
def _units(
    owner: str | None,
    king: bool,
    navigators: int,
    builders: int,
    unminted_coins: tuple[tuple[str, int], ...],
    scale: int,
) -> Image.Image:
    polis = {
        "owner": owner,
        "king": king,
        "navigators": navigators,
        "builders": builders,
        "unminted_coins": dict(unminted_coins),
    }
    return _on_a_tile(scale, lambda root, x, y: draw_units(root, polis, x, y))


@functools.lru_cache(maxsize=1024)
def link(a: str, b: str, scale: int) -> Image.Image:
    """A trade link, on nothing (it lies over the water and the tiles' edges)."""
    return _drawn(link_box(a, b), scale, lambda root: trade_link(root, a, b))


def warm_up(languages: Iterable[str], scale: int = 1) -> None:
    """As an email worker starts (aegea_pbem/warmup.py): import cairo, choose the palette and draw
    the empty board of every table of factions (S-FAC) in each of `languages`, at the emails' scale.

    Otherwise a fresh worker's first emails paid for them while the orders behind them waited:
    cairo's first drawing ~0.45 s, the palette ~0.15 s, each empty board ~0.05 s (22 of them,
    ~1.2 s in all on a quiet machine). In bench/inbox_latency.py every turn email over 750 ms
    came in the workers' first second, drawing these (the rest stayed under ~0.5 s)."""
    link(SPACES[0], SPACES[1], scale)
    board_palette()
    for language in languages:
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            for factions in itertools.combinations(FACTION_IDS, players):
                backdrop(language, factions, scale)


def forget() -> None:
    """Drop every part this process keeps."""
    for kept in (backdrop, tile, _printed, _troops, _fortifications, _units, link):
        kept.cache_clear()
