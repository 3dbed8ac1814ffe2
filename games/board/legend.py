"""The key below the board: each faction's colour, mark and name, and what each symbol means.

Items flow left to right and wrap, so longer German labels still fit the picture's width.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from games.words.board_names import FACTION_INITIALS
from games.words.names import faction_name

from ..engine.data import FACTION_IDS
from . import draw, style
from .draw import Element, el

ROW = 38
SIZE = 18
SAMPLE_SCALE = 1.3  # the samples are drawn at 24×18 and shown larger, to read on a phone
Sample = Callable[[Element, float, float], None]  # draws a 24×18 sample with its top-left at (x, y)


def _faction_sample(faction: str) -> Sample:
    fs = style.FACTION_STYLES[faction]

    def sample(g: Element, x: float, y: float) -> None:
        el(
            g,
            "rect",
            {
                "x": x,
                "y": y - 1,
                "width": 24,
                "height": 20,
                "rx": 4,
                "fill": fs.fill,
                "stroke": style.OUTLINE,
                "stroke-width": 1.2,
            },
        )
        draw.mark(g, x + 12, y + 9, 7, fs, str(FACTION_INITIALS[faction]))

    return sample


def _neutral(g: Element, x: float, y: float) -> None:
    el(
        g,
        "rect",
        {
            "x": x,
            "y": y - 1,
            "width": 24,
            "height": 20,
            "rx": 4,
            "fill": style.NEUTRAL.fill,
            "stroke": "#4a4a4a",
            "stroke-width": 1.5,
            "stroke-dasharray": "5 3",
        },
    )


def _hero(kind: str) -> Sample:
    def sample(g: Element, x: float, y: float) -> None:
        draw.hero(g, x + 3, y + 1, kind, 1)

    return sample


def _fortification(g: Element, x: float, y: float) -> None:
    draw.fortification(g, x + 2, y + 3, 2, 3)


def _coin(g: Element, x: float, y: float) -> None:
    draw.coin(g, x + 12, y + 9, 8, metal=style.GOLD, count=1)


def _mint(g: Element, x: float, y: float) -> None:
    draw.coin(g, x + 12, y + 9, 7, metal=style.GOLD, design="owl", ring=True)


def _unminted(g: Element, x: float, y: float) -> None:
    draw.coin(g, x + 12, y + 9, 8, metal=style.SILVER, design="turtle")


def _link(g: Element, x: float, y: float) -> None:
    d = f"M{draw.num(x + 2)} {draw.num(y + 9)} H{draw.num(x + 22)}"
    el(g, "path", {"d": d, "stroke": style.OUTLINE, "stroke-width": 8, "stroke-linecap": "round"})
    el(g, "path", {"d": d, "stroke": style.LINK, "stroke-width": 4, "stroke-linecap": "round"})


def legend_items(factions: list[str]) -> list[tuple[str, Sample]]:
    items: list[tuple[str, Sample]] = [
        (faction_name(f), _faction_sample(f)) for f in FACTION_IDS if f in factions
    ]
    items += [
        (_("neutral"), _neutral),
        (_("King"), _hero("king")),
        (_("Navigator"), _hero("navigator")),
        (_("Builder"), _hero("builder")),
        (_("Fortification (red: HP lost)"), _fortification),
        (_("coins at income"), _coin),
        (_("Mint"), _mint),
        (_("unminted coins"), _unminted),
        (_("trade link"), _link),
    ]
    return items


def layout(items: list[tuple[str, Sample]], width: float) -> list[tuple[float, int]]:
    """(x, row) of each item: left to right, wrapping at `width`."""
    places, x, row = [], 0.0, 0
    for text, _sample in items:
        item_width = 24 * SAMPLE_SCALE + 8 + draw.text_width(text, SIZE) + 22
        if x and x + item_width > width:
            x, row = 0.0, row + 1
        places.append((x, row))
        x += item_width
    return places


def legend_height(factions: list[str], width: float) -> float:
    places = layout(legend_items(factions), width)
    return (places[-1][1] + 1) * ROW + 12


def draw_legend(parent: Element, factions: list[str], x: float, y: float, width: float) -> None:
    items = legend_items(factions)
    g = el(parent, "g", {"class": "legend"})
    for (text, sample), (dx, row) in zip(items, layout(items, width), strict=True):
        top = y + row * ROW
        at = f"translate({draw.num(x + dx)} {draw.num(top)}) scale({draw.num(SAMPLE_SCALE)})"
        sample(el(g, "g", {"transform": at}), 0, 0)
        draw.label(g, x + dx + 24 * SAMPLE_SCALE + 8, top + 18, text, SIZE, style.LABEL, anchor="start")
