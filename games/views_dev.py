"""DEBUG-only: the local mailbox folder, so a person can read the emails players would receive and
try answering them by email (the reply goes through the inbound path, notifications/feed.py)."""

from __future__ import annotations

from email.utils import parseaddr
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from notifications.feed import NotStored, feed_reply

from .dev_mailbox import mailbox_email, mailbox_emails


def _mailbox() -> Path:
    if not settings.DEBUG:
        raise Http404("The mailbox is shown only with DEBUG on.")
    return Path(settings.EMAIL_FILE_PATH)


def mailbox(request: HttpRequest) -> HttpResponse:
    folder = _mailbox()
    return render(request, "games/mailbox.html", {"folder": folder, "emails": mailbox_emails(folder)})


def mailbox_message(request: HttpRequest, name: str) -> HttpResponse:
    """One email, its HTML and plain text side by side; a POST answers it as a player's reply would."""
    folder = _mailbox()
    found = mailbox_email(folder, name)
    if found is None:
        raise Http404("No such email.")
    reply_address = parseaddr(found.reply_to)[1]
    if request.method == "POST" and reply_address:
        words = request.POST.get("reply", "").strip()
        if not words:
            messages.error(request, _("Write the reply first: an order, or a message to the other players."))
        else:
            try:
                feed_reply(words.encode(), to=reply_address)
            except NotStored:
                messages.error(request, _("This email's reply address is no longer valid: nothing changed."))
            else:
                received = _("Your reply was received as if by email; its answer is in the mailbox.")
                messages.success(request, received)
                return redirect("games:mailbox")
    return render(request, "games/mailbox_email.html", {"email": found, "reply_address": reply_address})
