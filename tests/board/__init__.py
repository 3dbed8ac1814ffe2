"""Tests of games/board/: the board picture as SVG and PNG."""
