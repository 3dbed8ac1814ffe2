"""The player's page at its token-free address, opened by the seat cookie the emailed link left
(games/web/seat_cookies.py). Parse, call, render."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from aegea_pbem.rate_limits import rate_limited
from games.board import render_board
from games.engine import RuleViolation
from games.engine.board import COLUMNS, ROWS
from games.engine.state import GameState
from games.models import Seat
from games.reading.links import LinkError
from games.reading.log_head import log_head
from games.reading.organiser_watch import result_text
from games.reading.previews import order_cost, stands_if_given
from games.reading.scoreboard import scored_in
from games.reading.situation import PlayerScreen, player_screen
from games.services.languages import choose_language, chosen_text, language_switch, page_language
from games.services.orders import GameMovedOn, OrderAlreadyGiven, submit_order
from games.web.forms.kinds import bound_order_form, order_forms, refilled_order_form, suggested_order
from games.web.forms.orders import OrderForm
from games.web.forms.table import NewLinkForm
from games.web.page_context import page_context
from games.web.seat_cookies import resolve_seat
from games.web.seat_limits import link_in_path
from games.web.table_context import long_game_context
from games.web.take_back_context import take_back_context
from games.web.views import take_back
from games.words.board_names import tile_name
from games.words.names import coins_text, faction_name
from games.words.narration import tell
from games.words.orders import command_label, violation_text
from games.words.position import PRICED_KINDS, cost_line
from games.words.trade import hand_rows, offer_rows

SUGGESTIONS_SHOWN = 12


def link_error_page(request: HttpRequest, error: LinkError) -> HttpResponse:
    """A clear page for a link that opens nothing (forged, expired, revoked, another game's, a
    deleted game's), offering to email a new link (games/services/fresh_links.py)."""
    context = {"error": error, "form": NewLinkForm()}
    return render(request, "games/link_error.html", context, status=error.status)


@never_cache
@rate_limited("links", post="orders", bucket=link_in_path)
@require_http_methods(["GET", "POST"])
def player_page(request: HttpRequest, game_id: int, seat_id: int) -> HttpResponse:
    try:
        seat = resolve_seat(request, game_id, seat_id)
    except LinkError as error:
        return link_error_page(request, error)
    if request.method == "POST" and request.POST.get("kind") == "language":
        return _choose_language(request, seat)
    language = page_language(request, seat)
    with translation.override(language):
        if request.method == "POST" and request.POST.get("kind") == take_back.KIND:  # H-TAKEBACK
            return take_back.take_back(request, seat)
        screen = player_screen(seat.game, seat.faction)
        forms = order_forms(screen.state, seat.faction, screen.legal)
        status = 200
        if request.method == "POST":
            outcome = _submit(request, seat, screen, forms)
            if outcome is None:  # the confirmation, at the top of the page (not the form's #details-…)
                return redirect(request.path + "#main")
            status = outcome
            if status == 409:
                screen = player_screen(seat.game, seat.faction)
                forms = order_forms(screen.state, seat.faction, screen.legal)
                posted = refilled_order_form(request.POST, screen.state, seat.faction, screen.legal)
                if posted is not None:  # the page opens at its #details-…: say it there too (a phone)
                    posted.order_error = str(GameMovedOn.message)  # not ended: it offers this form
                    forms[posted.kind] = posted
        response = render(request, "games/player.html", _context(seat, screen, forms), status=status)
        response["Content-Language"] = language
        return response


def _choose_language(request: HttpRequest, seat: Seat) -> HttpResponse:
    """The player's language for their pages and emails (docs/i18n.md), then the page again, which
    confirms it in that language."""
    code = request.POST.get("language", "")
    try:
        choose_language(seat, code)
    except ValueError:
        with translation.override(page_language(request, seat)):
            messages.error(request, _("Choose one of the languages offered."))
    else:
        messages.success(request, chosen_text(code))
    return redirect(request.path)


def _submit(
    request: HttpRequest, seat: Seat, screen: PlayerScreen, forms: dict[str, OrderForm]
) -> int | None:
    """Submit the posted order; None on success, else the status of the page showing the error."""
    form: OrderForm | None = None
    try:
        expected_seq = int(request.POST.get("expected_seq", ""))
    except ValueError:
        messages.error(request, _("The order could not be read. Please use the form."))
        return 400
    try:
        if request.POST.get("kind") == "suggested":
            command = suggested_order(request.POST, seat.faction)
        else:
            form = bound_order_form(request.POST, screen.state, seat.faction, screen.legal)
            if form is None:
                raise RuleViolation(
                    "H-ORDER", "Unknown kind of order: %(kind)s.", kind=request.POST.get("kind")
                )
            forms[form.kind] = form
            if not form.is_valid():
                return 400
            command = form.command()
        result = submit_order(seat.game, seat, command, expected_seq)
    except OrderAlreadyGiven as given:
        messages.info(request, str(given.message))  # a double tap: the page as after the first
        return None
    except GameMovedOn as moved:  # H-ORDER; H-END: GameEnded says the game has ended
        messages.warning(request, str(moved.message))
        return 409
    except RuleViolation as violation:
        if form is None or not screen.legal:  # no order form on the page to show it next to
            messages.error(request, violation_text(violation))
        else:
            form.order_error = violation_text(violation)
        return 400
    new_events = tell(result.events, seat.faction, result.state.phase == "ended", game=seat.game_id)
    messages.success(request, _("Your order was accepted."))
    for line in new_events:
        messages.info(request, line)
    return None


def sample_orders(legal: list[Any], limit: int = SUGGESTIONS_SHOWN) -> list[Any]:
    """A few legal orders of every kind (round robin over the kinds), not a page of one kind."""
    by_kind: dict[str, list[Any]] = {}
    for command in legal:
        by_kind.setdefault(command.kind, []).append(command)
    sample: list[Any] = []
    while len(sample) < limit and any(by_kind.values()):
        for commands in by_kind.values():
            if commands and len(sample) < limit:
                sample.append(commands.pop(0))
    return sample


def board_rows(view: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The 9×9 board (H-BOARD) as rows of cells for the template."""
    board = view.get("board", {})
    rows = []
    for r in ROWS:
        row = []
        for c in COLUMNS:
            polis = board.get(f"{c}{r}")
            names = (
                {"tile_name": tile_name(polis["tile_id"]), "owner_name": faction_name(polis.get("owner"))}
                if polis
                else {}
            )
            row.append({"space": f"{c}{r}", "polis": polis, **names})
        rows.append(row)
    return rows


def _final_result(state: GameState) -> str:
    return result_text(state.winners, {f: p.vp for f, p in state.players.items()})


def _context(seat: Seat, screen: PlayerScreen, forms: dict[str, OrderForm]) -> dict[str, Any]:
    seats = {s.faction: s for s in seat.game.seats.all()}
    players = [
        {
            "faction": f,
            "faction_name": faction_name(f),
            "name": seats[f].name if f in seats else "",
            "coins_text": coins_text(p["coins_behind_screen"])
            if isinstance(p.get("coins_behind_screen"), dict)
            else "",
            **p,
        }
        for f, p in screen.view.get("players", {}).items()
    ]
    suggestions = [
        (command_label(c, order_cost(screen.state, c)), json.dumps(c.to_dict()), _stands(screen.state, c))
        for c in sample_orders(screen.legal)
    ]
    return {
        "game": seat.game,
        "seat": seat,
        "language_switch": language_switch(seat, translation.get_language()),  # docs/i18n.md
        "faction_name": faction_name(seat.faction),
        "screen": screen,
        "view": screen.view,
        "players": players,
        "board_rows": board_rows(screen.view),
        # The board picture (from the player's view only, H-SCREEN) and its Move cost preview.
        "board_svg": render_board(screen.view, language=translation.get_language()),
        "move_cost_url": reverse("games:seat-move-cost", args=[seat.game_id, seat.pk]),
        "forms": list(forms.values()),
        "suggestions": suggestions,
        "can_order": bool(screen.legal),
        "can_move": "move" in forms,  # the board's Move hint, only while a Move may be given now
        # What Recruit, Fortify, Expand… cost, before a form is sent; only beside those orders.
        "costs": cost_line(seat.faction) if PRICED_KINDS.intersection(forms) else "",
        "offers": offer_rows(screen.view, seat.faction, screen.legal),  # H-TRADE
        "hand": hand_rows(screen.view, seat.faction),  # H-MISSIONS: only the player's own cards
        # H-END: after "421 BC, the game has ended." who won, not "The game has ended." once more.
        "final_result": _final_result(screen.state) if screen.state.phase == "ended" else "",
        # S-WINTER: a winter scored since the last turn as its table (the standings: page_context).
        "winter_scored": scored_in(screen.happenings, seat.game, seat.faction, screen.seq),
        **long_game_context(seat),  # long games: deadline, messages, vacation, mail preferences
        "log_head": log_head(seat.game),  # the footer's witness of the log (docs/fairness.md)
        **take_back_context(seat, screen),  # H-TAKEBACK: templates/games/_take_back.html
        **page_context(seat, screen),  # the first screen: countdown, own supplies, standings, Poleis
    }


def _stands(state: Any, command: Any) -> str:
    """H-TAKEBACK: a one-click suggestion that could not be taken back says so, in words, before the click."""
    stands = stands_if_given(state, command)
    return violation_text(stands) if stands else ""
