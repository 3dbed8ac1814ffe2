"""History pages and the export download (docs/order-loop.md). Parse, call games/reading/history.py or
games/reading/export.py, render.

A player opens their history at their seat's token-free address (/play/<id>/<seat>/history/, by
the seat cookie: games/web/seat_cookies.py); the organiser with their login
(/organiser/games/<id>/history/). The export answers to a link's token (Authorization: Bearer, or
?token=: for programs), to the seat cookie (/play/<id>/<seat>/export.json) or to the organiser's login.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from aegea_pbem.rate_limits import rate_limited
from games.board.svg import render_board
from games.models import Game, Seat
from games.reading.export import export_game
from games.reading.history import board_at, default_since, history, years_of
from games.reading.links import LinkError, bearer_token, resolve_link
from games.reading.log_head import log_head
from games.reading.scoreboard import scoreboard
from games.services.languages import page_language
from games.web.seat_cookies import resolve_seat
from games.web.seat_limits import link_in_header, link_in_path
from games.web.views.play import link_error_page
from games.words.names import faction_name, year_label

ALL = "all"


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def _kept_filters(year: int | None, player: str | None, since: str | None) -> list[tuple[str, str]]:
    """The list's filters as query pairs: every link and form of the page that shows another board
    keeps them, so stepping through the boards never loses the year, the player or where the list
    starts (`since`: "all" or an event's seq, as asked; None for the default)."""
    pairs = [("year", str(year))] if year is not None else []
    pairs += [("player", player)] if player else []
    return pairs + ([("since", since)] if since else [])


def _context(request: HttpRequest, game: Game, viewer: str | None, language: str) -> dict[str, Any]:
    """Filters from the query: ?year=431, ?player=athens, ?since=all (default: since my last turn);
    the replay's ?at=seq."""
    factions = list(game.seats.order_by("id").values_list("faction", flat=True))
    year = _int(request.GET.get("year"))
    player = request.GET.get("player") or None
    if player not in factions:
        player = None
    since_all = request.GET.get("since") == ALL
    since_asked = None if since_all else _int(request.GET.get("since"))
    since = None if since_all else (since_asked or default_since(game, viewer))
    filters = _kept_filters(year, player, ALL if since_all else (str(since_asked) if since_asked else None))
    entries = history(game, viewer, year=year, player=player, since_seq=since)
    at = _int(request.GET.get("at"))
    # By default the board after the list's last line: with the year and player unfiltered, the board now.
    board = board_at(game, at if at is not None else (entries[-1].seq if entries else None), viewer)
    return {
        "game": game,
        "viewer": viewer,
        "viewer_name": faction_name(viewer) if viewer else _("the organiser"),
        "entries": entries,
        "years": [(y, year_label(y)) for y in years_of(game)],
        "players": [(f, faction_name(f)) for f in factions],
        "year": year,
        "player": player,
        "since": since,
        "since_all": since_all,
        "filters": filters,  # hidden fields of the board's form
        "filter_query": urlencode(filters) + "&" if filters else "",  # each board link's query starts so
        "board": board,
        "scoreboard": scoreboard(game, viewer),  # S-WINTER: every scored winter as a table
        "board_svg": render_board(board.view, language=language, id_prefix="history"),
        "log_head": log_head(game),  # the footer's witness of the log (docs/fairness.md)
    }


@never_cache
@rate_limited("links", post="orders", bucket=link_in_path)
@require_GET
def player_history(request: HttpRequest, game_id: int, seat_id: int) -> HttpResponse:
    """The game's history as the seat's player may know it (H-SCREEN; everything after H-END)."""
    try:
        seat = resolve_seat(request, game_id, seat_id)
    except LinkError as error:
        return link_error_page(request, error)
    language = page_language(request, seat)
    with translation.override(language):
        context = _context(request, seat.game, seat.faction, language)
        context["back"] = request.path.removesuffix("history/")
        context["export_url"] = reverse("games:seat-export", args=[game_id, seat_id])
        response = render(request, "games/history.html", context)
    response["Content-Language"] = language
    return response


def _organisers_game(request: HttpRequest, game_id: int) -> Game:
    games = Game.objects.all() if request.user.is_staff else Game.objects.filter(organiser=request.user)
    game = games.filter(pk=game_id).first()
    if game is None:
        raise Http404(_("No such game among yours."))
    return game


@login_required
@require_GET
def organiser_history(request: HttpRequest, game_id: int) -> HttpResponse:
    """The history as the organiser may know it: what every player may see, no screen (H-SCREEN)."""
    game = _organisers_game(request, game_id)
    with translation.override(game.language):
        context = _context(request, game, None, game.language)
        context["back"] = request.path.removesuffix("history/")
        context["export_url"] = reverse("games:export", args=[game_id])
        return render(request, "games/history.html", context)


def _export_reader(request: HttpRequest, game_id: int) -> Seat | Game | JsonResponse:
    token = bearer_token(request)
    if token:
        try:
            return resolve_link(token, game_id)
        except LinkError as error:
            body = {"error": {"code": error.reason, "message": str(error.message)}}
            return JsonResponse(body, status=error.status)
    if request.user.is_authenticated:
        try:
            return _organisers_game(request, game_id)
        except Http404:
            return JsonResponse(
                {"error": {"code": "unknown", "message": _("No such game among yours.")}}, status=404
            )
    return JsonResponse(
        {"error": {"code": "unauthenticated", "message": _("Send your link's token or sign in.")}}, status=403
    )


@never_cache
@rate_limited("links", bucket=link_in_header)
@require_GET
def export(request: HttpRequest, game_id: int) -> JsonResponse:
    """The game's log, redacted for the reader (docs/export.md): a seat's token or the organiser's login."""
    reader = _export_reader(request, game_id)
    if isinstance(reader, JsonResponse):
        return reader
    if isinstance(reader, Seat):
        document = export_game(reader.game, reader.faction)
    else:
        document = export_game(reader, None)
    return _download(document, game_id)


@never_cache
@rate_limited("links", bucket=link_in_path)
@require_GET
def seat_export(request: HttpRequest, game_id: int, seat_id: int) -> JsonResponse:
    """The export for the seat whose cookie the browser holds (the history page's download link)."""
    try:
        seat = resolve_seat(request, game_id, seat_id)
    except LinkError as error:
        body = {"error": {"code": error.reason, "message": str(error.message)}}
        return JsonResponse(body, status=error.status)
    return _download(export_game(seat.game, seat.faction), game_id)


def _download(document: dict[str, Any], game_id: int) -> JsonResponse:
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="aegeapolis-game-{game_id}.json"'
    return response
