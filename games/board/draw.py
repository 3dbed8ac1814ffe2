"""Small drawing pieces of the board picture: elements, text, faction marks, icons, coins, Fortifications.

Everything is built as xml.etree elements, so every text and attribute is escaped on output,
and numbers are written by `num`, so the same view always gives the same bytes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from . import style
from .style import FactionStyle

Element = ET.Element


def num(value: float) -> str:
    """A coordinate as short, stable text: 12, 12.5 (never 12.000000001)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def el(parent: Element, tag: str, attrs: dict[str, object] | None = None, text: str | None = None) -> Element:
    """A child element; numbers become text through `num`, None attributes are left out."""
    node = ET.SubElement(parent, tag)
    for key, value in (attrs or {}).items():
        if value is None:
            continue
        node.set(
            key, num(value) if isinstance(value, int | float) and not isinstance(value, bool) else str(value)
        )
    if text is not None:
        node.text = text
    return node


def label(
    parent: Element,
    x: float,
    y: float,
    text: str,
    size: float,
    fill: str,
    *,
    anchor: str = "middle",
    bold: bool = False,
) -> Element:
    return el(
        parent,
        "text",
        {
            "x": x,
            "y": y,
            "font-size": size,
            "fill": fill,
            "text-anchor": anchor,
            "font-weight": "bold" if bold else None,
        },
        text,
    )


def fitted_size(text: str, width: float, size: float, em: float = 0.62) -> float:
    """The font size (at most `size`) at which `text` fits in `width`, estimated from an average glyph."""
    return min(size, round(width / (max(len(text), 1) * em), 1))


def text_width(text: str, size: float) -> float:
    """An estimate of the width of `text` at `size` (DejaVu Sans averages about 0.6 em)."""
    return len(text) * size * 0.6


def _points(cx: float, cy: float, r: float, corners: tuple[tuple[float, float], ...]) -> str:
    return " ".join(f"{num(cx + dx * r)},{num(cy + dy * r)}" for dx, dy in corners)


def mark(parent: Element, cx: float, cy: float, r: float, fs: FactionStyle, initial: str) -> Element:
    """A faction's mark: its shape in the tile's ink, its initial in the tile's colour (S-FAC)."""
    g = el(parent, "g", {"class": "mark"})
    attrs = {"fill": fs.ink, "stroke": style.OUTLINE, "stroke-width": 1}
    if fs.shape == "circle":
        el(g, "circle", {"cx": cx, "cy": cy, "r": r, **attrs})
    elif fs.shape == "square":
        el(g, "rect", {"x": cx - r * 0.9, "y": cy - r * 0.9, "width": r * 1.8, "height": r * 1.8, **attrs})
    elif fs.shape == "triangle":
        corners = ((0, -1.15), (1.15, 0.85), (-1.15, 0.85))
        el(g, "polygon", {"points": _points(cx, cy, r, corners), **attrs})
    else:  # diamond
        corners = ((0, -1.2), (1.2, 0), (0, 1.2), (-1.2, 0))
        el(g, "polygon", {"points": _points(cx, cy, r, corners), **attrs})
    dy = r * 0.42 if fs.shape != "triangle" else r * 0.55
    label(g, cx, cy + dy, initial, r * 1.1, fs.fill, bold=True)
    return g


def icon(
    parent: Element, x: float, y: float, path: str, *, fill: str, stroke: str, scale: float = 1.0
) -> Element:
    """One of the 16×16 icon paths of `style`, its top-left corner at (x, y)."""
    return el(
        parent,
        "path",
        {
            "d": path,
            "transform": f"translate({num(x)} {num(y)}) scale({num(scale)})",
            "fill": fill,
            "stroke": stroke,
            "stroke-width": 1.4,
            "stroke-linejoin": "round",
            "stroke-linecap": "round",
        },
    )


def chip(parent: Element, x: float, y: float, width: float, height: float) -> Element:
    """A light rounded plate, so an icon reads on any tile colour."""
    return el(
        parent,
        "rect",
        {
            "x": x,
            "y": y,
            "width": width,
            "height": height,
            "rx": 3,
            "fill": style.PRINT,
            "stroke": style.OUTLINE,
            "stroke-width": 0.8,
        },
    )


