"""Rate limits on the views that take orders, open links, sign in and mail: django-ratelimit counts.

Each limited view carries `@rate_limited(kind, post=kind)`: which limit of settings.RATE_LIMITS
("orders", "links", "logins", "newlinks", ...: (requests, seconds)) a request spends, by
its method. What it spends is a *bucket*: a seat's own bucket when the request carries a valid
link token for it (games/web/seat_limits.py tells), else the client's address. So junk from one
address limits that address only, and no stranger can spend a player's allowance. An empty
RATE_LIMITS (RATE_LIMITS=off) turns limiting off. docs/operations.md "Behind a reverse proxy".

A form that mails the address it is given (a sign-in link, a password reset) spends three buckets
in turn (`mailing_an_address`): that address from this client ("mailbox"), this client ("signins",
"resets"), and that address from every client ("mailbox_day", a ceiling against mail-bombing it).
Each is spent only when the ones before let the request through, so a stranger's asks spend the
stranger's own allowances, never the owner's from another client, and the address's ceiling counts
only emails that were sent. A browser that signed in with a link for the address before is not
held to the ceiling (`remember_mailbox`): strangers, however many, cannot lock the owner out of
their own browser (docs/front-door.md "Sign-in").

The client's address is REMOTE_ADDR, unless that peer is one of TRUSTED_PROXIES: then the
right-most X-Forwarded-For entry that is not itself a trusted proxy (each proxy appends the
address it was connected from, so entries left of the first untrusted one are the client's own
say and may be forged).

django-ratelimit (its `get_usage`) does the counting: fixed windows in the "ratelimit" cache
(Redis when REDIS_URL is set, shared by every web process), keys hashed. Its `@ratelimit`
decorator is not used as it stands, for two reasons: it raises `Ratelimited` (a 403 unless its
middleware turns it into a page) without the seconds left, so no `Retry-After`; and with Redis
down it fails the request even with RATELIMIT_FAIL_OPEN=True: its `cache.add` catches only
socket.gaierror (measured: a view under `@ratelimit(key="ip", rate="1/m")` with the cache at
redis://127.0.0.1:1 raised redis.exceptions.ConnectionError, a 500 page), where `spend` below
lets requests through and logs a warning
(tests/reliability/test_security.py, the cache-unavailable test).
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

log = logging.getLogger(__name__)

IPv4Or6 = ipaddress.IPv4Address | ipaddress.IPv6Address
# A bucket chooser: the view's request and URL keyword arguments -> a bucket name, or None for the
# client's address. games/web/seat_limits.py has the seat's choosers.
Bucket = Callable[[HttpRequest, dict[str, Any]], str | None]
# A bucket chooser of the request alone (e.g. the email address a reset is asked for), or None:
# that bucket is not spent.
Chooser = Callable[[HttpRequest], str | None]


def _address(text: str) -> IPv4Or6 | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _trusted(address: IPv4Or6) -> bool:
    return any(address in network for network in getattr(settings, "TRUSTED_PROXIES", ()))


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or, from a trusted proxy, the right-most X-Forwarded-For
    entry that is not a trusted proxy. An entry that is no address stops the walk at the hop before
    it (the nearest proxy that wrote a true one), so garbage cannot choose a bucket of its own."""
    peer = request.META.get("REMOTE_ADDR", "")
    address = _address(peer)
    if address is None or not _trusted(address):
        return peer
    for entry in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        hop = _address(entry)
        if hop is None:
            break
        address = hop
        if not _trusted(hop):
            break
    return str(address)


