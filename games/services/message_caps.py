"""The daily cap on messages from one seat to one rival (docs/long-games.md "Messages").

Beside the per-minute "orders" limit a seat's messages spend (games/services/messages.py), RATE_LIMITS
"messages" (default 60 in 86400 seconds) caps how many messages one seat sends one rival in any
such window, whether typed on the page or written in an email reply. It is counted from the log,
the sender's MessageSent events of the window, not in the rate-limit cache: the count is exact and
survives a cache restart, and read at the head the message is appended at (a message appended
meanwhile moves the head, so the append is retried and counted again). A message to several
rivals counts once for each; if any of them is at the cap, the whole message is refused.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.table import MESSAGE_SENT
from games.models import Event, Game
from games.words.countdown import countdown_text
from games.words.names import faction_name


def cap_refusal(game: Game, sender: str, recipients: list[str], now: datetime | None = None) -> str | None:
    """Why `sender` may not message `recipients` now, in the active language, or None: some of them
    already had the most messages from `sender` that RATE_LIMITS "messages" allows in its window.
    The wait said is honest: until enough of those messages are older than the window."""
    most, seconds = getattr(settings, "RATE_LIMITS", {}).get("messages", (0, 0))
    if most < 1:  # unset (or 0, which the other limits read as none, too)
        return None
    now = now or timezone.now()
    window = timedelta(seconds=seconds)
    sent = Event.objects.filter(game=game, type=MESSAGE_SENT, actor=sender, created__gt=now - window)
    times: dict[str, list[datetime]] = {rival: [] for rival in recipients}
    for payload, created in sent.order_by("created").values_list("payload", "created"):
        for rival in set(payload["to"]) & times.keys():
            times[rival].append(created)
    # The time each capped rival can be written to again: when its oldest messages over the cap
    # have left the window.
    free_at = {r: t[len(t) - most] + window for r, t in times.items() if len(t) >= most}
    if not free_at:
        return None
    # Rounded up to the minute: "in 5 min" is then never too early.
    wait = countdown_text(max(free_at.values()) + timedelta(seconds=59), now)
    period = _period_text(seconds)
    capped = [r for r in recipients if r in free_at]
    if len(recipients) == 1:
        (rival,) = capped
        count = len(times[rival])
        return ngettext(
            "You have sent %(count)s message to %(rival)s in the last %(period)s, the most one rival"
            " may get, so this one was not sent. You can write to %(rival)s again %(wait)s.",
            "You have sent %(count)s messages to %(rival)s in the last %(period)s, the most one rival"
            " may get, so this one was not sent. You can write to %(rival)s again %(wait)s.",
            count,
        ) % {"count": count, "rival": faction_name(rival), "period": period, "wait": wait}
    names = {
        "rivals": ", ".join(faction_name(r) for r in capped),
        "most": most,
        "period": period,
        "wait": wait,
    }
    if len(capped) < len(recipients):
        return (
            _(
                "This message was sent to no one: in the last %(period)s you have sent %(rivals)s the most"
                " messages one rival may get (%(most)s). You can send it to all of them again %(wait)s;"
                " to the others you can write now, one by one."
            )
            % names
        )
    return (
        _(
            "This message was sent to no one: in the last %(period)s you have sent %(rivals)s the most"
            " messages one rival may get (%(most)s). You can send it to all of them again %(wait)s."
        )
        % names
    )


def _period_text(seconds: int) -> str:
    """The cap's window: "24 hours", else in minutes."""
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(hours)d hour", "%(hours)d hours", hours) % {"hours": hours}
    minutes = -(-seconds // 60)
    return ngettext("%(minutes)d minute", "%(minutes)d minutes", minutes) % {"minutes": minutes}
