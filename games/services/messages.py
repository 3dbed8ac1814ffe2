"""Messages between players (docs/long-games.md "Messages"): the negotiation that trade lives on.

A message is the event "MessageSent" {player, to: [factions], text}: in the log, visible only to
its sender and recipients until the game ends (engine.table.message_visible; the redaction of
history and exports hides it from everyone else). Each recipient is mailed the text; replying
to that email sends the reply back to the sender the same way (Reply-To "m" token), within the
seat's rate-limit bucket (seat_bucket, which the page's requests spend too: games/web/seat_limits.py),
and within the daily cap per rival (games/services/message_caps.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from aegea_pbem.rate_limits import spend
from games import engine
from games.engine.table import MESSAGE_SENT, message_visible
from games.eventstore.store import ConcurrencyError, append_events
from games.mail.keys import Reply, inbound_domain
from games.mail.outbox import mail_seat
from games.models import Event, Game, Seat
from games.services.message_caps import cap_refusal
from games.services.relay import reply_text_for_rivals, without_server_secrets
from games.words.names import faction_name

MAX_LENGTH = 4000
ALL = "all"


class MessageRefused(ValueError):
    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class ShownMessage:
    seq: int
    sender: str
    to: list[str]
    text: str
    mine: bool


def clean_text(text: str) -> str:
    """Printable text only: no NUL or other control characters but line breaks and tabs."""
    kept = "".join(c for c in text if c in "\n\t" or (c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF))
    return kept.strip()


def send_message(seat: Seat, to: str | list[str], text: str) -> Event:
    """Append "MessageSent" from `seat` to one rival (a faction) or to all ("all"), and mail them;
    refused (MessageRefused, nothing appended nor mailed) over the daily cap per rival."""
    game = seat.game
    if game.status == Game.Status.ENDED:
        raise MessageRefused(_("The game has ended; messages are closed."))
    rivals = [f for f in game.seats.values_list("faction", flat=True) if f != seat.faction]
    recipients = rivals if to == ALL or to == [ALL] else ([to] if isinstance(to, str) else list(to))
    if not recipients or any(r not in rivals for r in recipients):
        raise MessageRefused(_("Write to a rival in this game, or to all."))
    text = without_server_secrets(clean_text(text))
    if not text:
        raise MessageRefused(_("The message is empty."))
    if len(text) > MAX_LENGTH:
        raise MessageRefused(_("A message is at most %(n)s characters long.") % {"n": MAX_LENGTH})
    payload = {"player": seat.faction, "to": sorted(recipients), "text": text}
    for _attempt in range(5):
        head = game.events.order_by("-seq").values_list("seq", flat=True).first() or 0
        # The daily cap per rival, counted up to this head: a message appended since moves the
        # head, and the retry counts it (games/services/message_caps.py).
        if refusal := cap_refusal(game, seat.faction, recipients):
            raise MessageRefused(refusal)
        try:
            with transaction.atomic():
                row = append_events(game, head, [engine.Event(MESSAGE_SENT, payload)], actor=seat.faction)[0]
                _mail_recipients(game, seat, row)
            return row
        except ConcurrencyError:
            continue
    raise MessageRefused(_("The game is busy; please try again."))


def _mail_recipients(game: Game, sender: Seat, row: Event) -> None:
    for seat in game.seats.filter(faction__in=row.payload["to"]):
        with translation.override(seat.language):
            subject = _("%(player)s sent you a message · %(game)s") % {
                "game": game.name,
                "player": faction_name(sender.faction),
            }
            paragraphs = [
                _("%(player)s (%(name)s) writes to %(to)s:")
                % {
                    "player": faction_name(sender.faction),
                    "name": sender.name,
                    "to": ", ".join(faction_name(f) for f in row.payload["to"]),
                },
                # Only a Reply-To to the inbound address reaches the game; without one, the page does.
                (
                    _("Reply to this email to answer %(player)s; your reply goes into the game as a message.")
                    if inbound_domain()
                    else _("To answer %(player)s, write on the game's page: follow the link below.")
                )
                % {"player": faction_name(sender.faction)},
            ]
            if inbound_domain():  # mail_keys.keys_signed: the link carries no key a reply could quote
                paragraphs.append(
                    _(
                        "The link below opens the game in a browser where you opened your personal link"
                        " before; it holds no key to your seat."
                    )
                )
        mail_seat(
            game,
            seat,
            "message",
            row.seq,
            subject,
            paragraphs,
            extra={"quote": row.payload["text"].splitlines()},
            reply=("m", sender.faction),
        )


def messages_for(game: Game, viewer: str | None, limit: int = 50) -> list[ShownMessage]:
    """The messages `viewer` may read, newest last (everyone's once the game has ended)."""
    over = game.status == Game.Status.ENDED
    rows = Event.objects.filter(game=game, type=MESSAGE_SENT).order_by("-seq")
    shown = []
    for row in rows.iterator():
        if message_visible(row.payload, viewer, over):
            p = row.payload
            shown.append(ShownMessage(row.seq, p["player"], p["to"], p["text"], p["player"] == viewer))
            if len(shown) >= limit:
                break
    return list(reversed(shown))


def seat_bucket(game_id: int, seat_id: int, version: int) -> str:
    """A seat's bucket at a link version: a revoked link's holder spends the old version's, not the
    seat's new one."""
    return f"seat:{game_id}:{seat_id}:{version}"


@dataclass(frozen=True)
class MailedMessage:
    """A message written in an email reply, as sent; `left_out`: the start of the pasted original
    left out below the writer's words (games/services/relay.py), "" if none, so the writer is shown
    what left and what did not."""

    event: Event
    left_out: str


def send_mailed_message(
    seat: Seat, to: str | list[str], text: str, answered: Reply | None = None
) -> MailedMessage:
    """`send_message` for a message written in an email reply (H-SCREEN: only the writer's own words,
    games/services/relay.py), within the seat's "orders" limit: over it, MessageRefused (the reply's
    answer says so) and nothing is created. `answered`: what the reply's address is for."""
    wait = spend("orders", seat_bucket(seat.game_id, seat.pk, seat.token_version))
    if wait:
        raise MessageRefused(
            _(
                "You have sent many messages in a short time, so this one was not sent."
                " Please wait %(seconds)s seconds, then send it again."
            )
            % {"seconds": wait}
        )
    written = reply_text_for_rivals(seat, text, answered)
    return MailedMessage(send_message(seat, to, written.text), written.left_out)
