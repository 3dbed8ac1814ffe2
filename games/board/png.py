"""The board picture as a PNG, for emails (issue 8): the same SVG, drawn by CairoSVG on Debian's libcairo2."""

from __future__ import annotations

import functools
from typing import Any

from .svg import render_board


def render_board_png(view: dict[str, Any], language: str, *, scale: float = 1.0) -> bytes:
    """The board of `view` (an engine.player_view) as PNG bytes, `scale` pixels per SVG unit.

    Draws exactly `render_board(view, language=language)` (H-BOARD, H-SCREEN). CairoSVG needs
    libcairo2 (a Debian package; .ci/run installs it when missing) and finds fonts through fontconfig.
    """
    return _drawn(render_board(view, language=language), scale)


# Drawing is ~150 ms of a worker's CPU per email (cairo draws some 1,200 elements), the SVG ~10 ms.
# The board is public (H-SCREEN), so the emails of one seq — a winter's sealed-order emails, the
# welcomes, the end — show the same picture: a worker draws each distinct SVG once (~160 KB each).
@functools.lru_cache(maxsize=32)
def _drawn(svg: str, scale: float) -> bytes:
    import cairosvg  # imported here: only email sending needs cairo, the pages do not

    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale, unsafe=False)
    assert isinstance(png, bytes)
    return png
