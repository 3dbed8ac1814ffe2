"""What a web process does as it starts instead of during its first orders (aegea_pbem/wsgi.py).

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
