"""The error answers Django gives itself (400, 403, 404, 500 and a CSRF refusal), in the reader's language.

Django's own pages are English only, and HTML even for the JSON API. These say the same in English
or German (the language LocaleMiddleware chose: the cookie, else the browser's), and under /api/ they
answer JSON in the API's error shape, {"error": {"code", "message"}}, as its other refusals do.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

BAD_REQUEST = _("The request could not be read. Nothing was changed.")
FORBIDDEN = _("You may not open this page. Nothing was changed.")
NOT_FOUND = _("There is no such page. Check the link in your email: it must be copied whole.")
SERVER_ERROR = _(
    "Something went wrong on our side. Nothing you sent was lost: an order is either in the game"
    " or was not taken. Please look again in a minute."
)
CSRF_REFUSED = _(
    "This form has expired, or your browser did not send the cookie that goes with it. Nothing was"
    " changed. Go back, reload the page and send the form again."
)


def _answer(request: HttpRequest, status: int, code: str, title: Promise, message: Promise) -> HttpResponse:
    if request.path_info.startswith("/api/"):
        return JsonResponse({"error": {"code": code, "message": str(message)}}, status=status)
    return render(request, "error.html", {"title": title, "message": message}, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _answer(request, 400, "bad_request", _("Bad request"), BAD_REQUEST)


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _answer(request, 403, "forbidden", _("Not allowed"), FORBIDDEN)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _answer(request, 404, "not_found", _("Page not found"), NOT_FOUND)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """settings.CSRF_FAILURE_VIEW: a page left open for days on a phone posts a stale form."""
    return _answer(request, 403, "csrf", _("The form has expired"), CSRF_REFUSED)


def server_error(request: HttpRequest) -> HttpResponse:
    """Rendered without the request's context: what failed may be the database the context reads."""
    if request.path_info.startswith("/api/"):
        return JsonResponse({"error": {"code": "server_error", "message": str(SERVER_ERROR)}}, status=500)
    page = render_to_string("error.html", {"title": _("Server error"), "message": SERVER_ERROR})
    return HttpResponse(page, status=500)
