"""The board's helpers on the player's page (docs/i18n.md "Pages"): the Move cost preview as JSON.

The page's script sends the Move form's own fields here and shows the answer before the
player submits; the engine computes it (games/reading/previews.py). Parse, call, render.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from aegea_pbem.rate_limits import rate_limited
from games.engine import RuleViolation
from games.reading.links import LinkError
from games.reading.previews import preview_move_cost
from games.reading.situation import load_game
from games.services.languages import page_language
from games.web.forms.orders import MoveForm
from games.web.seat_cookies import resolve_seat
from games.web.seat_limits import link_in_path
from games.words.orders import violation_text


@rate_limited("links", post="orders", bucket=link_in_path)
@require_GET
def move_cost(request: HttpRequest, game_id: int, seat_id: int) -> JsonResponse:
    """`?move-origin=C3&move-to1=E3&move-phalanxes1=4…` (the Move form's fields) -> {"cost", "text"} or
    {"error"}: what the Move would cost in FP (S-MOVE, S-MOVE-FREE, S-MOVE-NAV) or why it is refused."""
    try:
        seat = resolve_seat(request, game_id, seat_id)
    except LinkError as error:
        return JsonResponse({"error": str(error.message)}, status=error.status)
    with translation.override(page_language(request, seat)):  # the page's language (docs/i18n.md)
        state = load_game(seat.game).state
        form = MoveForm(request.GET, state=state, faction=seat.faction, legal=[])
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            label = form.fields[field].label if field in form.fields else ""
            return JsonResponse({"error": f"{label}: {errors[0]}" if label else errors[0]})
        try:
            cost = preview_move_cost(state, form.command())
        except RuleViolation as violation:  # the form's fields could not be read as an order
            cost = violation
        if isinstance(cost, RuleViolation):
            return JsonResponse({"error": violation_text(cost), "rule": cost.rule})
        fp = state.players[seat.faction].fp
        text = _("This move costs %(cost)d FP (you have %(fp)d FP).") % {"cost": cost, "fp": fp}
        return JsonResponse({"cost": cost, "fp": fp, "text": text})
