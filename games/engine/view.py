"""What one player may see of the game (H-SCREEN, H-WINTER-ORDERS, H-END)."""

from __future__ import annotations

from typing import Any

from .state import GameState

HIDDEN = "hidden"
SUBMITTED = "submitted"


def player_view(state: GameState, faction: str | None) -> dict[str, Any]:
    """The state as `faction` may see it; None is a spectator or the organiser.

    H-SCREEN: coins behind a screen (count and designs) and Mission Cards are secret to
    everyone but their owner; AP, FP and Blanks are public. The deck shows only its size.
    H-WINTER-ORDERS: others' sealed orders show only that they were submitted. H-END: once
    the game has ended, everything is shown.
    """
    view = state.to_dict()
    view["deck_count"] = len(state.deck)
    if state.phase == "ended":
        return view
    del view["deck"]
    for other, player in view["players"].items():
        if other != faction:
            player["coins_behind_screen"] = HIDDEN
            player["mission_cards"] = len(player["mission_cards"])
    view["winter_orders"] = {
        other: order if other == faction else SUBMITTED for other, order in view["winter_orders"].items()
    }
    return view
