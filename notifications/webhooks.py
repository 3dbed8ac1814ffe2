"""anymail's webhook URLs, with the inbound ones bounded in size (docs/operations.md).

Django refuses a post whose in-memory data exceeds DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) with a
bare 400 before anymail's view runs, so a 5 MB Postmark mail (JSON, attachments inline) would
never reach us and its sender would get no answer. For the inbound routes only, this wrapper:

- refuses a post above INBOUND_POST_MAX_BYTES (20 MB) from its Content-Length with 413,
  unread (no answer: nothing of it was read, not even the address);
- reads a JSON or form post up to that bound itself (Django then uses that body and does not
  apply its own limit), so the process never holds more than the bound;
- leaves multipart posts (Mailgun, SendGrid) up to DATA_UPLOAD_MAX_MEMORY_SIZE to Django's
  parser, which streams files to disk; a larger one (a 5 MB text body, Mailgun's
  `inbound_mime` with the whole message in one field) is read up to the bound and parsed here,
  in memory, so its text fields do not meet Django's 2.5 MB limit either.

Every other route, and anymail's tracking webhooks, keep Django's limit. The inbound and the
tracking routes (bounces and complaints, notifications/tracking.py) answer a post anymail cannot
read (not JSON, fields missing or of the wrong type, nested too deep, a mail posted to the
tracking URL) with 400 instead of a server error.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Callable
from email import message_from_bytes, policy
from functools import wraps
from typing import Any

from anymail import urls as anymail_urls
from anymail.exceptions import AnymailConfigurationError, AnymailError, AnymailWebhookValidationFailure
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.urls import URLPattern, re_path
from django.utils.datastructures import MultiValueDict
from django.utils.http import parse_header_parameters
from django.views.decorators.csrf import csrf_exempt

from .inbound import post_size
from .webhook_errors import HandlerFailed

DEFAULT_POST_MAX_BYTES = 20 * 1024 * 1024
log = logging.getLogger(__name__)
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
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if request.content_type == "multipart/form-data" and limit is not None and length > limit:
            request.parse_file_upload = _parse_multipart  # type: ignore[method-assign]
        elif request.method == "POST" and not request.content_type.startswith("multipart/"):
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


def _parse_multipart(meta: dict[str, Any], stream: Any) -> tuple[QueryDict, MultiValueDict]:
    """A multipart/form-data post of at most INBOUND_POST_MAX_BYTES, split in memory (RFC 7578):
    the fields and files Django's parser would give, with its limits on how many. It holds the
    post plus one part's copy at a time, not a parsed tree of the whole."""
    body = stream.read(_bound() + 1)
    if len(body) > _bound():
        raise RequestDataTooBig("Inbound post above INBOUND_POST_MAX_BYTES.")
    boundary = parse_header_parameters(meta.get("CONTENT_TYPE", ""))[1].get("boundary", "")
    if not boundary:
        raise MultiPartParserError("No boundary in the Content-Type.")
    delimiter = b"\r\n--" + boundary.encode("latin-1")
    fields, files = QueryDict(mutable=True), MultiValueDict()
    position = body.find(delimiter[2:])  # the first delimiter may open the body without CRLF
    while position >= 0:
        start = position + len(delimiter) - (0 if body[position : position + 2] == b"\r\n" else 2)
        if body[start : start + 2] == b"--":
            break  # the closing delimiter
        end = body.find(delimiter, start)
        if end < 0:
            raise MultiPartParserError("The post ends inside a part.")
        _add_part(body, body.find(b"\r\n", start) + 2, end, fields, files)
        position = end
    most_fields, most_files = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS, settings.DATA_UPLOAD_MAX_NUMBER_FILES
    if most_fields is not None and sum(len(values) for _name, values in fields.lists()) > most_fields:
        raise TooManyFieldsSent("Too many fields in an inbound post.")
    if most_files is not None and sum(len(values) for _name, values in files.lists()) > most_files:
        raise TooManyFilesSent("Too many files in an inbound post.")
    fields._mutable = False
    return fields, files


