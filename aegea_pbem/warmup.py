"""What a web process (aegea_pbem/wsgi.py) or an email worker (aegea_pbem/celery.py) does as it
starts instead of during its first orders or emails.

Each of these is done once per process and then kept: done inside a request, it lands on the
first orders' latency (and on a short benchmark's figure) instead of on the process's start.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import translation


def warm_up() -> None:
    """Import the broker's transport (notifications.nudge.warm_up), load each language's message
    catalogue and build the URL resolver's reverse map for it (Django builds one per language on
    first use: an order's emails reverse links in each reader's language)."""
    from notifications.nudge import warm_up as warm_up_the_nudge

    warm_up_the_nudge()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            reverse("home")


EMAIL_TEMPLATES = ("turn", "notice", "ended", "welcome", "offer", "frontdoor")


def warm_up_worker() -> None:
    """An email worker's first emails, done before it takes any: the web process's warm-up (each
    reply and link reverses a URL in the reader's language), the email templates compiled (the
    cached loader keeps them for every language). games/apps.py adds cairo's import and its first
    picture part (games.board.parts.warm_up).

    Measured in a fresh process (bench/inbox_latency.py's worker): importing cairosvg ~410 ms, the
    first part cairo draws ~45 ms, the templates ~80 ms, the catalogues and reverse maps ~290 ms,
    all of which its first emails paid while the orders behind them waited. The parts of the
    picture that depend on a game (its factions, its tiles) are drawn when a game's email asks.
    """
    from django.template.loader import get_template

    warm_up()
    for name in EMAIL_TEMPLATES:
        for suffix in ("_subject.txt", ".txt", ".html"):
            get_template(f"emails/{name}{suffix}")
