"""The board picture as a PNG, for emails, laid out from parts cairo drew once (docs/operations.md).

Cairo draws the whole SVG in ~150 ms (some 1,850 elements); a worker has ~10 ms an
email (docs/operations.md). A picture is instead a copy of the empty board with its tiles and
trade links laid over it in the SVG's own order (parts.py), written as an 8-bit PNG of the one palette: ~2 ms.
"""

from __future__ import annotations

import functools
import struct
import threading
import zlib
from collections.abc import Iterable
from typing import Any

from PIL import Image
from zlib_ng import zlib_ng

from ..engine import board_view, fold, new_game
from ..engine.board import SPACES
from ..engine.data import FACTION_IDS
from . import parts, style
from .palette import board_palette, palette_index
from .svg import check_redacted, factions_in_play, trade_links

FRAME_WIDTH = 2
_drawing = threading.Lock()  # the border of the sea (svg.water)


def render_board_png(view: dict[str, Any], language: str, *, scale: int = 1) -> bytes:
    """The board of `view` (an engine.player_view) as PNG bytes, `scale` pixels per SVG unit.

    Shows what `render_board(view, language=language)` shows (H-BOARD, H-SCREEN), drawn by
    cairo part by part; the same view gives the same bytes. Raises NotAPlayerView for a state
    that is not a player's view.
    """
    check_redacted(view)
    key = picture_key(view)
    # A worker's threads take the emails of one moment together (a winter's, to every player):
    # one draws the picture and its new parts, the others wait and take them from the caches.
    with _drawing:
        return _picture(language, key, scale)


def picture_key(view: dict[str, Any]) -> tuple[Any, ...]:
    """Everything the picture shows of a view: the factions in play, each Polis where it lies,
    the trade links. Views with the same key have the same picture (a winter's emails to every
    player, a turn's email and its update to the others)."""
    board = view.get("board", {})
    poleis = tuple((space, parts.polis_key(board[space])) for space in SPACES if space in board)
    return tuple(factions_in_play(view)), poleis, tuple(trade_links(view))


# ~70 KB each.
@functools.lru_cache(maxsize=64)
def _picture(language: str, key: tuple[Any, ...], scale: int) -> bytes:
    factions, poleis, links = key
    picture = parts.backdrop(language, factions, scale).copy()
    for space, polis in poleis:
        picture.paste(parts.tile(language, polis, scale), _corner(parts.cell_box(space), scale))
        for band in _border_beside(space, scale):
            picture.paste(palette_index(style.FRAME), band)
    for a, b in links:  # over the tiles, as in the SVG
        corner = _corner(parts.link_box(a, b), scale)
        link = parts.link(a, b, scale)
        under = picture.crop((*corner, corner[0] + link.width, corner[1] + link.height)).convert("RGB")
        under.paste(link, (0, 0), link)
        picture.paste(parts.in_palette(under), corner)
    return png_bytes(picture)


def _corner(box: parts.Box, scale: int) -> tuple[int, int]:
    return round(box[0] * scale), round(box[1] * scale)


def _border_beside(space: str, scale: int) -> list[tuple[int, int, int, int]]:
    """The sea's border along a space on its edge, as pixel boxes. The border reaches into the
    outer spaces; in the empty board an empty space's outline tinges it, beside a tile nothing
    does. So a tile laid there gets the border back whole."""
    x, y = parts.cell(space)
    low = style.MARGIN - FRAME_WIDTH / 2
    high = style.MARGIN + style.GRID - FRAME_WIDTH / 2
    top, left, bottom, right = parts.edges(space)
    boxes = []
    if top:
        boxes.append((x, low, x + style.CELL, low + FRAME_WIDTH))
    if bottom:
        boxes.append((x, high, x + style.CELL, high + FRAME_WIDTH))
    if left:
        boxes.append((low, y, low + FRAME_WIDTH, y + style.CELL))
    if right:
        boxes.append((high, y, high + FRAME_WIDTH, y + style.CELL))
    return [tuple(round(v * scale) for v in box) for box in boxes]  # type: ignore[misc]


def png_bytes(picture: Image.Image) -> bytes:
    """A palette image as PNG (8 bits a pixel, no filter), deflated by zlib-ng at level 2:
    ~1.5 ms for the board where Pillow's writer takes ~3.5 ms, and a tenth smaller."""
    assert picture.mode == "P"
    width, height = picture.size
    # Each row of the PNG's data starts with its filter type, 0: the picture pasted right of a
    # column of zeros gives those rows in one copy (joining 1,066 slices cost ~0.5 ms a picture).
    filtered = Image.new("P", (width + 1, height), 0)
    filtered.paste(picture, (1, 0))
    rows = filtered.tobytes()
    palette = bytes(board_palette().getpalette() or [])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", zlib_ng.compress(rows, 2)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def forget_pictures() -> None:
    """Drop every picture and part this process keeps (they are drawn again when asked for)."""
    _picture.cache_clear()
    parts.forget()


def warm_up(languages: Iterable[str]) -> None:
    """As an email worker starts: every empty board (parts.warm_up), and the opening picture of a
    game of all four factions in each language, whose Native Poleis (H-SETUP: each faction's tile,
    4 phalanxes and its King) stand on the first pictures of every new game. After these a fresh
    worker's first picture drew its 9 tiles in ~0.3 s while the orders behind it waited."""
    languages = list(languages)
    parts.warm_up(languages)
    opening = board_view(fold(new_game({"factions": list(FACTION_IDS)}, "warm-up")))
    for language in languages:
        render_board_png(opening, language)
