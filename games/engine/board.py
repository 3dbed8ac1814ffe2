"""H-BOARD: a 9×9 grid of spaces A1…I9; adjacency is the 8 neighbours, distance is Chebyshev."""

from __future__ import annotations

from functools import cache

COLUMNS = "ABCDEFGHI"
ROWS = range(1, 10)
SPACES: tuple[str, ...] = tuple(f"{c}{r}" for r in ROWS for c in COLUMNS)


def is_space(name: object) -> bool:
    return isinstance(name, str) and name in _SPACE_SET


_SPACE_SET = frozenset(SPACES)


def coordinates(space: str) -> tuple[int, int]:
    return COLUMNS.index(space[0]), int(space[1:]) - 1


def distance(a: str, b: str) -> int:
    """Chebyshev distance (H-BOARD): diagonal steps cost the same as straight ones."""
    (ax, ay), (bx, by) = coordinates(a), coordinates(b)
    return max(abs(ax - bx), abs(ay - by))


@cache
def neighbours(space: str) -> tuple[str, ...]:
    """The up to 8 spaces adjacent to `space` (S-EXP: horizontally, vertically or diagonally)."""
    return tuple(s for s in SPACES if distance(space, s) == 1)


def adjacent(a: str, b: str) -> bool:
    return distance(a, b) == 1
