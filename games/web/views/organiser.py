"""Organiser pages (docs/order-loop.md): sign in, create games, watch them. Parse, call a service, render."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from games.board import render_board
from games.models import DeadlineSettings, Game
from games.reading.delivery_problems import problems_by_seat
from games.reading.gatherings import gathering_line, is_gathering
from games.reading.organiser_watch import watch
from games.reading.own_seats import played_games, seats_waiting
from games.reading.situation import player_screen
from games.services.game_setup import GameSetupError, create_game, name_organiser
from games.web.forms.organiser import NewGameForm, OrganiserNamed, new_game_initial
from games.web.forms.table import DeadlineSettingsForm
from games.web.views.play import board_rows
from games.words.names import faction_name, phase_label, year_label


@login_required
def game_list(request: HttpRequest) -> HttpResponse:
    """The signed-in person's games: those they play (their address holds a seat, or an accepted one in
    a game still gathering) and those they organise, from the read models (GameSummary, GameProgress)."""
    games = (
        Game.objects.filter(organiser=request.user)
        .select_related("summary", "progress")
        .prefetch_related("seats")
        .order_by("-id")
    )
    rows = []
    for game in games:
        progress = getattr(game, "progress", None)
        rows.append(
            {
                "game": game,
                "seats": [f"{s.name} ({faction_name(s.faction)})" for s in game.seats.all()],
                "year": year_label(progress.year) if progress else "",
                "phase": phase_label(progress.phase, progress.action_round)
                if progress
                else gathering_line(game),
                "must_act": ", ".join(faction_name(f) for f in progress.must_act) if progress else "",
                "vp": ", ".join(f"{faction_name(f)} {v}" for f, v in progress.vp.items()) if progress else "",
            }
        )
    form = NewGameForm(initial=new_game_initial(request.user))
    context = {
        "rows": rows,
        "played": played_games(request.user),
        "waiting": seats_waiting(request.user),
        "form": form,
        "deadline_form": new_game_deadline_form(None),
    }
    return render(request, "games/organiser_list.html", context)


def named_organiser(request: HttpRequest, form: OrganiserNamed) -> None:
    """The name the organiser gave on a new-game form, on their account (when the page asked it)."""
    name = form.organiser_name_given()
    if name is not None:
        name_organiser(request.user, name)


def new_game_deadline_form(data: Any) -> DeadlineSettingsForm:
    """The new game's deadlines (docs/long-games.md), from the defaults (an unsaved DeadlineSettings).
    A post without the deadline fields at all (an older page) keeps the defaults."""
    if data is not None and not any(key.startswith("deadlines-") for key in data):
        data = None
    return DeadlineSettingsForm(data, prefix="deadlines", instance=DeadlineSettings())


@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None, initial=new_game_initial(request.user))
    deadline_form = new_game_deadline_form(request.POST or None)
    valid = [form.is_valid(), deadline_form.is_valid() or not deadline_form.is_bound]  # every error at once
    if request.method == "POST" and all(valid):
        named_organiser(request, form)  # before the welcomes are written
        try:
            game = create_game(
                form.cleaned_data["players"],
                form.cleaned_data["language"],
                organiser=request.user,
                name=form.cleaned_data["name"],
                deadlines=deadline_form.save(commit=False) if deadline_form.is_bound else None,
            )
        except GameSetupError as error:
            form.add_error("players", error.message)
        else:
            return redirect("games:organiser-game", game_id=game.pk)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "deadline_form": deadline_form}
    return render(request, "games/organiser_new.html", context, status=status)


@login_required
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """A spectator's view of one of the organiser's own games (no hidden information)."""
    game = Game.objects.filter(pk=game_id, organiser=request.user).first()
    if game is None:
        raise Http404(_("No such game among yours."))
    if is_gathering(game):  # no opening yet: its invitations (docs/front-door.md)
        return redirect("games:organiser-gathering", game_id=game.pk)
    screen = player_screen(game, None)
    problems = problems_by_seat(game)
    seats = [
        {"name": s.name, "faction_name": faction_name(s.faction), "problems": problems.get(s.pk, [])}
        for s in game.seats.all()
    ]
    context = {
        "game": game,
        "screen": screen,
        "seats": seats,
        "board_rows": board_rows(screen.view),
        # The picture, as the players see it (a spectator's view holds no secret, H-SCREEN).
        "board_svg": render_board(screen.view, language=translation.get_language(), id_prefix="organiser"),
        **watch(game),
    }
    return render(request, "games/organiser_game.html", context)
