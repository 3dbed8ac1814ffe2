"""The emails of long games (docs/long-games.md), and which emails a player wants.

Every email to a seat carries its Reply-To token (orders by email, games/mail/keys.py) and
List-Unsubscribe headers. The kinds and their outbox keys (game, seq, seat, kind), which make
each of them go out once however often the beat task runs:

| kind | seq | when |
| --- | --- | --- |
| reminder-N | the event that opened the obligation | the N-th reminder point passed |
| missed | the DeadlinePassed event | the server gave the default order |
| absent | the DeadlinePassed event | to the organiser, after N missed turns in a row |
| message | the MessageSent event | a player wrote to this player |
| update | the order's last event | preference "after every turn" |
| digest | the game's last seq when it was sent | preference "daily digest" |
| reply | the InboundMail id | the answer to an email order |
| link | the hour it was asked in | the player asked for a new link (games/services/fresh_links.py) |
| withdrawn | the hour the reply came in | a reply to a withdrawn address: not read, here is the link |

Preferences (NotificationPreference): "only when I must act" (the default) gets turns,
sealed orders, offers, reminders, missed deadlines, messages and the end; "after every turn" also
an update after other players' orders; "daily digest" the must-act emails and one digest a day.
Unsubscribed: nothing but the answers to the player's own emails. After a spam complaint
(`essential_only`, games/services/delivery_problems.py): only the emails needed to play (ESSENTIAL).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from games.mail.board_picture import board_context
from games.mail.keys import Reply, keys_named, organiser_mail_headers
from games.mail.position import answer_position
from games.models import Game, NotificationPreference, Seat
from games.reading.situation import happenings_when_sent, load_game, whose_turn
from games.words.clock import clock_of, deadline_text
from games.words.names import faction_name, organiser_own_name
from notifications.services import enqueue

OPTIONAL = {"update", "digest"}
# What a seat that marked an email as spam still gets: its link (also a new one it asked for), its
# turns, offers to answer, the end, and answers to its own emails (also to one sent to a withdrawn
# address). Reminders, missed-deadline notices, messages and updates stop.
ESSENTIAL = {"welcome", "turn", "offer", "ended", "reply", "link", "withdrawn", "taken_back"}


def preference(seat: Seat) -> NotificationPreference:
    """The seat's preferences (an unsaved default row when it has none). Seats fetched with
    `select_related("preference")` (an order's recipients, games/mail/turns.py) cost no query here."""
    return _stored_preference(seat) or NotificationPreference(seat=seat)


def _stored_preference(seat: Seat) -> NotificationPreference | None:
    if Seat.preference.is_cached(seat):
        try:
            return seat.preference
        except NotificationPreference.DoesNotExist:
            return None
    return NotificationPreference.objects.filter(seat=seat).first()


@functools.cache
def _defaults() -> NotificationPreference:
    """The preferences of a seat with no row, for reading only (wants_mail runs per email of an order)."""
    return NotificationPreference()


def wants_mail(seat: Seat, kind: str) -> bool:
    """Whether `seat` is to be mailed an email of `kind` (see the table above)."""
    if kind == "reply":
        return True
    pref = _stored_preference(seat) or _defaults()
    if pref.unsubscribed:
        return False
    if pref.essential_only and kind not in ESSENTIAL:
        return False
    if kind == "update":
        return pref.mode == NotificationPreference.Mode.EVERY_TURN
    if kind == "digest":
        return pref.mode == NotificationPreference.Mode.DIGEST
    return True


def mail_seat(
    game: Game,
    seat: Seat,
    kind: str,
    seq: int,
    subject: str,
    paragraphs: list[str],
    reply_seq: int | None = None,
    extra: dict[str, Any] | None = None,
    reply: Reply | None = None,
    deadline: str | None = None,
) -> None:
    """Queue one notice to `seat` (subject and paragraphs already in the seat's language).

    `reply_seq`: the seq an order sent by replying is decided on (the game's head now);
    `reply` replaces what a reply is for (("m", faction): a message's reply goes back to its
    sender). The links and Reply-To are signed when the email is sent (keys.py). `deadline`:
    the seat's deadline in words (in the seat's zone), when the caller knows it (an order knows
    the clocks it left); else it is read from the seat's clock.
    """
    if not wants_mail(seat, kind):
        return
    if reply is None and reply_seq is not None:
        reply = ("o", reply_seq)
    if reply is not None and reply[0] == "o" and "position_of" not in (extra or {}):
        # A notice one can order by replying to (a reminder, the missed deadline, a digest, an update,
        # a substitute's welcome, a new link) tells the position that order is decided on, as the
        # turn email and the answer to an email order do: else the reply is decided blind.
        extra = {**_position_at(game, seat, int(reply[1])), **(extra or {})}
    with translation.override(seat.language):
        if deadline is None:
            clock = clock_of(game, seat.faction)
            deadline = deadline_text(clock.deadline if clock else None, game, reader=seat)
        context = {
            "game_name": game.name or str(game.pk),
            "player_name": seat.name,
            "faction_name": faction_name(seat.faction),
            "subject": subject,
            "paragraphs": paragraphs,
            "keys_of": keys_named(seat, reply),
            "deadline": deadline,
            **board_context(game.pk, seq, seat.pk, kind),  # the board picture at `seq`, for some kinds
            **(extra or {}),
        }
    enqueue(
        game_id=game.pk,
        seq=seq,
        seat_id=seat.pk,
        kind=kind,
        to_email=seat.email,
        language=seat.language,
        template="notice",
        context=context,
    )


def _position_at(game: Game, seat: Seat, seq: int) -> dict[str, Any]:
    """position.answer_position of the game at `seq` for `seat` (H-SCREEN: the seat's own)."""
    return answer_position(load_game(game, up_to_seq=seq).state, seat.faction, seq)


def mail_organiser(game: Game, seat: Seat, kind: str, seq: int, subject: str, paragraphs: list[str]) -> None:
    """A notice to the organiser about `seat` (no organiser, a deactivated account or no address:
    nobody to tell; docs/long-games.md "Mail preferences")."""
    organiser = game.organiser
    email = organiser.email if organiser is not None and organiser.is_active else ""
    if not email:
        return
    from django.conf import settings
    from django.urls import reverse

    link = f"{settings.SITE_URL}{reverse('games:organiser-deadlines', args=[game.pk])}"
    enqueue(
        game_id=game.pk,
        seq=seq,
        seat_id=seat.pk,
        kind=kind,
        to_email=email,
        language=game.language,
        template="notice",
        context={
            "game_name": game.name or str(game.pk),
            # Greeted by the name they gave, else a plain "Hello,": never by their user name, which an
            # account made by signing in by email has as its address (docs/front-door.md "Sign-in").
            "player_name": organiser_own_name(organiser),
            "subject": subject,
            "paragraphs": paragraphs,
            "link": link,
        },
        headers=organiser_mail_headers(game),  # one click stops these alerts for this game
    )


def mail_updates(
    game: Game, seats: list[Seat], state: Any, seq: int, deadline: Callable[[Seat], str] | None = None
) -> None:
    """Preference "after every turn": what happened, to the seats that need not act now.
    `deadline(seat)`: each seat's deadline in words, when the caller knows the clocks."""
    for seat in seats:
        if not wants_mail(seat, "update"):
            continue
        with translation.override(seat.language):
            subject = _("What happened · %(game)s") % {"game": game.name}
            mail_seat(
                game,
                seat,
                "update",
                seq,
                subject,
                [whose_turn(state, seat.faction)],
                reply_seq=seq,
                extra=happenings_when_sent(game, seat.faction, seq),
                deadline=deadline(seat) if deadline else None,
            )
