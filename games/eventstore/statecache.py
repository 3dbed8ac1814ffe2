"""A per-process cache of folded game states, so an order does not fold its game from the log again.

A state is cached under (game id, seq, hash of event seq). The hash chain makes that key name
one exact log prefix: an entry written by a transaction that later rolled back can never match
a committed head with the same seq (its hash differs), so no entry can ever be stale. Callers
get a fresh copy (the entry is stored pickled), so nobody can change a cached state by accident.

A game id names one log only while that game exists: ids come back (SQLite reuses them after a
rollback or between test runs, a restored database may too), and another log's states under the
same id must neither be served (the hash rules that out) nor crowd the live game's states out of
its few slots (they kept the highest seqs). So a load that has read the head drops the entries
that cannot be on that log (`forget_off_log`: past the head, or at it with another hash), and a
fold that finds a cached state is not on the log drops it (`discard`).

Each process keeps up to STATE_CACHE_GAMES games (least recently used out first), and per game
its newest few states. STATE_CACHE_GAMES=0 turns it off. Losing the cache changes nothing but
speed; web processes need not share it.
"""

from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings

DEFAULT_GAMES = 1000
STATES_PER_GAME = 2  # the head, and the state one order back while that order is appended

_lock = threading.Lock()
_games: OrderedDict[int, dict[tuple[int, str], bytes]] = OrderedDict()
stats = {"hits": 0, "near_hits": 0, "misses": 0}


def capacity() -> int:
    return int(getattr(settings, "STATE_CACHE_GAMES", DEFAULT_GAMES))


def get(game_id: int, seq: int, digest: str) -> Any | None:
    """A copy of the state after event `seq` whose hash is `digest`, or None."""
    with _lock:
        entries = _games.get(game_id)
        blob = entries.get((seq, digest)) if entries else None
        if blob is not None:
            _games.move_to_end(game_id)
    return None if blob is None else pickle.loads(blob)


def holds(game_id: int) -> bool:
    """True when any state of the game is cached (else a load need not ask for the head first)."""
    with _lock:
        return game_id in _games


def newest_seq(game_id: int) -> int | None:
    """The seq of the newest cached state of the game, or None (nothing of it is cached)."""
    with _lock:
        entries = _games.get(game_id)
        return max(entries)[0] if entries else None


def nearest(game_id: int, before_seq: int) -> tuple[int, str, Any] | None:
    """The newest cached (seq, hash, state) of the game with seq below `before_seq`, or None."""
    with _lock:
        entries = _games.get(game_id) or {}
        older = [key for key in entries if key[0] < before_seq]
        if not older:
            return None
        seq, digest = max(older)
        blob = entries[(seq, digest)]
    return seq, digest, pickle.loads(blob)


def put(game_id: int, seq: int, digest: str, state: Any) -> None:
    """Remember the state after event `seq` (hash `digest`); a copy is kept, not `state` itself."""
    size = capacity()
    if size <= 0 or seq <= 0:
        return
    blob = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
    with _lock:
        entries = _games.setdefault(game_id, {})
        entries[(seq, digest)] = blob
        for key in sorted(entries)[:-STATES_PER_GAME]:
            del entries[key]
        _games.move_to_end(game_id)
        while len(_games) > size:
            _games.popitem(last=False)


def forget_off_log(game_id: int, head_seq: int, head_digest: str) -> None:
    """Drop the game's entries that cannot be on a log whose head is (`head_seq`, `head_digest`)."""
    with _lock:
        entries = _games.get(game_id)
        if not entries:
            return
        for seq, digest in list(entries):
            if seq > head_seq or (seq == head_seq and digest != head_digest):
                del entries[(seq, digest)]


def discard(game_id: int, seq: int, digest: str) -> None:
    """Drop one entry found not to be on the game's log."""
    with _lock:
        entries = _games.get(game_id)
        if entries:
            entries.pop((seq, digest), None)


def clear() -> None:
    with _lock:
        _games.clear()
