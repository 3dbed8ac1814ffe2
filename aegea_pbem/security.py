"""Security middleware: response headers (CSP and friends); and the log filters that keep link tokens
and task arguments out of the logs. Rate limits are the views' own (aegea_pbem/rate_limits.py)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

# Nothing inline: the pages' scripts and styles are static files (games/static/games/), so an
# injected <script> or style never runs. The board's SVG is inline markup but styled by presentation
# attributes (fill, stroke), which CSP does not govern; the email PNG is inline data:.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'; object-src 'none'"
)


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response


# A player's link token is the only key to their seat (games/reading/links.py) and valid for weeks; Django
# logs the path of every 4xx answer ("Bad Request: /play/1/<token>/" for a refused order, "Forbidden
# (CSRF token missing.): ...", "Not Found: ...") and runserver every request line. The tokens in those
# paths, in a ?token= query, and signed values or reply-address tokens anywhere are written redacted.
REDACTED = "[token]"
_TOKEN_PATTERNS = (
    # A seat's token-free address (/play/<game>/<seat>/, games/web/seat_cookies.py) is no secret: kept.
    re.compile(r"(?<=/play/)(\d+/)(?!\d+(?:[/?#\s\"']|$))[^/\s?#\"']+"),
    re.compile(r"(?<=/mail/unsubscribe/)()[^/\s?#\"']+"),
    re.compile(r"(?<=[?&]token=)()[^&\s#\"']+"),
    re.compile(r"()[\w-]+:[\w-]+:[\w-]{43}(?![\w-])"),  # django.core.signing's value:timestamp:signature
    re.compile(r"()\b[om]\.\d+\.\d+\.\d+\.[a-z0-9]+\.[a-z2-7]{24}\b", re.I),  # games/mail/keys.py
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
    (games/services/fresh_links.py); this catches a task run eagerly, which Celery traces without it."""

    def filter(self, record: logging.LogRecord) -> bool:
        for field in ("args", "data"):
            value = getattr(record, field, None)
            if isinstance(value, dict) and ("args" in value or "kwargs" in value):
                setattr(record, field, {**value, "args": "[hidden]", "kwargs": "[hidden]"})
        return True
