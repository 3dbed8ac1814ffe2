"""How the board looks: the factions' colours, marks and patterns, the sizes, the icons.

S-FAC names the colours (Athens blue, Sparta black, Corinth terracotta, Thebes cream). Colour is
never the only sign of an owner: each faction also has a mark of its own shape with its initial,
and a pattern on its tiles, so the board reads in greyscale and for colour-blind players. Text
on a tile takes the colour with the better contrast against that tile (all pairs ≥ 4.5:1).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FactionStyle:
    fill: str  # the tile colour (S-FAC)
    ink: str  # text and mark on that fill
    shape: str  # the mark's shape: circle | square | triangle | diamond
    pattern: str  # drawn faintly over the fill: stripes | none | hatch | dots
    pattern_ink: str


FACTION_STYLES: dict[str, FactionStyle] = {
    "athens": FactionStyle("#1f4e9c", "#ffffff", "circle", "stripes", "#9db8e6"),
    "sparta": FactionStyle("#1b1b1b", "#ffffff", "square", "none", "#1b1b1b"),
    "corinth": FactionStyle("#a94a24", "#ffffff", "triangle", "hatch", "#e3a285"),
    "thebes": FactionStyle("#f1e2b5", "#2a2118", "diamond", "dots", "#b89a4a"),
}
NEUTRAL = FactionStyle("#e4e1da", "#222222", "none", "none", "#e4e1da")

# Sizes in SVG user units. The picture scales to any width; PNGs are drawn at 1 unit = 1 px.
CELL = 100
GAP = 4  # between a tile and its cell's edge
MARGIN = 30  # the coordinate labels above and left of the grid
PAD = 10
LEGEND_HEIGHT = 96
GRID = 9 * CELL
WIDTH = MARGIN + GRID + PAD
HEIGHT = MARGIN + GRID + PAD + LEGEND_HEIGHT

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
SEA = "#cfe0ea"
SEA_LINE = "#a7bfcf"
FRAME = "#1d2b36"
LABEL = "#1d2b36"
OUTLINE = "#141414"
PRINT = "#fbf8f0"  # the printed strip of a tile and the icon chips
PRINT_INK = "#222222"
GOLD = "#e0b43a"
SILVER = "#c9ccd1"
DAMAGE = "#c0161b"
LINK = "#e0b43a"

# Icons drawn in a 16×16 box, as paths, so they look the same in every browser and in the PNG.
CROWN = "M1.5 13.5 L1.5 5 L5 8.5 L8 2.5 L11 8.5 L14.5 5 L14.5 13.5 Z"
ANCHOR = "M8 4.2 V14.5 M4.5 6.8 H11.5 M2.2 9.8 Q2.8 14.6 8 14.6 Q13.2 14.6 13.8 9.8"
HAMMER = "M2 3 H11 L13.5 5.5 V7 H2 Z M6 7 V15 H8.5 V7"
SHIELD_ICON = "M8 1.5 L14 3.5 V8 Q14 12.5 8 14.8 Q2 12.5 2 8 V3.5 Z"
TURTLE_ICON = "M8 3 L12.5 5.6 V10.4 L8 13 L3.5 10.4 V5.6 Z"
PEGASUS_ICON = "M2.5 11 Q4 4 13.5 3 Q10 6 12 7 Q8.5 8 9.5 9.5 Q6 9.5 2.5 11 Z"
OWL_ICON = "M4 4 L5.5 6 M12 4 L10.5 6"  # ear tufts; the eyes are two circles
