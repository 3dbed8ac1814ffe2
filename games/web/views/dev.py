"""DEBUG-only: the local mailbox folder, so a person can read the emails players would receive and
try answering them by email (the reply goes through the inbound path, notifications/feed.py).

It holds every player's email (their links, their addresses), so it is shown only with DEBUG on and
only to a browser on this machine that names it by a loopback host (aegea_pbem/serving.py)."""

from __future__ import annotations

from email.utils import parseaddr
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from aegea_pbem.serving import served_on_loopback
from games.web.dev_mailbox import mailbox_email, mailbox_emails
from notifications.feed import NotStored, feed_reply


def _mailbox(request: HttpRequest) -> Path:
    if not settings.DEBUG or not served_on_loopback(request):
        raise Http404("The mailbox is shown only with DEBUG on, to a browser on this machine (127.0.0.1).")
    return Path(settings.EMAIL_FILE_PATH)


def mailbox(request: HttpRequest) -> HttpResponse:
    folder = _mailbox(request)
    return render(request, "games/mailbox.html", {"folder": folder, "emails": mailbox_emails(folder)})


def mailbox_message(request: HttpRequest, name: str) -> HttpResponse:
    """One email, its HTML and plain text side by side; a POST answers it as a player's reply would."""
    folder = _mailbox(request)
    found = mailbox_email(folder, name)
    if found is None:
        raise Http404("No such email.")
    if request.GET.get("part") == "html":
        return _email_html(found.html)
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


# The email's HTML is shown in a sandboxed frame of its own address: a mail's inline styles would
# break the site's CSP (style-src 'self'), and nothing of the email may run or load from elsewhere.
EMAIL_HTML_POLICY = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox"
)


def _email_html(html: str) -> HttpResponse:
    response = HttpResponse(html, content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = EMAIL_HTML_POLICY
    response["X-Frame-Options"] = "SAMEORIGIN"
    return response
