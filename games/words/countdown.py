"""How long is left until a deadline, in words (docs/long-games.md, "Deadlines"): "in 1 day 3 h".

The countdown is the same in every zone; the exact time beside it (games/words/clock.py,
deadline_text) names the reader's zone. `now` is given by the caller: no clock is read here.
"""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def countdown_text(deadline: datetime, now: datetime) -> str:
    """The time left until `deadline` as the player page's status shows it: "in 1 day 3 h",
    "in 5 h 20 min", "in 12 min"; "now" once it has passed (the deadline tick acts on it soon)."""
    minutes = int((deadline - now).total_seconds() // 60)
    if minutes <= 0:
        return _("now")
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return ngettext("in %(days)d day %(hours)d h", "in %(days)d days %(hours)d h", days) % {
            "days": days,
            "hours": hours,
        }
    if hours:
        return _("in %(hours)d h %(minutes)d min") % {"hours": hours, "minutes": minutes}
    return _("in %(minutes)d min") % {"minutes": minutes}


def countdown_patterns() -> dict[str, str]:
    """countdown_text's words with their numbers left as "%(days)d" etc., for the page's script to
    tick the countdown on (games/static/games/countdown.js) in the reader's language: the same
    catalogue entries, so the ticking text never differs from the one the server wrote. The day
    pattern is given for one day and for several (the script picks by Intl.PluralRules; English
    and German both have those two forms)."""
    day = "in %(days)d day %(hours)d h"
    days = "in %(days)d days %(hours)d h"
    return {
        "now": _("now"),
        "day_one": ngettext(day, days, 1),
        "day_other": ngettext(day, days, 2),
        "hours": _("in %(hours)d h %(minutes)d min"),
        "minutes": _("in %(minutes)d min"),
    }
