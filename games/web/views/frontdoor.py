"""The front door's pages (docs/front-door.md): sign-in by email and out (also every browser out of a
seat), a player's own seats, and a player's profile. Parse, call a service, render."""

from __future__ import annotations

import math

from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from aegea_pbem.rate_limits import mailing_an_address, rate_limited, remember_mailbox
from games.models import Invitation, Seat
from games.projectors.reliability import reliability_of
from games.reading.links import LinkError
from games.reading.own_seats import seat_ids_of_account, seat_link_of_account
from games.services.languages import page_language
from games.services.seat_grants import sign_out_everywhere
from games.services.sign_in import SignInError, ask_for_sign_in, check_sign_in, use_sign_in
from games.web.forms.frontdoor import SignInForm
from games.web.seat_cookies import forget_seat, forget_seats, resolve_seat
from games.web.seat_limits import link_in_path
from games.web.views.play import link_error_page


def mail_refused(kind: str, retry_after: int) -> str:
    """Why no sign-in link or password reset was mailed, by the limit that refused it
    (aegea_pbem/rate_limits.py `mailing_an_address`), and when to try again."""
    if kind == "mailbox_day":
        reason = _(
            "This address has already been sent the most sign-in and password emails it may get in a"
            " day, so no email was sent."
        )
    elif kind == "mailbox":
        reason = _("Too many emails were asked for this address from your connection, so no email was sent.")
    elif kind == "resets":
        reason = _(
            "Too many password resets were asked from your connection (everyone on your network shares"
            " it), so no email was sent."
        )
    else:
        reason = _(
            "Too many sign-in links were asked from your connection (everyone on your network shares"
            " it), so no email was sent."
        )
    return f"{reason} {wait_text(retry_after)}"


def wait_text(seconds: int) -> str:
    """ "Try again in 5 minutes.", from 90 minutes on in hours; rounded up, so never too early."""
    minutes = math.ceil(seconds / 60)
    if minutes <= 90:
        return ngettext("Try again in %(minutes)s minute.", "Try again in %(minutes)s minutes.", minutes) % {
            "minutes": minutes
        }
    hours = math.ceil(minutes / 60)
    return ngettext("Try again in %(hours)s hour.", "Try again in %(hours)s hours.", hours) % {"hours": hours}


def too_many_sign_ins(request: HttpRequest, retry_after: int, kind: str) -> HttpResponse:
    """The sign-in page again, saying that no link was sent, why, and when to try again (HTTP 429)."""
    form = SignInForm(request.POST or None)
    next_path = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    context = {
        "form": form,
        "refused": mail_refused(kind, retry_after),
        "next": next_path,
        "for_a_seat": _is_a_seat(next_path),
    }
    return render(request, "games/sign_in.html", context, status=429)


def too_many_resets(request: HttpRequest, retry_after: int, kind: str) -> HttpResponse:
    """The answer to a password reset refused (HTTP 429), in the reader's browser language."""
    with translation.override(translation.get_language_from_request(request)):
        context = {"message": mail_refused(kind, retry_after), "kind": kind, "told": True}
        return render(request, "429.html", context, status=429)


# Each ask mails the address it names: limited per (address, client), per client and per address
# (docs/front-door.md "Sign-in").
mails_a_link = rate_limited(None, posts=mailing_an_address("signins"), refused=too_many_sign_ins)
# A link's token is checked before the page shows: guessing is limited per client, as logins are.
opens_a_link = rate_limited("links", post="logins")


@require_http_methods(["GET", "POST"])
@mails_a_link
def sign_in(request: HttpRequest) -> HttpResponse:
    """Ask for a one-time sign-in link by email (no password); the link lands on `next`, the local
    page the person was going to (the lobby's seat they chose), else on their games."""
    form = SignInForm(request.POST or None)
    next_path = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    if request.method == "POST" and form.is_valid():
        try:
            ask_for_sign_in(form.cleaned_data["email"], translation.get_language(), next_path)
        except SignInError as error:
            form.add_error("email", str(error))
        else:
            return render(request, "games/sign_in_sent.html", {"email": form.cleaned_data["email"]})
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "next": next_path, "for_a_seat": _is_a_seat(next_path)}
    return render(request, "games/sign_in.html", context, status=status)


