"""Folding events into state: one applier per event type, registered by the rule modules.

Appliers mutate the state they are given and must be pure functions of (state, payload):
no randomness, no clock. `apply_events` works on a copy, so callers' states never change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .events import Event
from .state import GameState

Applier = Callable[[GameState, dict[str, Any]], None]
APPLIERS: dict[str, Applier] = {}


def applies(event_type: str) -> Callable[[Applier], Applier]:
    """Register the applier of one event type (each type has exactly one)."""

    def register(fn: Applier) -> Applier:
        if event_type in APPLIERS:
            raise RuntimeError(f"two appliers for {event_type}")
        APPLIERS[event_type] = fn
        return fn

    return register


def apply_in_place(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        try:
            applier = APPLIERS[event.type]
        except KeyError:
            raise ValueError(f"unknown event type {event.type!r}") from None
        applier(state, event.payload)
        state.events_applied += 1
    return state


def apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    """A new state: `state` with `events` applied; `state` itself is left unchanged."""
    return apply_in_place(state.copy(), events)
