"""The table events in plain words (docs/long-games.md): messages, vacations, missed deadlines, substitutes.

A vacation's end is told in the reader's zone (Seat.time_zone, else the game's: clock.reader_zone).

A message's text is told to its sender and recipients only: engine.event_view hides it from
others (until the game ends), who read that a private message was sent, without text or parties.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.words.clock import zone_time
from games.words.names import faction_name

UTC_ZONE = zoneinfo.ZoneInfo("UTC")


def _message(p: dict[str, Any], viewer: str | None) -> str:
    if p.get("private"):  # engine.event_view hid it from this viewer (until the game ends)
        return _("A private message was sent.")
    values = {
        "player": faction_name(p["player"]),
        "to": ", ".join(faction_name(f) for f in p["to"]),
        "text": p["text"],
    }
    return _("Message from %(player)s to %(to)s: %(text)s") % values


def _vacation(p: dict[str, Any], viewer: str | None, zone: zoneinfo.ZoneInfo = UTC_ZONE) -> str:
    """Its end in the reader's `zone` (narration.describe gives it; UTC, so named, without a game)."""
    end = zone_time(datetime.fromisoformat(p["end"]), zone)
    values = {"player": faction_name(p["player"]), "days": p["days"], "end": end}
    return (
        ngettext(
            "%(player)s is on vacation for %(days)s day (until %(end)s); their deadlines wait.",
            "%(player)s is on vacation for %(days)s days (until %(end)s); their deadlines wait.",
            p["days"],
        )
        % values
    )


def _deadline_passed(p: dict[str, Any], viewer: str | None) -> str:
    return _("%(player)s missed the deadline; the server gave the default order.") % {
        "player": faction_name(p["player"])
    }


def _handed_over(p: dict[str, Any], viewer: str | None) -> str:
    return _("A substitute took over the seat of %(player)s.") % {"player": faction_name(p["player"])}


TABLE_TELLERS: dict[str, Callable[[dict[str, Any], str | None], str]] = {
    "MessageSent": _message,
    "VacationTaken": _vacation,
    "DeadlinePassed": _deadline_passed,
    "SeatHandedOver": _handed_over,
}
# The tellers that name a time: narration.describe gives them the reader's zone as well.
TIMED_TELLERS: dict[str, Callable[[dict[str, Any], str | None, zoneinfo.ZoneInfo], str]] = {
    "VacationTaken": _vacation,
}
