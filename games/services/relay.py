"""What may be relayed from one player to another: never a secret of the writer's seat (H-SCREEN).

A message is permanent (MessageSent) and mailed to rivals, so whatever the reply reading misses
(games/services/inbox/reply_lines.py) is caught here, for every message, typed on the page or written in an
email reply:

- this server's links (any address on SITE_URL's host, any /play/<id>/<token> path, unsubscribe
  and link addresses) and reply addresses (<local>+<token>@INBOUND_DOMAIN, or any address with a
  reply token's shape) are replaced by a placeholder;
- from an email reply, everything from the pasted original on (games/services/pasted_original.py):
  from the first run of five consecutive words that any email this seat was sent in this game
  holds, compared on normalised words, so whatever the client's language, header and wrapping;
  or from the first of the seat's own secret lines as the server renders them (its AP/FP and
  screen, its Mission Cards, a sealed order's screen and winter cards), in either language. The
  outbox keeps no body of an email rendered from its template (notifications/services.py), so
  those emails are rendered again as they were sent: the same position and happenings, told at
  the same seq. What is guaranteed, and measured, is in docs/email-orders.md.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from games.engine.table import MESSAGE_SENT
from games.mail.keys import Reply
from games.mail.position import secret_lines
from games.models import Event, Seat
from games.reading.situation import load_game
from games.services.pasted_original import Written, html_as_text, word_runs, writers_words
from games.words.narration import describe
from notifications.models import Outbox
from notifications.services import rendered

URL = re.compile(r"(?i)\b(?:https?://|www\.)[^\s<>\"']+")
SERVER_PATH = re.compile(r"(?i)/(?:play|unsubscribe|links|api/games)/[^\s<>\"']*")
REPLY_ADDRESS = re.compile(r"(?i)[\w.-]+\+[\w.-]+@[\w.-]+")
SENT_EMAILS_READ = 100  # the seat's latest emails a reply may paste back (docs/email-orders.md)
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


def reply_text_for_rivals(seat: Seat, text: str, answered: Reply | None = None) -> Written:
    """An email reply's text as it may reach rivals (H-SCREEN): the writer's words up to the pasted
    original (games/services/pasted_original.py), measured against the emails this seat was sent in
    this game (`answered`, what the reply address is for, among them whatever its age) and the
    seat's secret lines in both languages; then none of this server's links or addresses."""
    mailed = word_runs(_mailed_texts(seat, answered), gaps=_messages_told(seat))
    written = writers_words(text, mailed, _secret_lines(seat))
    return Written(without_server_secrets(written.text).strip(), written.left_out)


def _mailed_texts(seat: Seat, answered: Reply | None) -> list[str]:
    """The subject, text and HTML parts of the seat's emails in this game: the latest
    SENT_EMAILS_READ and those `answered` names, rendered as they were sent (the outbox keeps no body
    of an email rendered from its template: notifications/services.py)."""
    sent = Outbox.objects.filter(game_id=seat.game_id, seat_id=seat.pk).order_by("-id")
    rows = {row.pk: row for row in sent[:SENT_EMAILS_READ]}
    if answered is not None:
        reply = [answered[0], str(answered[1])]
        rows |= {row.pk: row for row in sent.filter(context__keys_of__reply=reply)[:ANSWERED_READ]}
    texts = []
    for row in rows.values():
        email = rendered(row, images=False)
        texts += [email.subject, email.text, html_as_text(email.html)]
    return texts


def _messages_told(seat: Seat) -> list[str]:
    """The players' messages the seat wrote or was sent, as its emails narrate them among the
    happenings, in both languages: players' words, no secret of the seat's, which a writer may
    repeat. Only the whole narration is skipped, so a rival's message that repeats a line of the
    writer's emails blinds nothing: its narration starts with who wrote it."""
    rows = Event.objects.filter(game_id=seat.game_id, type=MESSAGE_SENT).values_list("payload", flat=True)
    told = []
    for payload in rows:
        if payload["player"] == seat.faction or seat.faction in payload["to"]:
            for language in _languages():
                with translation.override(language):
                    told.append(str(describe(MESSAGE_SENT, payload, seat.faction, game=None)))
    return told


def _secret_lines(seat: Seat) -> list[str]:
    """H-SCREEN: the seat's own secret lines now, in both languages (games/mail/position.py)."""
    return secret_lines(load_game(seat.game).state, seat.faction, _languages())


def _languages() -> tuple[str, ...]:
    return tuple(code for code, _name in settings.LANGUAGES)
