"""Security middleware: response headers (CSP and friends) and rate limits on order and link endpoints;
and the log filter that keeps link tokens out of the logs.

Rate limits count requests per client address in fixed windows in a cache (the "ratelimit" cache:
Redis when REDIS_URL is set, so every web process shares the count; else per process). RATE_LIMITS
maps a kind to (requests, seconds); an empty mapping (RATE_LIMITS=off) turns limiting off.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

# Nothing inline: the pages' scripts and styles are static files (games/static/games/), so an
# injected <script> or style never runs. The board's SVG is inline markup but styled by presentation
# attributes (fill, stroke), which CSP does not govern; the email PNG is inline data:.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'; object-src 'none'"
)

log = logging.getLogger(__name__)

ORDER_PATHS = re.compile(r"^/api/games/\d+/orders$")
# A seat's link and every page under it (the history, the Move cost preview, and the messages,
# vacations and preferences posted to /play/<id>/<token>/<action>/), its JSON state and its export.
# Not the unsubscribe link: mail providers post RFC 8058 one-click unsubscribes from a few addresses.
LINK_PATHS = re.compile(
    r"^/(play/\d+/[^/]+/(?:[^/]+/|move-cost)?|api/games/\d+/state|games/\d+/export\.json)$"
)

# An organiser's password is the key to their games (and staff's to the admin): guesses are limited.
LOGIN_PATHS = re.compile(r"^/(accounts|admin)/login/$")
# Asking for a new link mails a seat's address (games/fresh_links.py): few asks per client address.
NEW_LINK_PATH = "/links/new/"


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response


def limit_kind(request: HttpRequest) -> str | None:
    """Which limit a request counts against: "orders" (every POST of an order, a message, a vacation
    or preferences), "links" (opening a link or a page under it, reading the JSON state or the
    export), "logins" (a sign-in posted), "newlinks" (a new link asked for), or None."""
    path = request.path_info
    if request.method == "POST" and LOGIN_PATHS.match(path):
        return "logins"
    if request.method == "POST" and path == NEW_LINK_PATH:
        return "newlinks"
    if ORDER_PATHS.match(path) or (request.method == "POST" and LINK_PATHS.match(path)):
        return "orders"
    if LINK_PATHS.match(path):
        return "links"
    return None


class RateLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limits = getattr(settings, "RATE_LIMITS", {})
        kind = limit_kind(request) if limits else None
        if kind in limits:
            count, seconds = limits[kind]
            window = int(time.time() // seconds)
            key = f"rl:{kind}:{request.META.get('REMOTE_ADDR', '')}:{window}"
            used = _count(key, seconds)
            if used > count:
                return too_many(request, seconds - int(time.time()) % seconds)
        return self.get_response(request)


def _count(key: str, seconds: int) -> int:
    """This window's count for `key`, counted up by one; 0 when the cache (Redis) is unavailable:
    then nobody is limited, rather than everybody refused."""
    cache = caches["ratelimit"]
    try:
        cache.add(key, 0, timeout=seconds + 1)
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        return 1
    except Exception as exc:  # noqa: BLE001  (any cache backend's connection error)
        log.warning("rate limit not counted: cache unavailable (%s)", type(exc).__name__)
        return 0


def too_many(request: HttpRequest, retry_after: int) -> HttpResponse:
    # This runs before LocaleMiddleware: answer in the browser's language ourselves (issue 8).
    with translation.override(translation.get_language_from_request(request)):
        message = _("Too many requests. Please wait %(seconds)s seconds and try again.") % {
            "seconds": retry_after
        }
        path = request.path_info
        if path.endswith("/move-cost"):  # the page's script shows its {"error": text} as it is
            response: HttpResponse = JsonResponse({"error": message}, status=429)
        elif path.startswith("/api/") or path.endswith("/export.json"):
            response = JsonResponse({"error": {"code": "rate_limited", "message": message}}, status=429)
        else:
            # An organiser signing in, or someone asking for a new link: no link to reassure about.
            context = {"message": message, "kind": limit_kind(request)}
            response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(retry_after)
    return response


# A player's link token is the only key to their seat (games/links.py) and valid for weeks; Django
# logs the path of every 4xx answer ("Bad Request: /play/1/<token>/" for a refused order, "Forbidden
# (CSRF token missing.): ...", "Not Found: ...") and runserver every request line. The tokens in those
# paths, in a ?token= query, and signed values or reply-address tokens anywhere are written redacted.
REDACTED = "[token]"
_TOKEN_PATTERNS = (
    re.compile(r"(?<=/play/)(\d+/)[^/\s?#\"']+"),
    re.compile(r"(?<=/mail/unsubscribe/)()[^/\s?#\"']+"),
    re.compile(r"(?<=[?&]token=)()[^&\s#\"']+"),
    re.compile(r"()[\w-]+:[\w-]+:[\w-]{43}(?![\w-])"),  # django.core.signing's value:timestamp:signature
    re.compile(r"()\b[om]\.\d+\.\d+\.\d+\.[a-z0-9]+\.[a-z2-7]{24}\b", re.I),  # games/mail_keys.py
)


def redact_tokens(text: str) -> str:
    for pattern in _TOKEN_PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


class RedactLinkTokens(logging.Filter):
    """Rewrites a record's message with its link tokens redacted (settings.LOGGING puts it on the
    loggers that log request paths and on the console handler); it never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001  (a malformed record is the handler's to report)
            return True
        redacted = redact_tokens(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


class HideTaskArguments(logging.Filter):
    """Blanks the arguments Celery's trace puts beside "Task … succeeded" (settings.LOGGING, logger
    celery.app.trace): a task's arguments may be a player's address (games.send_new_links), which
    a handler that keeps a record's fields (JSON logs, an error tracker) would store. The rendered
    line never showed them; the record's fields did: its args, and the same dict as `data` (Celery
    passes it as `extra` too). A task run by a worker is sent with its argsrepr hidden already
    (games/fresh_links.py); this catches a task run eagerly, which Celery traces without it."""

    def filter(self, record: logging.LogRecord) -> bool:
        for field in ("args", "data"):
            value = getattr(record, field, None)
            if isinstance(value, dict) and ("args" in value or "kwargs" in value):
                setattr(record, field, {**value, "args": "[hidden]", "kwargs": "[hidden]"})
        return True
