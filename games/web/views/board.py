"""The board's helpers on the player's page (docs/i18n.md "Pages"): an order's preview as JSON.

The page's script sends an order form's own fields here (with `kind`, the form's kind; a Move
without it, as before) and shows the answer before the player submits; the engine computes it
(games/reading/previews.py). Parse, call, render.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from aegea_pbem.rate_limits import rate_limited
from games.engine import RuleViolation
from games.reading.links import LinkError
from games.reading.previews import preview_order
from games.reading.situation import load_game
from games.services.languages import page_language
from games.web.forms.kinds import FORM_BY_KIND
from games.web.seat_cookies import resolve_seat
from games.web.seat_limits import link_in_path
from games.words.order_previews import preview_text
from games.words.orders import violation_text


@never_cache
@rate_limited("links", post="orders", bucket=link_in_path)
@require_GET
def move_cost(request: HttpRequest, game_id: int, seat_id: int) -> JsonResponse:
    """`?kind=move&move-origin=C3&move-to1=E3&move-phalanxes1=4…` (an order form's fields) ->
    {"cost", "unit", "text"} or {"error", "rule"}: what the order would cost and do (S-MOVE,
    S-MOVE-ORDER, S-EXP, S-EXP-CHOICE, H-CHOICE-STEP, H-ACTIONS, H-TRADE), or why it is refused."""
    try:
        seat = resolve_seat(request, game_id, seat_id)
    except LinkError as error:
        return JsonResponse({"error": str(error.message)}, status=error.status)
    with translation.override(page_language(request, seat)):  # the page's language (docs/i18n.md)
        form_class = FORM_BY_KIND.get(request.GET.get("kind", "move"))
        if form_class is None:
            return JsonResponse({"error": _("There is no such kind of order.")}, status=400)
        state = load_game(seat.game).state
        form = form_class(request.GET, state=state, faction=seat.faction, legal=[])
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            label = form.fields[field].label if field in form.fields else ""
            return JsonResponse({"error": f"{label}: {errors[0]}" if label else errors[0]})
        try:
            preview = preview_order(state, form.command())
        except RuleViolation as violation:  # the form's fields could not be read as an order
            preview = violation
        if isinstance(preview, RuleViolation):
            return JsonResponse({"error": violation_text(preview), "rule": preview.rule})
        cost, unit = preview.cost or (0, "FP")
        fp = state.players[seat.faction].fp
        answer = {"cost": cost, "unit": unit, "have": preview.supply, "fp": fp, "text": preview_text(preview)}
        return JsonResponse(answer)
