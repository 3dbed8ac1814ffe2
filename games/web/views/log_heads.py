"""/log-heads/: the public, append-only list of published heads (docs/operations.md "Published
heads"), one line a game and day, as plain text for anyone to copy and compare: nothing in it is
secret (a head is a pin, games/reading/log_head.py). `?since=2026-12-01` lists from that day on."""

from __future__ import annotations

from datetime import date

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.reading.log_head import published_lines


@require_GET
def log_heads(request: HttpRequest) -> HttpResponse:
    """Parse ?since, read the list, answer it as text (a bad date: 400 and nothing listed)."""
    since_text = request.GET.get("since", "")
    try:
        since = date.fromisoformat(since_text) if since_text else None
    except ValueError:
        said = _("since must be a date such as 2026-12-01; nothing was listed.")
        return HttpResponse(f"{said}\n", status=400, content_type="text/plain; charset=utf-8")
    lines = published_lines(since)
    return HttpResponse("".join(f"{line}\n" for line in lines), content_type="text/plain; charset=utf-8")