def _add_part(body: bytes, start: int, end: int, fields: QueryDict, files: MultiValueDict) -> None:
    """One part, body[start:end]: its headers, a blank line, its content."""
    split = body.find(b"\r\n\r\n", start, end)
    if split < 0:
        return
    headers = message_from_bytes(body[start:split] + b"\r\n\r\n", policy=policy.HTTP)
    name = headers.get_param("name", header="content-disposition")
    if not name:
        return
    content = body[split + 4 : end]
    if str(headers.get("content-transfer-encoding", "")).strip().lower() == "base64":
        content = base64.b64decode(content, validate=False)
    filename = headers.get_filename()
    if filename is None:
        fields.appendlist(str(name), content.decode(headers.get_content_charset() or "utf-8", "replace"))
    else:
        files.appendlist(str(name), SimpleUploadedFile(filename, content, headers.get_content_type()))


def readable(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A webhook post anymail's parser chokes on is the sender's fault: 400, not a server error
    (which the ESP would retry for days). Our receivers' own failures (webhook_errors.our_handler:
    a bug as much as a database error) still answer 500, to be posted again."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except (AnymailWebhookValidationFailure, HandlerFailed):
            raise  # a forged post (Django answers 400, a security event), or ours failed (500)
        except AnymailConfigurationError as exc:  # e.g. the ESP's inbound route set to this URL
            log.error("%s: %s", request.path, exc)
            return HttpResponse("Not a post for this URL.", status=400, content_type="text/plain")
        # LookupError: Python's email header parser raises IndexError on a From such as "0@".
        except (ValueError, LookupError, TypeError, AttributeError, RecursionError, AnymailError) as exc:
            log.warning("%s: unreadable webhook post (%s)", request.path, type(exc).__name__)
            return HttpResponse("Unreadable post.", status=400, content_type="text/plain")

    return csrf_exempt(wrapped)


def authenticated_tracking(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Without ANYMAIL_WEBHOOK_SECRET anymail only warns and takes every post, and a tracking post
    names nothing secret (a game, a seq, a seat, an address): anyone could report a player's email
    as spam and stop their reminders. Until the secret is set the tracking routes take nothing."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not getattr(settings, "ANYMAIL", {}).get("WEBHOOK_SECRET"):
            log.error("%s refused: set ANYMAIL_WEBHOOK_SECRET to receive tracking events", request.path)
            return HttpResponse("Tracking is off: no webhook secret.", status=403, content_type="text/plain")
        return view(request, *args, **kwargs)

    return csrf_exempt(wrapped)


def secret_inbound(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """With AEGEA_PRODUCTION=1 an inbound post needs ANYMAIL_WEBHOOK_SECRET (anymail then checks the
    post's basic auth): without it anymail only warns and anyone may post mails as a player's
    reply. Refused posts, not a refused start: the web still serves every game while the secret is
    set, and 503 makes the ESP keep the mail and post it again (docs/operations.md)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if getattr(settings, "PRODUCTION", False) and not getattr(settings, "ANYMAIL", {}).get(
            "WEBHOOK_SECRET"
        ):
            log.error("%s refused: set ANYMAIL_WEBHOOK_SECRET to receive inbound mail", request.path)
            return HttpResponse(
                "Inbound mail is off: no webhook secret.", status=503, content_type="text/plain"
            )
        return view(request, *args, **kwargs)

    return csrf_exempt(wrapped)


def _bounded(pattern: Any) -> Any:
    name = (pattern.name or "") if isinstance(pattern, URLPattern) else ""
    if name.endswith("_inbound_webhook"):
        inbound = secret_inbound(readable(bounded_inbound(pattern.callback)))
        return re_path(pattern.pattern.regex.pattern, inbound, name=name)
    if name.endswith("_tracking_webhook"):
        return re_path(
            pattern.pattern.regex.pattern, authenticated_tracking(readable(pattern.callback)), name=name
        )
    return pattern


urlpatterns = [_bounded(p) for p in anymail_urls.urlpatterns]
