"""Rate-limit buckets of seats (aegea_pbem/rate_limits.py): a request with a valid link token spends
its seat's own allowance, not its client address's, so junk from a shared address (a reverse
proxy, a stranger on the same network) cannot lock a player out, and nobody without the token can
spend it. Messages made from email replies spend the same seat's "orders" allowance as the page's
message form (docs/operations.md "Behind a reverse proxy").
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from aegea_pbem.rate_limits import spend

from .links import LinkError, bearer_token, read_link
from .mail_keys import Reply
from .messages import MessageRefused, send_message
from .models import Event, Seat
from .relay import reply_text_for_rivals
from .seat_cookies import token_of


def seat_bucket(game_id: int, seat_id: int, version: int) -> str:
    """A seat's bucket at a link version: a revoked link's holder spends the old version's, not the
    seat's new one."""
    return f"seat:{game_id}:{seat_id}:{version}"


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


def send_mailed_message(seat: Seat, to: str | list[str], text: str, answered: Reply | None = None) -> Event:
    """`send_message` for a message written in an email reply, within the seat's "orders" limit:
    over it, MessageRefused (the reply's answer says so) and nothing is created. `answered`: what
    the reply's address is for, naming the email whose lines it must not relay (games/relay.py)."""
    wait = spend("orders", seat_bucket(seat.game_id, seat.pk, seat.token_version))
    if wait:
        raise MessageRefused(
            _(
                "You have sent many messages in a short time, so this one was not sent."
                " Please wait %(seconds)s seconds, then send it again."
            )
            % {"seconds": wait}
        )
    return send_message(seat, to, reply_text_for_rivals(seat, text, answered))
