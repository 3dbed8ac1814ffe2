"""Deterministic randomness derived from the game's secret seed (architecture: provably fair).

`GameRng(seed, position)` is an HMAC-SHA256 stream keyed by the seed and labelled with
the seq of the event being decided, so every die, coin and tile draw can be re-derived
by anyone who knows the seed and the log, and replaying events never draws again.

Every draw is written into `transcript` as (label, bound, value): the service records it in
the batch's "RandomnessDrawn" event (games/engine/record.py), so a verifier with nothing but
the exported log and the revealed seed recomputes each value (docs/fairness.md).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

DIE = "die"


def seed_hash(seed: str) -> str:
    """The SHA-256 of the seed, published in the first event (H-END reveals the seed)."""
    return hashlib.sha256(seed.encode()).hexdigest()


class GameRng:
    """A reproducible stream of draws for one decision. Not a global RNG; never reused."""

    def __init__(self, seed: str, position: int) -> None:
        self._key = seed.encode()
        self.position = position
        self._counter = 0
        self.transcript: list[tuple[str, int, int]] = []  # (label, bound n, value in [0, n))

    def _next_u64(self) -> int:
        msg = f"{self.position}:{self._counter}".encode()
        self._counter += 1
        return int.from_bytes(hmac.new(self._key, msg, hashlib.sha256).digest()[:8], "big")

    def randbelow(self, n: int, label: str = "") -> int:
        """Uniform integer in [0, n), by rejection sampling (no modulo bias); n at most 2**64."""
        if n <= 0 or n > 1 << 64:
            raise ValueError("randbelow needs 0 < n <= 2**64")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._next_u64()
            if value < limit:
                self.transcript.append((label, n, value % n))
                return value % n

    def die(self) -> int:
        return self.randbelow(6, DIE) + 1

    def dice(self, count: int) -> list[int]:
        return [self.die() for _ in range(count)]

    def choice(self, items: Sequence[T], label: str = "") -> T:
        return items[self.randbelow(len(items), label)]

    def shuffled(self, items: Sequence[T], label: str = "") -> list[T]:
        """Fisher–Yates over a copy."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1, label)
            out[i], out[j] = out[j], out[i]
        return out
