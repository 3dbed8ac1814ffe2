"""Asking for a new link (games/fresh_links.py): the page of a link that opens nothing offers it.
Parse, call, render."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from aegea_pbem.rate_limits import rate_limited

from .fresh_links import ask_for_new_links
from .long_forms import NewLinkForm


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
