"""A new link for a player whose link opens nothing (expired, withdrawn, mistyped, cut short).

Games run for weeks and a link lives `links.max_age()` (30 days): a player who finds an old email,
or whose seat's links the organiser withdrew, would otherwise wait for the next turn email or for
the organiser. The page of a link that opens nothing (and /links/new/) asks for the player's email
address; every seat with that address gets an email with its current link, sent to the address
the seat has stored, never to another one. The page answers the same whatever the address, so it
never tells whether an address plays anywhere (`request_new_links` returns a count for tests and
the log only). The page hands the ask to a worker (ask_for_new_links, games/tasks.py), so the
answer takes no longer for an address that plays.

Bounds: at most one such email per seat per hour (the outbox key (game, hour, seat, "link")
keeps a second request in that hour from writing a second email), the newest `MAX_SEATS` seats of
an address, and few requests per client address (RATE_LIMITS "newlinks", aegea_pbem/security.py).
A seat that unsubscribed gets none (mail/outbox.wants_mail). Nothing in any game changes: no event,
no link version; the links of earlier emails keep working until they expire.

The answer to a reply to a withdrawn address (`answer_withdrawn_reply`) carries the same link but
is its own outbox kind, "withdrawn", keyed (game, hour, seat, "withdrawn"): once an hour too, but
never taken for a new link asked for in that hour, which would drop it as a duplicate and leave
the player thinking the order they emailed was read.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.mail.outbox import mail_seat
from games.models import Game, Seat
from games.reading.situation import load_game, whose_turn
from games.services.game_setup import same_address
from games.words.names import faction_name

log = logging.getLogger(__name__)
MAX_SEATS = 10  # an address's newest seats that get a new link for one request


def request_new_links(email: str, now: datetime | None = None) -> int:
    """Queue an email with its current link to every seat (newest first, at most MAX_SEATS) whose
    address is `email`; how many seats have it. Never tell the asker this number."""
    email = email.strip()
    found = Seat.objects.select_related("game").filter(email__iexact=email).order_by("-pk")
    seats = [seat for seat in found[:MAX_SEATS] if same_address(seat.email, email)]
    hour = int((now or timezone.now()).timestamp() // 3600)
    with transaction.atomic():
        for seat in seats:
            _mail_new_link(seat, hour, "link")
    log.info("new links asked for: %d seat(s)", len(seats))
    return len(seats)


def answer_withdrawn_reply(seat: Seat, now: datetime | None = None) -> None:
    """A reply from the seat's own address came to a reply address of it that was withdrawn (the
    organiser revoked the seat's links, or handed the seat over to the same address): tell it that
    nothing was changed and give it the current link and Reply-To (at most once an hour)."""
    with translation.override(seat.language):
        told = _(
            "Your email went to a reply address of %(faction)s that the organiser has withdrawn, so"
            " it was not read and nothing was changed. Your current link is below; to give an order,"
            " reply to this email."
        ) % {"faction": faction_name(seat.faction)}
    with transaction.atomic():
        _mail_new_link(seat, int((now or timezone.now()).timestamp() // 3600), "withdrawn", told)


def _mail_new_link(seat: Seat, hour: int, kind: str, told: str = "") -> None:
    """The email with the seat's current link (signed when it is sent), to the seat's own address;
    `kind` ("link" or "withdrawn") keeps the two reasons for it apart in the outbox key."""
    game = seat.game
    loaded = load_game(game)
    with translation.override(seat.language):
        paragraphs = [
            told
            or _(
                "Someone, probably you, asked for a new link to your seat of %(faction)s in this game."
                " Your personal link is below; keep it to yourself. If you did not ask for it, you can"
                " ignore this email: nothing was changed."
            )
            % {"faction": faction_name(seat.faction)}
        ]
        ended = game.status == Game.Status.ENDED
        if ended:  # H-END: said once, not followed by whose_turn's "The game has ended." again
            paragraphs.append(_("The game has ended; the link shows how it ended and its whole history."))
        else:
            paragraphs.append(whose_turn(loaded.state, seat.faction))
        mail_seat(
            game,
            seat,
            kind,
            hour,
            _("Your new link · %(game)s") % {"game": game.name},
            paragraphs,
            reply_seq=None if ended else loaded.seq,  # an ended game takes no orders by reply
        )
