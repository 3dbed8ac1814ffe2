"""What one player may see of the game and of its history (H-SCREEN, H-WINTER-ORDERS, H-END)."""

from __future__ import annotations

from typing import Any

from .events import Event
from .state import GameState

HIDDEN = "hidden"
SUBMITTED = "submitted"


def player_view(state: GameState, faction: str | None) -> dict[str, Any]:
    """The state as `faction` may see it; None is a spectator or the organiser.

    H-SCREEN: coins behind a screen (count and designs) and Mission Cards are secret to
    everyone but their owner; AP, FP and Blanks are public. The bag is opaque: its contents
    would give away the screens (all coins not in the bag or on the board are behind them).
    The deck shows only its size. H-WINTER-ORDERS: others' sealed orders show only that they
    were submitted. H-END: once the game has ended, everything is shown.
    """
    view = state.to_dict()
    view["deck_count"] = len(state.deck)
    if state.phase == "ended":
        return view
    del view["deck"]
    view["bag"] = HIDDEN
    for other, player in view["players"].items():
        if other != faction:
            player["coins_behind_screen"] = HIDDEN
            player["mission_cards"] = len(player["mission_cards"])
    view["winter_orders"] = {
        other: order if other == faction else SUBMITTED for other, order in view["winter_orders"].items()
    }
    return view


def event_view(event: Event, viewer: str | None, game_over: bool = False) -> dict[str, Any]:
    """One event of the history as `viewer` may see it (H-SCREEN, H-WINTER-ORDERS); all once the game is over.

    Coins drawn behind a screen show to others only as hidden; a sealed winter order shows
    to others only that it was sent (the reveal event later shows every order).
    """
    shown = event.to_dict()
    if game_over or event.payload.get("player") == viewer:
        return shown
    if event.type == "IncomeReceived":
        shown["payload"] = {**event.payload, "coins": HIDDEN}
    elif event.type == "WinterOrderSealed":
        shown["payload"] = {"player": event.payload["player"], "order": SUBMITTED}
    return shown
