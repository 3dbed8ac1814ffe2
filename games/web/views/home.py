"""The front page and a health check: enough for `make run` to show the service is up."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.models import GameSummary


def home(request: HttpRequest) -> HttpResponse:
    """A plain page naming the service and how many games it runs."""
    title = _("AEGEAPOLIS play-by-email")
    games = GameSummary.objects.count()
    intro = _("Games running on this server: %(count)d.") % {"count": games}
    how = _("Players act from the links in their turn emails; organisers create games.")
    return render(request, "home.html", {"title": title, "intro": intro, "how": how})


def healthz(request: HttpRequest) -> JsonResponse:
    """200 with the database vendor when the database answers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True, "database": connection.vendor})
