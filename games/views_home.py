"""The front page and a health check: enough for `make run` to show the service is up."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

from .models import GameSummary


def home(request: HttpRequest) -> HttpResponse:
    """A plain page naming the service and how many games it runs."""
    title = _("AEGEAPOLIS play-by-email")
    games = GameSummary.objects.count()
    intro = _("Games running on this server: %(count)d.") % {"count": games}
    how = _("Players act from the links in their turn emails; organisers create games.")
    body = (
        f"<!doctype html><html lang='{escape(request.LANGUAGE_CODE)}'><head><meta charset='utf-8'>"
        f"<title>{escape(title)}</title></head><body><h1>{escape(title)}</h1>"
        f"<p>{escape(intro)}</p><p>{escape(how)}</p></body></html>"
    )
    return HttpResponse(body)


def healthz(request: HttpRequest) -> JsonResponse:
    """200 with the database vendor when the database answers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True, "database": connection.vendor})
