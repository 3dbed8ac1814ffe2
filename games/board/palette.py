"""The 256 colours of the email's board picture (docs/operations.md): every colour the SVG names, exactly,
and the blends its edges, text and patterns make, taken from one sample board drawn by cairo.

One fixed palette for every picture keeps the bytes of a view the same wherever it is drawn, and
costs ~2 ms a picture instead of the ~14 ms of choosing colours anew.
"""

from __future__ import annotations

import functools
import io
import re
from typing import Any

from PIL import Image

from ..engine.view import HIDDEN
from .svg import render_board

COLOURS = 256
NEAR = 8  # levels of a channel
_HEX = re.compile(r"#([0-9a-fA-F]{6})\b")

# Every owner, hero, Fortification damage, coin design and a trade link, so that the blends
# of every pair of colours that touch on a real board are in the sample.
SAMPLE_VIEW: dict[str, Any] = {
    "phase": "actions",
    "year": 431,
    "bag": HIDDEN,
    "players": {"athens": {}, "sparta": {}, "corinth": {}, "thebes": {}},
    "trade_links": [["C3", "D4"], ["E5", "F6"]],
    "board": {
        "C3": {"tile_id": "athens", "owner": "athens", "phalanxes": 4, "king": True, "navigators": 2},
        "D4": {"tile_id": "megara", "owner": "athens", "phalanxes": 12, "fortification_hp": [3, 2, 1, 0]},
        "G3": {"tile_id": "sparta", "owner": "sparta", "phalanxes": 6, "king": True, "builders": 1},
        "G4": {"tile_id": "pylos", "owner": "sparta", "phalanxes": 1, "fortification_hp": [1]},
        "E5": {"tile_id": "delos", "phalanxes": 1, "unminted_coins": {"turtle": 2, "owl": 1}},
        "F6": {"tile_id": "corinth", "owner": "corinth", "phalanxes": 3, "king": True, "navigators": 1},
        "F7": {"tile_id": "miletos", "owner": "corinth", "phalanxes": 0, "fortification_hp": [2]},
        "B7": {"tile_id": "thebes", "owner": "thebes", "phalanxes": 5, "king": True, "builders": 2},
        "B8": {"tile_id": "plataia", "owner": "thebes", "phalanxes": 2, "unminted_coins": {"pegasus": 1}},
        "H8": {"tile_id": "rhodos", "phalanxes": 2, "unminted_coins": {"shield": 3}},
    },
}


def palette_index(colour: str) -> int:
    """Where a colour the SVG names (as "#rrggbb") stands in the palette."""
    return named_colours().index(colour.lower())


@functools.lru_cache(maxsize=1)
def named_colours() -> list[str]:
    """Every colour the SVG names, as "#rrggbb", in the palette's order."""
    return ["#" + match.lower() for match in sorted({m.lower() for m in _HEX.findall(_sample_svg())})]


def _sample_svg() -> str:
    return render_board(SAMPLE_VIEW, language="en")


@functools.lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """A 1×1 palette image for Image.quantize(palette=…): the SVG's named colours first."""
    import cairosvg  # only email sending needs cairo

    exact = [tuple(bytes.fromhex(colour[1:])) for colour in named_colours()]
    png = cairosvg.svg2png(bytestring=_sample_svg().encode("utf-8"), unsafe=False)
    sample = Image.open(io.BytesIO(png)).convert("RGB")
    chosen = sample.quantize(COLOURS - len(exact), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    flat = chosen.getpalette() or []
    blends = [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)]
    # Pillow finds a pixel's colour in a coarse table (a cell per few levels of each channel):
    # a blend beside a named colour could take that colour's pixels. Near one, the named wins.
    blends = [
        b for b in blends if all(max(abs(x - y) for x, y in zip(b, n, strict=True)) > NEAR for n in exact)
    ]
    palette = Image.new("P", (1, 1))
    palette.putpalette(
        bytes(channel for colour in exact + blends[: COLOURS - len(exact)] for channel in colour)
    )
    return palette
