"""Middleware that the JSON API does not run: sessions, CSRF, the signed-in user and messages.

The API (games/web/views/api.py, docs/order-loop.md) is authenticated by the seat's signed token
in the request (`Authorization: Bearer`, or `?token=`) and by nothing else. Under /api/ no session
is loaded and no user is signed in, so no cookie carries any authority there: a cross-site page
can make a browser send its cookies, never the token, and CSRF protection has nothing left to
protect (the orders view was csrf_exempt for the same reason). The API renders no page, so it has
no use for messages either. Every other path runs the four as before.

Measured (docs/operations.md "Measuring", `http_overhead_ratio`): the web layer of an API
request refused before any query cost 0.85 ms of CPU with the four and 0.58 ms without (medians,
7 alternating pairs); a whole order through Django's handler, 2.63 against 2.33 ms over
submit_order's own.

The security headers (SecurityMiddleware, the CSP of aegea_pbem/security.py,
X-Frame-Options), the language (LocaleMiddleware: the API's refusals are in the reader's
language) and CommonMiddleware still run for the API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware

API_PREFIX = "/api/"


def under_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


class OffApi:
    """Mixed into a middleware (before it): the API's requests pass straight through. Each class
    below is a subclass of the middleware it skips, so the checks that ask for that middleware
    (the admin's: admin.E408 to E410) find it in MIDDLEWARE."""

    get_response: Callable[[HttpRequest], HttpResponse]

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if under_api(request):
            return self.get_response(request)
        return super().__call__(request)  # type: ignore[misc]


class Sessions(OffApi, SessionMiddleware):
    pass


class Csrf(OffApi, CsrfViewMiddleware):
    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        """The handler calls every middleware's process_view itself, where CSRF checks a POST."""
        if under_api(request):
            return None
        return super().process_view(request, view, args, kwargs)


class Authentication(OffApi, AuthenticationMiddleware):
    pass


class Messages(OffApi, MessageMiddleware):
    pass
