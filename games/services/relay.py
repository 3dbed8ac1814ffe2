"""What may be relayed from one player to another: never a secret of the writer's seat (H-SCREEN).

A message is permanent (MessageSent) and mailed to rivals, so whatever the reply reading misses
(games/services/inbox/reply_lines.py) is caught here, for every message, typed on the page or written in an
email reply:

- this server's links (any address on SITE_URL's host, any /play/<id>/<token> path, unsubscribe
  and link addresses) and reply addresses (<local>+<token>@INBOUND_DOMAIN, or any address with a
  reply token's shape) are replaced by a placeholder;
- from an email reply, every line of the email it answers (the quoted-back original: its link,
  "behind your screen", its Mission Cards) and of the seat's emails stored rendered is dropped,
  however the mail client quoted it. The outbox keeps no body of an email rendered from its
  template (notifications/services.py), so the email the reply address names is rendered again
  as it was sent: the same position and happenings, told at the same seq.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from games.mail.keys import Reply
from games.models import Seat
from notifications.models import Outbox
from notifications.services import rendered

URL = re.compile(r"(?i)\b(?:https?://|www\.)[^\s<>\"']+")
SERVER_PATH = re.compile(r"(?i)/(?:play|unsubscribe|links|api/games)/[^\s<>\"']*")
REPLY_ADDRESS = re.compile(r"(?i)[\w.-]+\+[\w.-]+@[\w.-]+")
QUOTE_MARKS = re.compile(r"^[\s>|]+")
SENT_EMAILS_READ = 100  # the seat's latest emails whose lines a reply may quote back
ANSWERED_READ = 3  # the latest emails sharing the reply address answered (an answer and a turn email)


def without_server_secrets(text: str) -> str:
    """The text with this server's links and reply addresses replaced (see the module docstring)."""
    removed_link, removed_address = _("[link removed]"), _("[address removed]")
    host = (urlsplit(settings.SITE_URL).hostname or "").lower()
    domain = (getattr(settings, "INBOUND_DOMAIN", "") or "").lower()

    def link(match: re.Match[str]) -> str:
        found = match[0]
        target = urlsplit(found if "://" in found else f"http://{found}")
        ours = (target.hostname or "").lower() in {host, domain} or SERVER_PATH.match(target.path or "")
        return removed_link if ours else found

    text = URL.sub(link, text)
    text = SERVER_PATH.sub(removed_link, text)
    return REPLY_ADDRESS.sub(removed_address, text)


def reply_text_for_rivals(seat: Seat, text: str, answered: Reply | None = None) -> str:
    """An email reply's text as it may reach rivals (H-SCREEN): no line of the email it answers
    (`answered`: what its reply address is for) nor of any stored body mailed to `seat`, and none
    of this server's links or addresses."""
    sent = Outbox.objects.filter(game_id=seat.game_id, seat_id=seat.pk).order_by("-id")
    bodies = list(sent.exclude(body_text="").values_list("body_text", flat=True)[:SENT_EMAILS_READ])
    if answered is not None:
        reply = [answered[0], str(answered[1])]
        bodies += [rendered(row).text for row in sent.filter(context__keys_of__reply=reply)[:ANSWERED_READ]]
    mailed = {_normal(line) for body in bodies for line in body.splitlines()}
    mailed.discard("")
    kept = [line for line in text.splitlines() if _normal(line) not in mailed]
    return without_server_secrets("\n".join(kept)).strip()


def _normal(line: str) -> str:
    return " ".join(QUOTE_MARKS.sub("", line).split()).casefold()
