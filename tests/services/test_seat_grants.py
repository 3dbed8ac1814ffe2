"""Seat grants kept by the server (games/services/seat_grants.py): the daily prune of those that
admit nobody any more."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import SeatGrant
from games.reading.links import LinkError
from games.services.seat_grants import admitted_seat, grant_seat, new_browser_id, prune_seat_grants
from tests.order_loop_support import two_player_game

pytestmark = pytest.mark.django_db


def test_the_prune_deletes_the_grants_revoked_or_expired_a_day_ago_and_keeps_the_rest():
    seat = two_player_game().seats.get(faction="athens")
    now = timezone.now()
    live, revoked_today, revoked_before, expired_before = (grant_seat(seat, new_browser_id()) for _ in "abcd")
    rows = list(SeatGrant.objects.filter(seat=seat).order_by("pk"))
    SeatGrant.objects.filter(pk=rows[1].pk).update(revoked_at=now - timedelta(hours=2))
    SeatGrant.objects.filter(pk=rows[2].pk).update(revoked_at=now - timedelta(days=2))
    SeatGrant.objects.filter(pk=rows[3].pk).update(expires=now - timedelta(days=2))

    assert prune_seat_grants(now) == 2
    assert list(SeatGrant.objects.order_by("pk").values_list("pk", flat=True)) == [rows[0].pk, rows[1].pk]
    assert admitted_seat(live, seat.game_id, seat.pk) == seat
    for key in (revoked_today, revoked_before, expired_before):
        with pytest.raises(LinkError, match="signed_out"):
            admitted_seat(key, seat.game_id, seat.pk)


def test_the_beat_prunes_the_seat_grants_daily(settings):
    from games.tasks import prune_seat_grants

    entry = settings.CELERY_BEAT_SCHEDULE["games-prune-seat-grants"]
    assert (entry["task"], entry["schedule"]) == (prune_seat_grants.name, 86400.0)
    assert prune_seat_grants.name == "games.prune_seat_grants"
    seat = two_player_game().seats.get(faction="athens")
    grant_seat(seat, new_browser_id(), now=timezone.now() - timedelta(days=32))  # expired two days ago
    assert prune_seat_grants.delay().get() == 1
    assert not SeatGrant.objects.exists()