def address_bucket(address: str) -> str:
    """The bucket of a client address: the address itself, an IPv6 client's /64 (one host's
    usual share, which it could otherwise walk through address by address)."""
    parsed = _address(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        return "ip:" + str(ipaddress.IPv6Network(f"{parsed}/64", strict=False).network_address)
    return f"ip:{address}"


def spend(kind: str, bucket: str) -> int | None:
    """Count one request of `kind` against `bucket`: None while within the limit (or no limit is set,
    or the cache is unavailable: then nobody is limited rather than everybody refused), else the
    seconds until the window ends."""
    limits = getattr(settings, "RATE_LIMITS", {})
    if kind not in limits:
        return None
    try:
        usage = get_usage(None, group=kind, key=lambda *_: bucket, rate=limits[kind], increment=True)
    except Exception as exc:  # noqa: BLE001  (any cache backend's connection error)
        log.warning("rate limit not counted: cache unavailable (%s)", type(exc).__name__)
        return None
    if usage is None or not usage["should_limit"] or usage["limit"] == 0:  # limit 0: the cache failed
        return None
    return max(1, usage["time_left"])


# A view's own answer to a refused request: (request, seconds to wait, kind) -> its page, which is
# sent with status 429 and Retry-After (e.g. the sign-in page saying what was refused).
Refused = Callable[[HttpRequest, int, str], HttpResponse]


def rate_limited(
    kind: str | None,
    post: str | None = None,
    bucket: Bucket | None = None,
    refused: Refused | None = None,
    posts: Sequence[tuple[str, Chooser]] = (),
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view's limit: POSTs spend `post` (if given), other methods `kind` (None: not limited), in
    `bucket`'s answer or the client's address. `posts`, instead of `post`: the (kind, chooser)
    pairs a POST spends in turn, each only if the ones before let it through. A refused request is
    answered by `refused` if given (with the kind that refused it), else by `too_many`'s page."""

    def spends(request: HttpRequest, kwargs: dict[str, Any]) -> list[tuple[str, str]]:
        if posts and request.method == "POST":
            return [(spent, name) for spent, choose in posts if (name := choose(request))]
        spent = post if post and request.method == "POST" else kind
        if not spent:
            return []
        return [(spent, (bucket(request, kwargs) if bucket else None) or client_bucket(request))]

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if getattr(settings, "RATE_LIMITS", {}):
                for spent, name in spends(request, kwargs):
                    if wait := spend(spent, name):
                        if refused is None:
                            return too_many(request, wait, spent)
                        response = refused(request, wait, spent)
                        response.status_code = 429
                        response["Retry-After"] = str(wait)
                        return response
            return view(request, *args, **kwargs)

        return limited

    return decorator


def client_bucket(request: HttpRequest) -> str:
    """The bucket of the request's client (its address, behind TRUSTED_PROXIES the forwarded one)."""
    return address_bucket(client_address(request))


def asked_mailbox(request: HttpRequest) -> str | None:
    """The bucket of the address a sign-in link or a password reset is asked for (the form's
    `email`, as Django compares it), whoever asks."""
    email = request.POST.get("email", "").strip().lower()
    return f"mailbox:{email}" if email else None


def asked_mailbox_from_client(request: HttpRequest) -> str | None:
    """The bucket of the address asked for by this client only: a stranger's asks for it spend the
    stranger's, not the owner's."""
    mailbox = asked_mailbox(request)
    return f"{mailbox}|{client_bucket(request)}" if mailbox else None


def asked_mailbox_by_a_stranger(request: HttpRequest) -> str | None:
    """The address's bucket, unless this browser signed in with it before (`remember_mailbox`):
    then None, and the address's ceiling is neither spent nor asked."""
    mailbox = asked_mailbox(request)
    if mailbox and _mark(mailbox) in request.COOKIES.get(KNOWN_MAILBOXES, "").split("."):
        return None
    return mailbox


def mailing_an_address(client_kind: str) -> list[tuple[str, Chooser]]:
    """What a form that mails the address it is given spends, in turn (the module's docstring):
    the address from this client, this client (`client_kind`, its allowance shared by everyone
    behind its address, a household's NAT), then the address's own ceiling."""
    return [
        ("mailbox", asked_mailbox_from_client),
        (client_kind, client_bucket),
        ("mailbox_day", asked_mailbox_by_a_stranger),
    ]


# The addresses a browser signed in with by an emailed link, as keyed marks (never the address: on
# a shared device the cookie tells nobody who signed in), newest first.
KNOWN_MAILBOXES = "aegea_known_mailboxes"
KNOWN_MAILBOXES_MAX = 5
KNOWN_MAILBOXES_DAYS = 365


def _mark(mailbox: str) -> str:
    return salted_hmac("aegea.rate_limits.known_mailbox", mailbox).hexdigest()[:20]


def remember_mailbox(request: HttpRequest, response: HttpResponse, email: str) -> None:
    """Mark on `response` that this browser signed in with `email` (a sign-in link spent): its
    later asks for that address are not held to the address's ceiling, which strangers may spend."""
    mark = _mark(f"mailbox:{email.strip().lower()}")
    held = [m for m in request.COOKIES.get(KNOWN_MAILBOXES, "").split(".") if m and m != mark]
    response.set_cookie(
        KNOWN_MAILBOXES,
        ".".join([mark, *held][:KNOWN_MAILBOXES_MAX]),
        max_age=KNOWN_MAILBOXES_DAYS * 86400,
        path="/",
        secure=settings.SITE_URL.startswith("https://") or request.is_secure(),
        httponly=True,
        samesite="Lax",
    )


def too_many(request: HttpRequest, retry_after: int, kind: str) -> HttpResponse:
    """The 429 answer in the reader's browser language: JSON for the API, the export and the Move
    cost preview (its script shows {"error": text} as it is), else the page saying what was not done."""
    with translation.override(translation.get_language_from_request(request)):
        message = _("Too many requests. Please wait %(seconds)s seconds and try again.") % {
            "seconds": retry_after
        }
        path = request.path_info
        if path.endswith("/move-cost"):
            response: HttpResponse = JsonResponse({"error": message}, status=429)
        elif path.startswith("/api/") or path.endswith("/export.json"):
            response = JsonResponse({"error": {"code": "rate_limited", "message": message}}, status=429)
        else:
            response = render(request, "429.html", {"message": message, "kind": kind}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
