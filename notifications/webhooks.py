"""anymail's webhook URLs, with the inbound ones bounded in size (issue 6).

Django refuses a post whose in-memory data exceeds DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) with a
bare 400 before anymail's view runs, so a 5 MB Postmark mail (JSON, attachments inline) would
never reach us and its sender would get no answer. For the inbound routes only, this wrapper:

- refuses a post above INBOUND_POST_MAX_BYTES (20 MB) from its Content-Length with 413,
  unread (no answer: nothing of it was read, not even the address);
- reads a JSON or form post up to that bound itself (Django then uses that body and does not
  apply its own limit), so the process never holds more than the bound;
- leaves multipart posts (Mailgun) to Django's parser, which streams files to disk and
  counts only the text fields against DATA_UPLOAD_MAX_MEMORY_SIZE.

Every other route, and anymail's tracking webhooks, keep Django's limit.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from anymail import urls as anymail_urls
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, re_path
from django.views.decorators.csrf import csrf_exempt

from .inbound import post_size

DEFAULT_POST_MAX_BYTES = 20 * 1024 * 1024
app_name = anymail_urls.app_name


def _bound() -> int:
    return int(getattr(settings, "INBOUND_POST_MAX_BYTES", DEFAULT_POST_MAX_BYTES))


def bounded_inbound(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Let an inbound webhook read posts up to INBOUND_POST_MAX_BYTES, and no larger."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        bound = _bound()
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return HttpResponse("Bad Content-Length.", status=400, content_type="text/plain")
        if length > bound:
            return HttpResponse("Too large.", status=413, content_type="text/plain")
        if request.method == "POST" and not request.content_type.startswith("multipart/"):
            body = request.read(bound + 1)  # bounded however long the stream claims to be
            if len(body) > bound:
                return HttpResponse("Too large.", status=413, content_type="text/plain")
            request._body = body  # Django's `body` then returns this instead of reading with its limit
        token = post_size.set(length)
        try:
            return view(request, *args, **kwargs)
        finally:
            post_size.reset(token)

    return csrf_exempt(wrapped)


def _bounded(pattern: Any) -> Any:
    if isinstance(pattern, URLPattern) and (pattern.name or "").endswith("_inbound_webhook"):
        return re_path(pattern.pattern.regex.pattern, bounded_inbound(pattern.callback), name=pattern.name)
    return pattern


urlpatterns = [_bounded(p) for p in anymail_urls.urlpatterns]
