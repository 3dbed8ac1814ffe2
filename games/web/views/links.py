"""Opening an emailed link (its token exchanged for the seat cookie: games/web/seat_cookies.py), and
asking for a new link (games/services/fresh_links.py), which the page of a link that opens nothing offers.
Parse, call, render."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from aegea_pbem.rate_limits import rate_limited
from games.reading.links import LinkError
from games.tasks import ask_for_new_links
from games.web.forms.table import NewLinkForm
from games.web.seat_cookies import exchange_link
from games.web.seat_limits import link_in_path
from games.web.views.play import link_error_page


# A visit of the link, whatever the method: the order an old page posts here is counted once, by
# the page the 307 sends it on to.
@never_cache  # its answer sets the seat cookie
@rate_limited("links", post="links", bucket=link_in_path)
@require_http_methods(["GET", "HEAD", "POST"])
def open_link(request: HttpRequest, game_id: int, token: str, rest: str = "") -> HttpResponse:
    """/play/<game>/<token>/<rest>: the seat cookie and the same page at its token-free address,
    or the page saying why the link opens nothing."""
    try:
        return exchange_link(request, game_id, token, rest)
    except LinkError as error:
        return link_error_page(request, error)


@rate_limited(None, post="newlinks")  # by who asks, not the address asked: a new link is mailed
@require_http_methods(["GET", "POST"])
def new_link(request: HttpRequest) -> HttpResponse:
    """GET: the form. POST: new links mailed to the seats with that address, if any; the answer
    is the same either way (a redirect, so a reload does not ask again)."""
    form = NewLinkForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        ask_for_new_links(form.cleaned_data["email"])
        return redirect(reverse("games:new-link") + "?sent=1")
    sent = request.method == "GET" and request.GET.get("sent") == "1"
    status = 400 if request.method == "POST" else 200
    return render(request, "games/new_link.html", {"form": form, "sent": sent}, status=status)