def hero(parent: Element, x: float, y: float, kind: str, count: int) -> float:
    """A hero chip (King, Navigator, Builder) with its count when above 1; returns its width."""
    width = 17 if count <= 1 else 27
    chip(parent, x, y, width, 15)
    if kind == "king":
        icon(parent, x + 1.5, y + 0.5, style.CROWN, fill=style.GOLD, stroke=style.OUTLINE, scale=0.85)
    elif kind == "navigator":
        icon(parent, x + 1.5, y + 0.5, style.ANCHOR, fill="none", stroke=style.OUTLINE, scale=0.85)
        el(
            parent,
            "circle",
            {
                "cx": x + 8.3,
                "cy": y + 2.9,
                "r": 1.6,
                "fill": "none",
                "stroke": style.OUTLINE,
                "stroke-width": 1.2,
            },
        )
    else:
        icon(parent, x + 1.5, y + 0.5, style.HAMMER, fill=style.PRINT_INK, stroke=style.PRINT_INK, scale=0.85)
    if count > 1:
        label(parent, x + 21.5, y + 11.5, str(count), 10.5, style.PRINT_INK, bold=True)
    return width


def emblem(parent: Element, cx: float, cy: float, r: float, design: str) -> None:
    """The design struck on a coin (H-BAG): Owl, Pegasus, Shield or Turtle, drawn inside radius `r`."""
    s = r / 8.5
    x, y = cx - 8 * s, cy - 8 * s
    ink = style.PRINT_INK
    if design == "owl":
        icon(parent, x, y, style.OWL_ICON, fill="none", stroke=ink, scale=s)
        for dx in (-2.6, 2.6):
            el(
                parent,
                "circle",
                {
                    "cx": cx + dx * s,
                    "cy": cy + 0.6 * s,
                    "r": 2.1 * s,
                    "fill": "none",
                    "stroke": ink,
                    "stroke-width": 1.2,
                },
            )
    elif design == "pegasus":
        icon(parent, x, y, style.PEGASUS_ICON, fill=ink, stroke=ink, scale=s)
    elif design == "shield":
        icon(parent, x, y, style.SHIELD_ICON, fill="none", stroke=ink, scale=s)
    else:
        icon(parent, x, y, style.TURTLE_ICON, fill="none", stroke=ink, scale=s)


def coin(
    parent: Element,
    cx: float,
    cy: float,
    r: float,
    *,
    metal: str,
    design: str | None = None,
    count: int | None = None,
    ring: bool = False,
) -> None:
    """A coin: gold with a number (printed coins), or with a design's emblem; `ring` marks a Mint."""
    if ring:
        el(
            parent,
            "circle",
            {
                "cx": cx,
                "cy": cy,
                "r": r + 2.5,
                "fill": style.PRINT,
                "stroke": style.OUTLINE,
                "stroke-width": 1.2,
            },
        )
    el(
        parent,
        "circle",
        {"cx": cx, "cy": cy, "r": r, "fill": metal, "stroke": style.OUTLINE, "stroke-width": 1},
    )
    if design is not None:
        emblem(parent, cx, cy, r, design)
    if count is not None:
        label(parent, cx, cy + r * 0.45, str(count), r * 1.25, style.PRINT_INK, bold=True)


def fortification(parent: Element, x: float, y: float, hp: int, full: int) -> None:
    """One Fortification (S-FORT): a crenellated wall with a pip per HP; each lost HP is a red cross."""
    w, h = 20, 11
    wall = f"M{num(x)} {num(y + 3)} h3 v-3 h3.5 v3 h3 v-3 h3.5 v3 h3 v-3 h4 v{num(h)} h-{num(w)} Z"
    el(parent, "path", {"d": wall, "fill": style.PRINT, "stroke": style.OUTLINE, "stroke-width": 1})
    for i in range(full):
        px, py = x + 2 + i * 6, y + 5
        if i < hp:
            el(parent, "rect", {"x": px, "y": py, "width": 4.5, "height": 4.5, "fill": "#3a3a3a"})
        else:
            el(
                parent,
                "path",
                {
                    "d": f"M{num(px)} {num(py)} l4.5 4.5 M{num(px + 4.5)} {num(py)} l-4.5 4.5",
                    "stroke": style.DAMAGE,
                    "stroke-width": 1.6,
                    "class": "damage",
                },
            )
