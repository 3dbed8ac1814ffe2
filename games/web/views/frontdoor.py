"""The front door's pages (docs/front-door.md): sign-in by email, the invitation's answer, the lobby
and a player's profile. Parse, call a service, render."""

from __future__ import annotations

import math

from django.contrib.auth import get_user_model, login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from aegea_pbem.rate_limits import posted_email, rate_limited
from games.models import Seat
from games.projectors.reliability import reliability_of
from games.services.sign_in import SignInError, ask_for_sign_in, check_sign_in, use_sign_in
from games.web.forms.frontdoor import SignInForm


def too_many_sign_ins(request: HttpRequest, retry_after: int, kind: str) -> HttpResponse:
    """The sign-in page again, saying that no link was sent and how many minutes to wait (HTTP 429)."""
    minutes = math.ceil(retry_after / 60)
    message = ngettext(
        "Too many sign-in links were asked for this address or from your connection, so no email was"
        " sent. Try again in %(minutes)s minute.",
        "Too many sign-in links were asked for this address or from your connection, so no email was"
        " sent. Try again in %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}
    form = SignInForm(request.POST or None)
    return render(request, "games/sign_in.html", {"form": form, "refused": message}, status=429)


# Each ask mails an address: limited per client and per address asked for, as a new link is.
mails_a_link = rate_limited(None, post="newlinks", also=[posted_email], refused=too_many_sign_ins)
# A link's token is checked before the page shows: guessing is limited per client, as logins are.
opens_a_link = rate_limited("links", post="logins")


@require_http_methods(["GET", "POST"])
@mails_a_link
def sign_in(request: HttpRequest) -> HttpResponse:
    """Ask for a one-time sign-in link by email (no password)."""
    form = SignInForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            ask_for_sign_in(form.cleaned_data["email"], translation.get_language())
        except SignInError as error:
            form.add_error("email", str(error))
        else:
            return render(request, "games/sign_in_sent.html", {"email": form.cleaned_data["email"]})
    status = 400 if request.method == "POST" else 200
    return render(request, "games/sign_in.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
@opens_a_link
def sign_in_link(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed link: a page with one button (a mail scanner's GET spends nothing), whose POST
    spends the link and signs its reader in."""
    try:
        if request.method == "POST":
            user = use_sign_in(token)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("games:organiser")
        check_sign_in(token)
    except SignInError as error:
        return render(
            request, "games/sign_in_link.html", {"error": str(error), "form": SignInForm()}, status=410
        )
    return render(request, "games/sign_in_link.html", {})


def profile(request: HttpRequest, user_id: int) -> HttpResponse:
    """A player's record of reliability, kept from the log by a projector (games/projectors/reliability.py).
    Their address is never shown: the name is the account's, else the one of their latest seat."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email:
        raise Http404(_("No such player."))
    latest = (
        Seat.objects.filter(email__iexact=user.email).order_by("-pk").values_list("name", flat=True).first()
    )
    name = user.get_full_name() or latest or _("A player")
    return render(request, "games/profile.html", {"name": name, "record": reliability_of(user.email)})
