"""Signed per-player links: the only key a player needs (docs/order-loop.md "Links").

A link token is `django.core.signing.dumps` of (game id, seat id, seat link version) with a
salt of its own and a timestamp. It cannot be forged without SECRET_KEY, it expires after
LINK_MAX_AGE, it opens only its own game and seat, and raising the seat's `token_version`
revokes every link issued before.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.db.models import F
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from aegea_pbem.sql_selects import rows_with_related
from games.models import Seat

SALT = "aegeapolis.games.seat-link"
DEFAULT_MAX_AGE = timedelta(days=30)


class LinkError(Exception):
    """A link that opens nothing. `status` is the HTTP status to answer with; `reason` says why."""

    REASONS = {
        "forged": (403, _("This link is not valid. Please use the link from your latest email.")),
        "expired": (403, _("This link has expired. The next email about this game brings a fresh one.")),
        "revoked": (403, _("This link has been withdrawn by the organiser.")),
        "unknown": (404, _("This link does not belong to this game.")),
        # A link we signed whose seat is not in its game any more: the game was deleted.
        "gone": (404, _("This game no longer exists on this server.")),
        # A token-free page without its seat cookie (games/web/seat_cookies.py): another browser, or
        # cookies refused.
        "missing": (
            403,
            _(
                "This page opens from the link in your email. Please open that link again;"
                " your browser must accept cookies from this site."
            ),
        ),
        # The same, where this browser holds another seat of the game: its player opened a rival's
        # address (a seat's page is its own player's alone, H-SCREEN), and their cookies are fine.
        "another": (
            403,
            _(
                "This page is another player's seat in this game: only the link in their email opens it."
                " Your own page opens from the link in your email."
            ),
        ),
        # A seat cookie whose grant was revoked (games/services/seat_grants.py): this browser signed
        # out, or the player signed every browser out of the seat.
        "signed_out": (
            403,
            _("This browser was signed out of this seat. The link in your email opens it again."),
        ),
        "grant_expired": (
            403,
            _(
                "This browser's sign-in to this seat has expired."
                " The link in your latest email opens it again."
            ),
        ),
        # A seat cookie of before grants: it held the link's token, which no page accepts any more.
        "outdated": (
            403,
            _(
                "This site now keeps track of the browsers that open a seat, so the key this browser"
                " kept from before no longer opens it. Please open the link in your email once more."
            ),
        ),
    }

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.status, self.message = self.REASONS[reason]
        super().__init__(reason)


def max_age() -> timedelta:
    return getattr(settings, "LINK_MAX_AGE", DEFAULT_MAX_AGE)


def link_token(seat: Seat) -> str:
    """The signed token naming this seat of this game at its current link version."""
    payload = {"g": seat.game_id, "s": seat.pk, "v": seat.token_version}
    return signing.dumps(payload, salt=SALT, compress=False)


def seat_url(seat: Seat, token: str | None = None) -> str:
    """The absolute URL of the seat's player page (for emails and the command line)."""
    path = reverse("games:play", args=[seat.game_id, token or link_token(seat)])
    return f"{settings.SITE_URL}{path}"


@dataclass(frozen=True)
class LinkClaim:
    """What a token's signature vouches for: a seat of a game at a link version. Whether that seat
    is still in the game at that version is for the database to say (`seat_claimed`)."""

    game_id: int
    seat_id: int
    version: int


def read_link(token: str, game_id: int) -> LinkClaim:
    """The claim of a token for game `game_id` (its signature, age and game checked, no query), or
    LinkError saying why it opens nothing."""
    try:
        payload: Any = signing.loads(token, salt=SALT, max_age=max_age())
    except signing.SignatureExpired:
        raise LinkError("expired") from None
    except signing.BadSignature:
        raise LinkError("forged") from None
    if not isinstance(payload, dict) or not all(isinstance(payload.get(k), int) for k in "gsv"):
        raise LinkError("forged")
    if payload["g"] != game_id:
        raise LinkError("unknown")
    return LinkClaim(payload["g"], payload["s"], payload["v"])


def seat_claimed(claim: LinkClaim, seats: Iterable[Seat]) -> Seat:
    """The claimed seat among the game's `seats`, or LinkError: not there (its game was deleted: a
    seat never leaves a game otherwise), or its links revoked."""
    seat = next((seat for seat in seats if seat.pk == claim.seat_id and seat.game_id == claim.game_id), None)
    if seat is None:
        raise LinkError("gone")
    if seat.token_version != claim.version:
        raise LinkError("revoked")
    return seat


def resolve_link(token: str, game_id: int) -> Seat:
    """The seat a token opens in game `game_id` (with its game), or LinkError saying why it opens nothing."""
    claim = read_link(token, game_id)
    # Every API call and opened link runs this: SQL written once (aegea_pbem/sql_selects.py).
    return seat_claimed(claim, rows_with_related(Seat, "game", ["pk", "game"], [claim.seat_id, game_id]))


def revoke_links(seat: Seat) -> None:
    """Withdraw every link issued to `seat` so far; its next email carries a new one."""
    Seat.objects.filter(pk=seat.pk).update(token_version=F("token_version") + 1)
    seat.refresh_from_db(fields=["token_version"])


def bearer_token(request: HttpRequest) -> str:
    """The link token a program sends: `Authorization: Bearer <token>`, or `?token=` ("" if neither)."""
    # META, not request.headers: that builds a map of every header, for one (~1% of an API order).
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if header.startswith("Bearer "):
        return header.removeprefix("Bearer ").strip()
    return request.GET.get("token", "")


def seat_path(game_id: int, seat_id: int) -> str:
    """The token-free address of a seat's page; every page of the seat lies below it."""
    return reverse("games:seat", args=[game_id, seat_id])
