"""Rate-limit buckets of seats (aegea_pbem/rate_limits.py): a request with a valid link token spends
its seat's own allowance, not its client address's, so junk from a shared address (a reverse
proxy, a stranger on the same network) cannot lock a player out, and nobody without the token can
spend it. Messages made from email replies spend the same seat's "orders" allowance as the page's
message form (send_mailed_message in games/services/messages.py; docs/operations.md "Behind a reverse
proxy").
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.reading.links import LinkError, bearer_token, read_link
from games.services.messages import seat_bucket
from games.web.seat_cookies import token_of


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
    (/play/<game_id>/<token>/), or the seat cookie of /play/<game_id>/<seat_id>/..."""
    return _bucket_of(token_of(request, kwargs), kwargs.get("game_id"), kwargs.get("seat_id"))


def link_in_header(request: HttpRequest, kwargs: dict[str, Any]) -> str | None:
    """The bucket of the JSON API and the export: the Bearer token or ?token=."""
    return _bucket_of(bearer_token(request), kwargs.get("game_id"))
