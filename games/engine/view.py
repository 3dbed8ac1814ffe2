"""What one player may see of the game and of its history (H-SCREEN, H-WINTER-ORDERS, H-END)."""

from __future__ import annotations

from typing import Any

from .events import Event
from .record import ORDER_GIVEN, RANDOMNESS_DRAWN
from .state import GameState, Polis
from .table import MESSAGE_SENT, message_visible
from .takeback import ORDER_TAKEN_BACK

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


def board_view(state: GameState) -> dict[str, Any]:
    """What the board shows, the same for every viewer (H-SCREEN: the board is public): the
    Poleis with what stands on them, the trade links, the factions in play, the year and phase.

    player_view(state, faction) restricted to those keys, without copying the rest of the state
    (the emails' board picture draws this, ~3 ms less an email). Nothing behind a screen is in it.
    """
    return {
        "year": state.year,
        "phase": state.phase,
        "bag": HIDDEN,
        "players": {faction: {} for faction in state.players},
        "board": {space: _polis_view(polis) for space, polis in state.board.items()},
        "trade_links": [list(link) for link in state.trade_links],
    }


def _polis_view(polis: Polis) -> dict[str, Any]:
    # As asdict(polis) gives it, in a tenth of the time: the view must not share the state's lists.
    return {
        **vars(polis),
        "fortification_hp": list(polis.fortification_hp),
        "unminted_coins": dict(polis.unminted_coins),
    }


def event_view(event: Event, viewer: str | None, game_over: bool = False) -> dict[str, Any]:
    """One event of the history as `viewer` may see it; everything once the game is over (H-END).

    The one redaction of the log, used by every page, email, JSON answer and export:
    H-SCREEN — coins drawn behind a screen, paid from it or named in an order show to others
    only as hidden, and so does a scenario's screens; H-MISSIONS — a hand and a drawn card only
    to their holder; H-WINTER-ORDERS — a sealed order shows to others only that it was sent and
    its commitment (the reveal later shows every order and salt); H-TRADE — an offer's screened
    coins only to its two sides; H-TAKEBACK — the fields a take-back puts back to nobody; the
    draws of a batch (they would tell coin designs) and a private message (engine/table.py) to
    nobody else. `viewer` None is a spectator or the
    organiser, who sees what every player may see.
    """
    shown = event.to_dict()
    if game_over:
        return shown
    payload = event.payload
    if event.type == MESSAGE_SENT:
        if not message_visible(payload, viewer):
            # Not even who wrote to whom: others read only that a private message was sent.
            shown["payload"] = {"private": True, "player": HIDDEN, "to": [], "text": HIDDEN}
        return shown
    if event.type == ORDER_TAKEN_BACK:
        # H-TAKEBACK: the fields put back name screens and hands; everyone reads who took back what kind.
        shown["payload"] = {k: v for k, v in payload.items() if k != "restore"}
        return shown
    if event.type == RANDOMNESS_DRAWN:
        shown["payload"] = {"position": payload["position"], "draws": HIDDEN}
        return shown
    if event.type == "ScenarioLoaded":
        shown["payload"] = {**payload, "state": player_view(GameState.from_dict(payload["state"]), viewer)}
        return shown
    if event.type == "GameStarted" and "mission_hands" in payload:
        # H-MISSIONS: each player sees only their own hand; others only how many cards it holds.
        hands = {f: cards if f == viewer else len(cards) for f, cards in payload["mission_hands"].items()}
        shown["payload"] = {**payload, "mission_hands": hands}
    elif event.type in ("OfferMade", "OfferAccepted"):
        shown["payload"] = _offer_as_seen(payload, viewer, parties=(payload.get("to"),))
    if payload.get("player") == viewer:
        return shown
    if event.type == ORDER_GIVEN:
        # An order's details can name screened coins (a sealed order, an Oracle, an offer).
        command = payload["command"]
        shown["payload"] = {**payload, "command": {"kind": command["kind"], "player": command["player"]}}
    elif event.type == "MissionCardDrawn":
        shown["payload"] = {**payload, "card": HIDDEN, "coin": HIDDEN}
    elif event.type == "MissionCardsDealt":
        shown["payload"] = {**payload, "cards": len(payload["cards"])}
    elif event.type == "IncomeReceived":
        shown["payload"] = {**payload, "coins": HIDDEN}
        if "economy" in payload:  # H-FACTION: the faction's own coins go behind its screen too
            shown["payload"]["economy"] = {**payload["economy"], "coins": HIDDEN}
    elif event.type == "WinterOrderSealed":
        # H-WINTER-ORDERS: the commitment is public at once, the order and its salt at the reveal.
        shown["payload"] = {"player": payload["player"], "order": SUBMITTED}
        if "commitment" in payload:
            shown["payload"]["commitment"] = payload["commitment"]
        if "supersedes" in payload:  # H-TAKEBACK: that it was sealed again is public, never what
            shown["payload"]["supersedes"] = payload["supersedes"]
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
