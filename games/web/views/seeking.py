"""Seats that need a substitute (docs/front-door.md "Open games and the lobby"): the organiser seeks
one and accepts an offer, seeing each one's record; a signed-in person offers in the lobby.
Parse, call a service, render."""

from __future__ import annotations

from typing import TypeVar

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.models import Game, Seat, SubstituteOffer, SubstituteWanted
from games.projectors.reliability import reliability_of
from games.reading.gatherings import pace, profiles_of, substitute_page
from games.services.substitute_seekers import (
    SubstituteError,
    accept_substitute,
    offer_to_substitute,
    seek_substitute,
)
from games.web.forms.frontdoor import OfferForm

M = TypeVar("M", bound=Model)


@login_required
@require_http_methods(["GET", "POST"])
def organiser_substitutes(request: HttpRequest, game_id: int) -> HttpResponse:
    """The organiser's seats: seek a substitute in the lobby, or hand a seat to one who offered."""
    game = Game.objects.filter(pk=game_id, organiser=request.user).first()
    if game is None:
        raise Http404(_("No such game among yours."))
    problem = ""
    if request.method == "POST":
        try:
            if request.POST.get("action") == "seek":
                seek_substitute(_one(Seat.objects.filter(game=game), request.POST.get("seat")))
            else:
                accept_substitute(
                    _one(SubstituteOffer.objects.filter(wanted__seat__game=game), request.POST.get("offer"))
                )
            return redirect("games:organiser-substitutes", game_id=game.pk)
        except SubstituteError as error:
            problem = str(error)
    page = substitute_page(game)
    emails = [row["seat"].email for row in page["seats"]] + [
        o.email for r in page["seats"] for o in r["offers"]
    ]
    profiles = profiles_of(emails)  # each name links to its record where an account has that address
    for row in page["seats"]:  # each offer with the record of who made it
        row["profile"] = profiles.get(row["seat"].email.casefold())
        row["offers"] = [
            {"offer": o, "record": reliability_of(o.email), "profile": profiles.get(o.email.casefold())}
            for o in row["offers"]
        ]
    context = {"game": game, "problem": problem, **page}
    return render(request, "games/organiser_substitutes.html", context, status=400 if problem else 200)


def _one(rows: QuerySet[M], pk: str | None) -> M:
    """The posted row among `rows` (the organiser's own game's), or 404."""
    row = rows.filter(pk=int(pk)).first() if pk and pk.isdigit() else None
    if row is None:
        raise Http404(_("No such seat in this game."))
    return row


@login_required(login_url="games:sign-in")
@require_http_methods(["GET", "POST"])
def offer_seat(request: HttpRequest, wanted_id: int) -> HttpResponse:
    """A signed-in person offers to take over a seat the lobby lists."""
    wanted = (
        SubstituteWanted.objects.filter(pk=wanted_id, filled__isnull=True)
        .select_related("seat__game")
        .first()
    )
    if wanted is None:
        raise Http404(_("This seat has its substitute."))
    form: forms.Form = OfferForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            offer_to_substitute(wanted, request.user, form.cleaned_data["name"])
        except SubstituteError as error:
            form.add_error(None, str(error))
        else:
            return render(request, "games/substitute_offered.html", {"game": wanted.seat.game})
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "game": wanted.seat.game, "wanted": wanted, "pace": pace(wanted.seat.game)}
    return render(request, "games/substitute_offer.html", context, status=status)
