"""Rate-limit buckets of seats (aegea_pbem/rate_limits.py): a request with a valid link token, or with
a seat cookie whose grant is live (games/web/seat_cookies.py), spends its seat's own allowance, not
its client address's, so junk from a shared address (a reverse proxy, a stranger on the same
network) cannot lock a player out, and nobody without the token or a live grant can spend it.
Messages made from email replies spend the same seat's "orders" allowance as the page's message form
(send_mailed_message in games/services/messages.py; docs/operations.md "Behind a reverse proxy").
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.reading.links import LinkError, bearer_token, read_link
from games.services.messages import seat_bucket
from games.web.seat_cookies import cookie_grant_version


def _bucket_of(token: str, game_id: Any, seat_id: Any = None) -> str | None:
    """The bucket of a token valid for the game (and the seat, if the address names one: its
    signature, age and game, no query), else None."""
    try:
        claim = read_link(token, int(game_id))
    except (LinkError, TypeError, ValueError):
        return None
    if seat_id is not None and claim.seat_id != seat_id:
        return None
    return seat_bucket(claim.game_id, claim.seat_id, claim.version)


def link_in_path(request: HttpRequest, kwargs: dict[str, Any]) -> str | None:
    """The bucket of a seat's pages: the emailed link's token in the address
    (/play/<game_id>/<token>/), or the seat cookie of /play/<game_id>/<seat_id>/... while its grant
    is live (a query: a signed-out browser's copy of the cookie spends its own address's allowance)."""
    game_id, seat_id = kwargs.get("game_id"), kwargs.get("seat_id")
    if "token" in kwargs:
        return _bucket_of(str(kwargs["token"]), game_id)
    if not isinstance(game_id, int) or not isinstance(seat_id, int):
        return None
    version = cookie_grant_version(request, game_id, seat_id)
    return None if version is None else seat_bucket(game_id, seat_id, version)


def link_in_header(request: HttpRequest, kwargs: dict[str, Any]) -> str | None:
    """The bucket of the JSON API and the export: the Bearer token or ?token=."""
    return _bucket_of(bearer_token(request), kwargs.get("game_id"))
