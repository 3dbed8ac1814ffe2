"""Events in plain words, for the player page and the turn emails (docs/order-loop.md "Playing a turn").

`describe(event_type, payload, viewer, game=game)` tells one event as `viewer` may know it: coins behind
another player's screen and others' sealed winter orders stay hidden (H-SCREEN,
H-WINTER-ORDERS) until they are revealed. Messages are English source strings for gettext.
The game's events are told in events.py, the table's (messages, deadlines) in
table.py; this module tells the record around an order and puts them together.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from games.engine import Event, event_view
from games.engine.record import ORDER_GIVEN, RANDOMNESS_DRAWN
from games.models import Game
from games.words.clock import reader_zone
from games.words.events import GAME_TELLERS, Teller
from games.words.names import ORDER_KIND_NAMES, faction_name
from games.words.table import TABLE_TELLERS, TIMED_TELLERS
from games.words.take_back import TAKE_BACK_TELLERS
from games.words.told import Told

# The record around an order (engine/record.py), not something that happened in the game: left
# out of the plain-words history, e-mails and messages; the export and the JSON carry them.
UNTOLD = frozenset({ORDER_GIVEN, RANDOMNESS_DRAWN})


def is_told(event_type: str) -> bool:
    """Whether an event belongs in the plain-words history (the record around an order does not)."""
    return event_type not in UNTOLD


def _order_given(p: dict[str, Any], viewer: str | None) -> str:
    # The order's kind is all others learn before the end (its details may be secret, H-SCREEN).
    kind = p["command"]["kind"]
    values = {"player": faction_name(p["player"]), "order": ORDER_KIND_NAMES.get(kind, kind)}
    if p.get("by") == "system":
        return _("An order was given for %(player)s by default: %(order)s.") % values
    return _("%(player)s gave an order: %(order)s.") % values


def _drawn(p: dict[str, Any], viewer: str | None) -> str:
    values = {"position": p["position"]}
    if isinstance(p["draws"], list):
        values["n"] = len(p["draws"])
        return _("%(n)s random draws were made at position %(position)s.") % values
    return _("Random draws were made at position %(position)s (shown when the game ends).") % values


def _factions_drawn(p: dict[str, Any], viewer: str | None) -> str:
    # H-SETUP: a gathered game's "random" seats (engine/seat_draw.py); public, like the seats' factions.
    factions = ", ".join(faction_name(faction) for faction in p["drawn"])
    return _("Drawn at random for the seats that asked for a random faction: %(factions)s.") % {
        "factions": factions
    }


TELLERS: dict[str, Teller] = {
    "OrderGiven": _order_given,
    "RandomnessDrawn": _drawn,
    "FactionsDrawn": _factions_drawn,
    **GAME_TELLERS,  # what happened in the game (events.py)
    **TABLE_TELLERS,  # table events: messages, vacations, missed deadlines, substitutes
    **TAKE_BACK_TELLERS,  # H-TAKEBACK: an order taken back, a sealed order sealed again (take_back.py)
}


def describe(
    event_type: str,
    payload: dict[str, Any],
    viewer: str | None,
    game_over: bool = False,
    *,
    game: Game | int | None,
) -> Told:
    """One event in plain words, as `viewer` (a faction, or None for a spectator) may know it: a Told
    line (told.py), which a template may ask whether it is a battle or a scoring.

    The payload is first redacted by engine.event_view, the one redaction of the log (H-SCREEN,
    H-MISSIONS, H-WINTER-ORDERS; everything once the game is over, H-END): a teller never sees
    what the viewer may not. A time (a vacation's end) is told in the viewer's zone (Seat.time_zone,
    else the game's; the organiser: the game's), read from `game` — required, as deadline_text's
    reader, so that no page or email forgets it; None (a bare payload) tells it in UTC, so named.
    """
    teller = TELLERS.get(event_type)
    if teller is not None:
        shown = event_view(Event(event_type, payload), viewer, game_over)["payload"]
        timed = TIMED_TELLERS.get(event_type) if game is not None else None
        try:
            line = timed(shown, viewer, reader_zone(game, viewer)) if timed else teller(shown, viewer)
            return line if isinstance(line, Told) else Told(line)
        except (KeyError, TypeError, ValueError):
            pass  # a payload newer than its words: say that it happened rather than break the page
    return Told(_("%(event)s happened.") % {"event": event_type})


def tell(
    events: Iterable[Any], viewer: str | None, game_over: bool = False, *, game: Game | int
) -> list[str]:
    """Events (anything with .type and .payload) in plain words for `viewer`, the order's record left out."""
    return [describe(e.type, e.payload, viewer, game_over, game=game) for e in events if is_told(e.type)]