def safe_next(request: HttpRequest, target: str | None) -> str:
    """`target` if it is a page of this site (a path, no other host or scheme), else ""."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return ""
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return ""
    return target


def _is_a_seat(path: str) -> bool:
    """Whether `path` is the lobby's page of a free seat or of a seat that needs a substitute."""
    try:
        match = resolve(path.split("?")[0]) if path else None
    except Resolver404:
        return False
    return match is not None and match.view_name in ("games:lobby-take", "games:lobby-substitute")


@require_http_methods(["GET", "POST"])
@opens_a_link
def sign_in_link(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed link: a page with one button (a mail scanner's GET spends nothing), whose POST
    spends the link and signs its reader in."""
    try:
        if request.method == "POST":
            next_path = safe_next(request, check_sign_in(token).next_path)
            user = use_sign_in(token)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            response = redirect(next_path or "games:organiser")
            remember_mailbox(request, response, user.email)  # strangers cannot lock this browser out
            return response
        check_sign_in(token)
    except SignInError as error:
        return render(
            request, "games/sign_in_link.html", {"error": str(error), "form": SignInForm()}, status=410
        )
    return render(request, "games/sign_in_link.html", {})


@never_cache
@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
    """Sign out and land on the site's home page, told so in the person's language. On a shared
    device signing out ends the seats' pages too: this browser's seat grants are revoked and every
    seat cookie it holds is dropped (seat_cookies.forget_seats), so /play/<game>/<seat>/ opens
    again only from the emailed link, and a copy of a cookie taken before opens nothing."""
    own = seat_ids_of_account(request.user)
    logout(request)
    messages.success(
        request,
        _("You are signed out. This browser no longer opens your games' pages; your emailed links do."),
    )
    response = redirect("home")
    forget_seats(request, response, also=own)
    return response


@never_cache
@rate_limited("links", post="orders", bucket=link_in_path)
@require_POST
def seat_sign_out_everywhere(request: HttpRequest, game_id: int, seat_id: int) -> HttpResponse:
    """The seat page's "Sign out everywhere": every browser's grant of the seat is revoked, this
    one's too (games/services/seat_grants.py), and the home page says so; the emailed link opens
    the seat again. For a lost phone, or a seat once opened on someone else's computer."""
    try:
        seat = resolve_seat(request, game_id, seat_id)
    except LinkError as error:
        return link_error_page(request, error)
    sign_out_everywhere(seat)
    with translation.override(page_language(request, seat)):
        messages.success(
            request,
            _(
                "Every browser that had opened your seat in %(game)s is signed out of it, this one"
                " too. The link in your email opens it again."
            )
            % {"game": seat.game.name},
        )
    response = redirect("home")
    forget_seat(request, response, seat)
    return response


@never_cache  # its redirect carries a fresh link's token
@login_required
def open_own_seat(request: HttpRequest, seat_id: int) -> HttpResponse:
    """One of the account's own seats (its address holds it): the seat's page, through a fresh link
    of the existing kind, which the link view exchanges for the seat cookie (games/reading/own_seats.py)."""
    found = seat_link_of_account(request.user, seat_id)
    if found is None:
        raise Http404(_("No such seat among yours."))
    game_id, token = found
    return redirect(reverse("games:play", args=[game_id, token]))


def profile(request: HttpRequest, user_id: int) -> HttpResponse:
    """A player's record of reliability, kept from the log by a projector (games/projectors/reliability.py).
    Their address is never shown: the name is the account's, else the one of their latest seat or
    accepted invitation; one's own record without either is "Your record"."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email:
        raise Http404(_("No such player."))
    latest = (
        Seat.objects.filter(email__iexact=user.email).order_by("-pk").values_list("name", flat=True).first()
    ) or (
        Invitation.objects.filter(email__iexact=user.email, status=Invitation.Status.ACCEPTED)
        .order_by("-pk")
        .values_list("name", flat=True)
        .first()
    )
    own = request.user.is_authenticated and request.user.pk == user.pk
    name = user.get_full_name() or latest or (_("Your record") if own else _("A player"))
    context = {"name": name, "own": own, "record": reliability_of(user.email)}
    return render(request, "games/profile.html", context)
