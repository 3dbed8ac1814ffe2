"""Daily digests (docs/long-games.md): one email a day, at the hour the player chose, with what happened.

Polled by the beat task `games.send_digests`; the hour is read in the zone the player reads
times in (Seat.time_zone, else the game's DeadlineSettings.time_zone: words/clock.seat_zone), so
"8" is eight on the player's own clock, across clock changes too. A digest goes out once per day
(NotificationPreference.last_digest_on) and only when something happened since the last one
(last_digest_seq); its outbox key is (game, the last seq it covers, seat, "digest").
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.mail.outbox import mail_seat
from games.models import Event, Game, NotificationPreference
from games.reading.situation import load_game, whose_turn
from games.words.clock import seat_zone
from games.words.narration import tell

DIGEST_LINES = 60


def send_digests(now: datetime | None = None) -> int:
    """Queue every digest whose hour has come today; returns how many were queued."""
    now = now or timezone.now()
    queued = 0
    prefs = NotificationPreference.objects.filter(
        mode=NotificationPreference.Mode.DIGEST, unsubscribed=False, seat__game__status=Game.Status.ACTIVE
    ).select_related("seat__game")
    for pref in prefs:
        local = now.astimezone(seat_zone(pref.seat, pref.seat.game_id))
        if local.hour < pref.digest_hour or pref.last_digest_on == local.date():
            continue
        queued += _send_one(pref, local.date())
    return queued


def _send_one(pref: NotificationPreference, today) -> int:
    seat, game = pref.seat, pref.seat.game
    loaded = load_game(game)
    if loaded.seq <= pref.last_digest_seq:
        return 0
    rows = Event.objects.filter(game=game, seq__gt=pref.last_digest_seq).order_by("-seq")[:DIGEST_LINES]
    with transaction.atomic(), translation.override(seat.language):
        lines = tell(reversed(rows), seat.faction, game=game)  # the order's record left out (docs/export.md)
        mail_seat(
            game,
            seat,
            "digest",
            loaded.seq,
            _("Your daily digest · %(game)s") % {"game": game.name},
            [whose_turn(loaded.state, seat.faction)],
            reply_seq=loaded.seq,
            extra={"happenings": lines},
        )
        pref.last_digest_on, pref.last_digest_seq = today, loaded.seq
        pref.save(update_fields=["last_digest_on", "last_digest_seq"])
    return 1
