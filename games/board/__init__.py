"""The board picture (docs/i18n.md): SVG drawn on the server from a player's view, and a PNG of it for emails.

- `render_board(view, *, language)` -> SVG text (inline in the player's page and the history).
- `render_board_png(view, language)` -> PNG bytes (the turn email).
`view` is always `engine.player_view(state, faction)`, never the raw state (H-SCREEN).
"""

from .png import render_board_png
from .svg import NotAPlayerView, board_size, render_board

__all__ = ["NotAPlayerView", "board_size", "render_board", "render_board_png"]
