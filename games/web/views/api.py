"""The JSON API for a player's own programs (docs/order-loop.md), authenticated by the seat's signed token.

`Authorization: Bearer <token>` (or `?token=`). CSRF does not apply: no cookie authenticates
these requests, only the token, which a cross-site page cannot read.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from aegea_pbem.rate_limits import rate_limited
from games.engine import RuleViolation
from games.models import Seat
from games.reading.links import LinkError, bearer_token, read_link, resolve_link
from games.reading.situation import player_screen
from games.services.orders import GameEnded, GameMovedOn, OrderAlreadyGiven, submit_linked_order
from games.web.seat_limits import link_in_header
from games.words.narration import tell
from games.words.orders import violation_text

NOT_A_SEQ = gettext_lazy("expected_seq must be a whole number.")
MALFORMED = gettext_lazy('Send {"expected_seq": n, "command": {...}} as JSON.')


def _seat(request: HttpRequest, game_id: int) -> Seat | JsonResponse:
    try:
        return resolve_link(bearer_token(request), game_id)
    except LinkError as error:
        return _link_error(error)


def _link_error(error: LinkError) -> JsonResponse:
    return JsonResponse({"error": {"code": error.reason, "message": str(error.message)}}, status=error.status)


def _error(status: int, code: str, message: str, rule: str | None = None) -> JsonResponse:
    body: dict[str, Any] = {"code": code, "message": message}
    if rule:
        body["rule"] = rule
    return JsonResponse({"error": body}, status=status)


@never_cache
@rate_limited("links", bucket=link_in_header)
@require_GET
def state(request: HttpRequest, game_id: int) -> JsonResponse:
    """The player's view of the game (H-SCREEN), who must act and the orders legal for them now."""
    seat = _seat(request, game_id)
    if isinstance(seat, JsonResponse):
        return seat
    with translation.override(seat.language):
        screen = player_screen(seat.game, seat.faction)
        return JsonResponse(
            {
                "game": game_id,
                "faction": seat.faction,
                "seq": screen.seq,
                "year": screen.state.year,
                "phase": screen.state.phase,
                "must_act": screen.must_act,
                "whose_turn": screen.whose_turn,
                "happenings": screen.happenings,
                "legal_commands": [c.to_dict() for c in screen.legal],
                "view": screen.view,
            }
        )


@never_cache
@csrf_exempt
@rate_limited("orders", bucket=link_in_header)
@require_POST
def orders(request: HttpRequest, game_id: int) -> JsonResponse:
    """Submit one order: {"expected_seq": n, "command": {"kind": ..., ...}}; the player is the token's."""
    token = bearer_token(request)
    try:
        claim = read_link(token, game_id)  # the signature; the seat is checked with the game's lock
    except LinkError as error:
        return _link_error(error)
    try:
        body = json.loads(request.body)
        expected_seq = body["expected_seq"]
        raw = dict(body["command"])
    except (ValueError, KeyError, TypeError, RecursionError):  # RecursionError: JSON nested too deep
        return _in_seat_language(request, game_id, 400, "malformed", MALFORMED)
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int):
        return _in_seat_language(request, game_id, 400, "malformed", NOT_A_SEQ)
    try:
        seat, result = submit_linked_order(claim, raw, expected_seq)
    except LinkError as error:
        return _link_error(error)
    except OrderAlreadyGiven as given:
        return _already_given(request, game_id, given)
    except GameEnded as ended:  # H-END: not "re-order": an ended game looks at no order any more
        return _in_seat_language(request, game_id, 409, "ended", ended.message)
    except GameMovedOn as moved:
        return _in_seat_language(request, game_id, 409, "moved_on", moved.message)
    except RuleViolation as violation:
        return _in_seat_language(request, game_id, 400, "rule_violation", violation)
    with translation.override(seat.language):
        return JsonResponse(
            {
                "seq": result.seq,
                "events": [{"seq": e.seq, "type": e.type} for e in result.events],
                "happened": tell(
                    result.events, seat.faction, result.state.phase == "ended", game=seat.game_id
                ),
            },
            status=201,
        )


def _already_given(request: HttpRequest, game_id: int, given: OrderAlreadyGiven) -> JsonResponse:
    """H-ORDER: a retried order is answered as done (200, not 201: nothing new was written), with the
    seq of the order's OrderGiven, so a client that lost the first answer may safely send again."""
    seat = _seat(request, game_id)
    if isinstance(seat, JsonResponse):
        return seat
    with translation.override(seat.language):
        body = {"already_accepted": True, "order_seq": given.order_seq, "message": str(given.message)}
        return JsonResponse(body, status=200)


def _in_seat_language(
    request: HttpRequest, game_id: int, status: int, code: str, message: str | Promise | RuleViolation
) -> JsonResponse:
    """A refused order's answer, in its seat's language: read here, since a refused order's
    transaction (which read the seat with the game's lock) was rolled back."""
    seat = _seat(request, game_id)
    if isinstance(seat, JsonResponse):
        return seat
    with translation.override(seat.language):
        if isinstance(message, RuleViolation):
            return _error(status, code, violation_text(message), message.rule)
        return _error(status, code, str(message))
