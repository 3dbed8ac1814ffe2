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
    view["mission_deck_count"] = len(state.mission_deck)
    if state.phase == "ended":
        return view
    del view["deck"]
    del view["mission_deck"]  # H-MISSIONS: the undrawn cards would give the hands away
    view["bag"] = HIDDEN
    for other, player in view["players"].items():
        if other != faction:
            player["coins_behind_screen"] = HIDDEN
            player["mission_cards"] = len(player["mission_cards"])
    view["offers"] = [_offer_as_seen(offer, faction) for offer in view["offers"]]
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
    if game_over:
        return shown
    if event.type == "GameStarted" and "mission_hands" in event.payload:
        # H-MISSIONS: each player sees only their own hand; others only how many cards it holds.
        hands = {
            f: cards if f == viewer else len(cards) for f, cards in event.payload["mission_hands"].items()
        }
        shown["payload"] = {**event.payload, "mission_hands": hands}
    elif event.type in ("OfferMade", "OfferAccepted"):
        shown["payload"] = _offer_as_seen(event.payload, viewer, parties=(event.payload.get("to"),))
    if event.payload.get("player") == viewer:
        return shown
    if event.type == "MissionCardDrawn":
        shown["payload"] = {**event.payload, "card": HIDDEN, "coin": HIDDEN}
    elif event.type == "IncomeReceived":
        shown["payload"] = {**event.payload, "coins": HIDDEN}
    elif event.type == "WinterOrderSealed":
        shown["payload"] = {"player": event.payload["player"], "order": SUBMITTED}
    return shown


def _offer_as_seen(
    offer: dict[str, Any], viewer: str | None, parties: tuple[Any, ...] = ()
) -> dict[str, Any]:
    """H-SCREEN: the screened coins of an offer are known to its two sides only."""
    sides = {offer.get("player"), offer.get("to"), offer.get("from"), *parties} - {None}
    if viewer in sides:
        return offer
    return {
        **offer,
        "give": {**offer["give"], "coins": HIDDEN},
        "take": {**offer["take"], "coins": HIDDEN},
    }
