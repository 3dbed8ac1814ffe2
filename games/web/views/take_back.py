"""The page's "Take it back" (H-TAKEBACK): parse, call the service, say what happened, show the page."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from games.engine import RuleViolation
from games.models import Seat
from games.services.take_back import take_back_order
from games.words.orders import violation_text

KIND = "take_back"  # the posted form's kind


def take_back(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Take back the seat's last order (seen on the page at `seen_seq`); the page again, at its top."""
    try:
        seen_seq = int(request.POST.get("seen_seq", ""))
    except ValueError:
        messages.error(request, _("The order could not be read. Please use the form."))
        return redirect(request.path + "#main")
    try:
        take_back_order(seat.game, seat, seen_seq)
    except RuleViolation as violation:
        messages.error(request, violation_text(violation))
    else:
        messages.success(request, _("Your order was taken back. It is your turn again, as before it."))
    return redirect(request.path + "#main")
