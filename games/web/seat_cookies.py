"""The seat cookie: an emailed link's token leaves the address bar on its first visit, and the
browser is given a grant of the seat, kept by the server (games/services/seat_grants.py).

A player's email links to /play/<game>/<token>/. Opening it records a grant of the seat to this
browser, sets a cookie holding the grant's key, signed (HttpOnly, SameSite=Lax, Secure on https, its
path the seat's own /play/<game>/<seat>/) and redirects to that token-free address, so the token
stops landing in access logs, Referer headers and browser history. The token-free pages read the
cookie and admit it only while its grant is live: not revoked, not expired, its seat at the link
version it was granted under (revoking a seat's links, as a hand-over does, ends its grants). A page
never signs a fresh token (a leaked address renews nothing). One cookie per seat (its name and path
carry the seat), so two seats of one game opened in one browser never act for each other. The JSON
API keeps its bearer token (docs/api.md). docs/operations.md "Links and the seat cookie".

A seat cookie is sent only below its seat's path, never to /sign-out/, so two cookies on "/" (the
same flags) serve sign-out: `aegea_browser`, the browser's random id, which its grants record, with
the seats granted under it here (signed together), and `aegea_seats`, the seats whose cookies this
browser was given. "Sign out" revokes the browser's grants of the seats its signed cookie names (an
id planted by another signs out only its planter) and deletes each seat cookie it holds (and the
account's own seats') with the path it was set with; "Sign out everywhere", on a seat's page,
revokes every grant of that seat.
A cookie of before grants held the link's token itself: it is told apart ("outdated") and its page
says to open the emailed link once more.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from games.models import Seat
from games.reading.links import SALT as LINK_SALT
from games.reading.links import LinkError, max_age, resolve_link, seat_path
from games.services.seat_grants import (
    admitted_seat,
    grant_seat,
    live_grant_version,
    new_browser_id,
    sign_out_browser,
)

COOKIE_PREFIX = "aegea_seat_"
SEATS_HELD = "aegea_seats"  # on "/": the ids of the seats whose cookies this browser holds
SEATS_HELD_MAX = 50  # the newest; a cookie stays well under the browsers' 4 kB
BROWSER = "aegea_browser"  # on "/": this browser's id, which its grants record (sign-out ends them)
GRANT_SALT = "aegeapolis.games.seat-grant"
BROWSER_SALT = "aegeapolis.games.browser"


def cookie_name(seat_id: int) -> str:
    return f"{COOKIE_PREFIX}{seat_id}"


def grant_cookie_value(key: str) -> str:
    """A seat cookie's value: the grant's key, signed (games/services/seat_grants.py)."""
    return signing.dumps(key, salt=GRANT_SALT, compress=False)


def exchange_link(request: HttpRequest, game_id: int, token: str, rest: str = "") -> HttpResponse:
    """The answer to an emailed link (or to a page of it, `rest`): a grant of the seat to this
    browser, its cookie and a redirect to the same page without the token, or LinkError. A POST (a
    page opened before links were exchanged) is redirected with 307, which the browser sends again
    with its body: no order lost."""
    seat = resolve_link(token, game_id)
    path = seat_path(game_id, seat.pk)
    target = path + rest
    if request.META.get("QUERY_STRING"):
        target += "?" + request.META["QUERY_STRING"]
    response = HttpResponseRedirect(target)
    if request.method == "POST":
        response.status_code = 307
    browser, granted = browser_grants(request)
    browser = browser or new_browser_id()
    key = grant_seat(seat, browser)
    # The seats granted under this id in this browser, signed with it: sign-out revokes those alone,
    # so an id planted in a victim's browser lets its planter sign out nobody but themself.
    granted = [seat.pk, *(pk for pk in granted if pk != seat.pk)][:SEATS_HELD_MAX]
    age = int(max_age().total_seconds())
    flags = _flags(request)
    response.set_cookie(cookie_name(seat.pk), grant_cookie_value(key), max_age=age, path=path, **flags)
    signed_browser = signing.dumps([browser, granted], salt=BROWSER_SALT, compress=False)
    response.set_cookie(BROWSER, signed_browser, max_age=age, path="/", **flags)
    held = [seat.pk, *(pk for pk in _seats_held(request) if pk != seat.pk)][:SEATS_HELD_MAX]
    response.set_cookie(SEATS_HELD, ".".join(map(str, held)), max_age=age, path="/", **flags)
    return response


def _flags(request: HttpRequest) -> dict[str, Any]:
    return {
        "secure": settings.SITE_URL.startswith("https://") or request.is_secure(),
        "httponly": True,
        "samesite": "Lax",
    }


def _seats_held(request: HttpRequest) -> list[int]:
    return [int(part) for part in request.COOKIES.get(SEATS_HELD, "").split(".") if part.isdigit()]


def browser_grants(request: HttpRequest) -> tuple[str, list[int]]:
    """This browser's id and the seats granted to it under that id, from its signed `aegea_browser`
    cookie (("", []) if it has none, or a forged or older one)."""
    try:
        value = signing.loads(request.COOKIES.get(BROWSER, ""), salt=BROWSER_SALT, max_age=max_age())
    except signing.BadSignature:
        return "", []
    match value:
        case [str(browser), list(seats)] if all(isinstance(pk, int) for pk in seats):
            return browser, seats
    return "", []


def forget_seats(request: HttpRequest, response: HttpResponse, also: Iterable[int] = ()) -> None:
    """Sign-out on a shared device: revoke this browser's grants, and delete on `response` the seat
    cookies it holds (those `aegea_seats` lists, any sent with the request, and the seats `also`:
    the account's own), each with the path and flags it was set with, or the browser keeps it; and
    the two cookies on "/"."""
    browser, granted = browser_grants(request)
    if browser:
        sign_out_browser(browser, granted)
    sent = [int(name.removeprefix(COOKIE_PREFIX)) for name in request.COOKIES if _is_seat_cookie(name)]
    ids = {*_seats_held(request), *sent, *also}
    for seat_id, game_id in Seat.objects.filter(pk__in=ids).values_list("pk", "game_id"):
        _delete(request, response, cookie_name(seat_id), seat_path(game_id, seat_id))
    for name in (SEATS_HELD, BROWSER):
        if name in request.COOKIES:
            _delete(request, response, name, "/")


def forget_seat(request: HttpRequest, response: HttpResponse, seat: Seat) -> None:
    """Delete on `response` this browser's cookie of `seat` (its grant has ended)."""
    _delete(request, response, cookie_name(seat.pk), seat_path(seat.game_id, seat.pk))


def _is_seat_cookie(name: str) -> bool:
    return name.startswith(COOKIE_PREFIX) and name.removeprefix(COOKIE_PREFIX).isdigit()


def _delete(request: HttpRequest, response: HttpResponse, name: str, path: str) -> None:
    # set_cookie, not delete_cookie: the deletion carries every flag the cookie was set with
    # (delete_cookie drops Secure and HttpOnly, and an http answer may not touch a Secure cookie).
    response.set_cookie(
        name, "", max_age=0, expires="Thu, 01 Jan 1970 00:00:00 GMT", path=path, **_flags(request)
    )


def _grant_key(value: str) -> str:
    """The grant key a seat cookie's value carries, or LinkError: "grant_expired" past its age,
    "outdated" for a cookie of before grants (a link's token), "forged" for anything else."""
    try:
        key = signing.loads(value, salt=GRANT_SALT, max_age=max_age())
    except signing.SignatureExpired:
        raise LinkError("grant_expired") from None
    except signing.BadSignature:
        raise LinkError("outdated" if _was_a_link_token(value) else "forged") from None
    if not isinstance(key, str):
        raise LinkError("forged")
    return key


def _was_a_link_token(value: str) -> bool:
    try:
        signing.loads(value, salt=LINK_SALT)
    except signing.BadSignature:
        return False
    return True


def resolve_seat(request: HttpRequest, game_id: int, seat_id: int) -> Seat:
    """The seat whose token-free page this is, from its cookie's live grant (with its game), or
    LinkError: no cookie ("missing"; "another" when the browser holds another seat of the game,
    whose cookie is not sent to this seat's path), or why its grant admits nobody."""
    value = request.COOKIES.get(cookie_name(seat_id), "")
    if not value:
        held = [held for held in _seats_held(request) if held != seat_id]
        if held and Seat.objects.filter(pk__in=held, game_id=game_id).exists():
            raise LinkError("another")
        raise LinkError("missing")
    return admitted_seat(_grant_key(value), game_id, seat_id)


def cookie_grant_version(request: HttpRequest, game_id: int, seat_id: int) -> int | None:
    """The link version of the seat whose live grant this request's seat cookie carries, else None
    (its rate-limit bucket: games/web/seat_limits.py)."""
    try:
        key = _grant_key(request.COOKIES.get(cookie_name(seat_id), ""))
    except LinkError:
        return None
    return live_grant_version(key, game_id, seat_id)
