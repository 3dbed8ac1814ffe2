"""A game gathering its players (docs/front-door.md): the organiser's new game by invitation and its
invitations, the invited person's answer, and the lobby of open games. Parse, call a service, render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from aegea_pbem.rate_limits import rate_limited
from games.models import Game, Gathering, Invitation
from games.projectors.reliability import reliability_of
from games.reading.gatherings import (
    gathering_page,
    invitation_page,
    is_gathering,
    open_games,
    pace,
    profiles_of,
    wanted_seats,
)
from games.reading.own_seats import seat_held_in_gathering
from games.services.invitations import (
    InvitationError,
    answer_invitation,
    begin_gathered_game,
    gather_game,
    invitation_of,
    invite,
    take_open_seat,
)
from games.web.forms.frontdoor import AnswerForm, GatheringForm, InvitationForm
from games.web.forms.organiser import new_game_initial
from games.web.views.organiser import named_organiser, new_game_deadline_form

# The invitation's token is checked as a seat link's is: guesses limited per client.
opens_an_invitation = rate_limited("links", post="links")
# Each invitation mails an address the organiser names: limited per organiser, so that an account
# anyone can open by email is no way to mail strangers in bulk.
mails_invitations = rate_limited(
    None, post="invitations", bucket=lambda request, kwargs: f"user:{request.user.pk}"
)


def _own_gathering(request: HttpRequest, game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id, organiser=request.user, gathering__isnull=False).first()
    if game is None:
        raise Http404(_("No such game among yours."))
    return game


@login_required
@require_http_methods(["GET", "POST"])
def new_gathering(request: HttpRequest) -> HttpResponse:
    """A new game whose players are invited by email or take a seat in the lobby."""
    form = GatheringForm(request.POST or None, initial=new_game_initial(request.user))
    deadline_form = new_game_deadline_form(request.POST or None)
    valid = [form.is_valid(), deadline_form.is_valid() or not deadline_form.is_bound]  # every error at once
    if request.method == "POST" and all(valid):
        named_organiser(request, form)  # before any invitation is written
        try:
            game = gather_game(
                request.user,
                form.cleaned_data["name"],
                form.cleaned_data["language"],
                form.cleaned_data["seats"],
                form.cleaned_data["published"],
                deadline_form.save(commit=False) if deadline_form.is_bound else None,
            )
        except InvitationError as error:
            form.add_error(None, str(error))
        else:
            return redirect("games:organiser-gathering", game_id=game.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "games/gathering_new.html", {"form": form, "deadline_form": deadline_form}, status=status
    )


@login_required
@require_http_methods(["GET", "POST"])
@mails_invitations
def organiser_gathering(request: HttpRequest, game_id: int) -> HttpResponse:
    """The organiser's invitations of one game: invite an address, or begin with who accepted."""
    game = _own_gathering(request, game_id)
    if game.gathering.began is not None:
        return redirect("games:organiser-game", game_id=game.pk)
    form = InvitationForm(
        request.POST if request.POST.get("action") == "invite" else None,
        initial={"language": game.language},  # the game's, unless this friend reads another
    )
    status = 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "begin":
                begin_gathered_game(game)
                return redirect("games:organiser-game", game_id=game.pk)
            if form.is_valid():
                invite(
                    game,
                    form.cleaned_data["email"],
                    form.cleaned_data["faction"],
                    form.cleaned_data["language"],
                )
                return redirect("games:organiser-gathering", game_id=game.pk)
        except InvitationError as error:
            form.add_error(None, str(error))
        status = 400
    page = gathering_page(game)
    profiles = profiles_of([row["email"] for row in page["invitations"]])
    for row in page["invitations"]:  # the organiser sees each one's record as they invite
        row["record"] = reliability_of(row["email"])
        row["profile"] = profiles.get(row["email"].casefold())
    context = {"game": game, "form": form, **page}
    return render(request, "games/gathering.html", context, status=status)


@require_http_methods(["GET", "POST"])
@opens_an_invitation
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed invitation: accept (name, language, time zone) or decline, which is asked again
    (a form of its own, no script needed): a decline frees the seat and cannot be undone. The answer
    is in the language the player just chose."""
    try:
        found = invitation_of(token)
    except InvitationError as error:
        return render(request, "games/invitation.html", {"error": str(error)}, status=404)
    form = AnswerForm(
        request.POST if request.POST.get("action") == "accept" else None,
        initial={"language": found.language or found.game.language},  # the invitation's, to start
    )
    status, problem = 200, ""
    if request.method == "POST":
        accept = request.POST.get("action") == "accept"
        if not accept and request.POST.get("confirm") != "yes" and found.status == Invitation.Status.PENDING:
            return render(request, "games/invitation_decline.html", invitation_page(found))
        if not accept or form.is_valid():
            data = form.cleaned_data if accept else {}
            try:
                answered = answer_invitation(token, accept, **data)
            except InvitationError as error:
                problem = str(error)
            else:
                return _answered(request, answered)
        status = 400
    context = {"form": form, "problem": problem, **invitation_page(found)}
    return render(request, "games/invitation.html", context, status=status)


def _answered(request: HttpRequest, invitation: Invitation) -> HttpResponse:
    """The thanks for an answer: in the language the player just chose, saying whether the game has
    begun (it begins when the last seat is taken, by invitation or in the lobby). Its Content-Language
    says that language too: LocaleMiddleware would name the request's, after the override ends."""
    context = {"invitation": invitation, "began": not is_gathering(invitation.game)}
    accepted = invitation.status == Invitation.Status.ACCEPTED
    language = (invitation.language if accepted else None) or translation.get_language()
    with translation.override(language):
        response = render(request, "games/invitation_answered.html", context)
    response["Content-Language"] = language
    return response


def lobby(request: HttpRequest) -> HttpResponse:
    """The open games, with their players, pace, deadlines and language; one where the person holds
    a seat already says so instead of offering another."""
    games = open_games()
    for row in games:
        row["mine"] = seat_held_in_gathering(row["game"], request.user)
    return render(request, "games/lobby.html", {"games": games, "wanted": wanted_seats()})


@login_required(login_url="games:sign-in")
@require_http_methods(["GET", "POST"])
def take_seat(request: HttpRequest, game_id: int) -> HttpResponse:
    """A signed-in person takes a free seat of an open game (name, language, time zone)."""
    gathering = Gathering.objects.filter(game_id=game_id, published=True).select_related("game").first()
    if gathering is None:
        raise Http404(_("No such open game."))
    held = seat_held_in_gathering(gathering.game, request.user)
    form = AnswerForm(request.POST or None, initial={"language": translation.get_language()})
    if request.method == "POST" and not held and form.is_valid():
        try:
            taken = take_open_seat(gathering.game, request.user, **form.cleaned_data)
        except InvitationError as error:
            form.add_error(None, str(error))
        else:
            return _answered(request, taken)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "game": gathering.game, "pace": pace(gathering.game), "held": held}
    return render(request, "games/lobby_seat.html", context, status=status)
