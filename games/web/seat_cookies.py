"""The seat cookie: an emailed link's token leaves the address bar on its first visit.

A player's email links to /play/<game>/<token>/. Opening it sets a cookie holding that token
(HttpOnly, SameSite=Lax, Secure on https, its path the seat's own /play/<game>/<seat>/) and
redirects to that token-free address, so the token stops landing in access logs, Referer headers
and browser history. The token-free pages read the cookie. One cookie per seat (its name and path
carry the seat), so two seats of one game opened in one browser never act for each other.

The cookie keeps the token exactly as signed (games/reading/links.py): its age, its game and its seat's
link version are checked on every request, so revoking a seat's links revokes its cookies, and a
page never signs a fresh token (a leaked address renews nothing). The JSON API keeps its bearer
token (docs/api.md). docs/operations.md "Links and the seat cookie".

"Sign out" drops every seat cookie the browser holds (a shared device): a seat cookie is sent only
below its seat's path, never to /sign-out/, so a second cookie on "/" (`aegea_seats`, the same
flags) lists the seats whose cookies this browser was given, and sign-out deletes each of those and
of the account's own seats with the path it was set with.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from games.models import Seat
from games.reading.links import LinkError, max_age, read_link, resolve_link, seat_path

COOKIE_PREFIX = "aegea_seat_"
SEATS_HELD = "aegea_seats"  # on "/": the ids of the seats whose cookies this browser holds
SEATS_HELD_MAX = 50  # the newest; a cookie stays well under the browsers' 4 kB


def cookie_name(seat_id: int) -> str:
    return f"{COOKIE_PREFIX}{seat_id}"


def exchange_link(request: HttpRequest, game_id: int, token: str, rest: str = "") -> HttpResponse:
    """The answer to an emailed link (or to a page of it, `rest`): the seat cookie and a redirect to
    the same page without the token, or LinkError. A POST (a page opened before links were
    exchanged) is redirected with 307, which the browser sends again with its body: no order lost."""
    seat = resolve_link(token, game_id)
    path = seat_path(game_id, seat.pk)
    target = path + rest
    if request.META.get("QUERY_STRING"):
        target += "?" + request.META["QUERY_STRING"]
    response = HttpResponseRedirect(target)
    if request.method == "POST":
        response.status_code = 307
    age = int(max_age().total_seconds())
    response.set_cookie(cookie_name(seat.pk), token, max_age=age, path=path, **_flags(request))
    held = [seat.pk, *(pk for pk in _seats_held(request) if pk != seat.pk)][:SEATS_HELD_MAX]
    response.set_cookie(SEATS_HELD, ".".join(map(str, held)), max_age=age, path="/", **_flags(request))
    return response


def _flags(request: HttpRequest) -> dict[str, Any]:
    return {
        "secure": settings.SITE_URL.startswith("https://") or request.is_secure(),
        "httponly": True,
        "samesite": "Lax",
    }


def _seats_held(request: HttpRequest) -> list[int]:
    return [int(part) for part in request.COOKIES.get(SEATS_HELD, "").split(".") if part.isdigit()]


def forget_seats(request: HttpRequest, response: HttpResponse, also: Iterable[int] = ()) -> None:
    """Delete on `response` the seat cookies this browser holds (those `aegea_seats` lists, any sent
    with the request, and the seats `also`: the account's own), each with the path and flags it was
    set with, or the browser keeps it; and the list itself. Sign-out on a shared device."""
    sent = [int(name.removeprefix(COOKIE_PREFIX)) for name in request.COOKIES if _is_seat_cookie(name)]
    ids = {*_seats_held(request), *sent, *also}
    for seat_id, game_id in Seat.objects.filter(pk__in=ids).values_list("pk", "game_id"):
        _delete(request, response, cookie_name(seat_id), seat_path(game_id, seat_id))
    if SEATS_HELD in request.COOKIES:
        _delete(request, response, SEATS_HELD, "/")


def _is_seat_cookie(name: str) -> bool:
    return name.startswith(COOKIE_PREFIX) and name.removeprefix(COOKIE_PREFIX).isdigit()


def _delete(request: HttpRequest, response: HttpResponse, name: str, path: str) -> None:
    # set_cookie, not delete_cookie: the deletion carries every flag the cookie was set with
    # (delete_cookie drops Secure and HttpOnly, and an http answer may not touch a Secure cookie).
    response.set_cookie(
        name, "", max_age=0, expires="Thu, 01 Jan 1970 00:00:00 GMT", path=path, **_flags(request)
    )


def cookie_token(request: HttpRequest, seat_id: int) -> str:
    return request.COOKIES.get(cookie_name(seat_id), "")


def resolve_seat(request: HttpRequest, game_id: int, seat_id: int) -> Seat:
    """The seat whose token-free page this is, from its cookie (with its game), or LinkError: no
    cookie ("missing"; "another" when the browser holds another seat of the game, whose cookie is
    not sent to this seat's path), or the reasons of a link that opens nothing."""
    token = cookie_token(request, seat_id)
    if not token:
        held = [held for held in _seats_held(request) if held != seat_id]
        if held and Seat.objects.filter(pk__in=held, game_id=game_id).exists():
            raise LinkError("another")
        raise LinkError("missing")
    claim = read_link(token, game_id)
    if claim.seat_id != seat_id:  # a cookie is only ever set on its own seat's path
        raise LinkError("unknown")
    return resolve_link(token, game_id)


def token_of(request: HttpRequest, kwargs: dict[str, Any]) -> str:
    """The token a seat's request carries: in its address (an emailed link) or in its cookie."""
    if "token" in kwargs:
        return str(kwargs["token"])
    seat_id = kwargs.get("seat_id")
    return cookie_token(request, seat_id) if isinstance(seat_id, int) else ""
