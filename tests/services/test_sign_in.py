"""Sign-in requests are pruned (docs/front-door.md "Sign-in"): the daily beat task deletes those that
expired or were spent more than a day ago, and keeps the rest."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.mail.frontdoor import token_for
from games.models import SignInRequest
from games.services.sign_in import (
    SignInError,
    ask_for_sign_in,
    check_sign_in,
    prune_sign_in_requests,
    use_sign_in,
)

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def _asked(email: str, ago: timedelta) -> SignInRequest:
    with time_machine.travel(NOW - ago, tick=False):
        return ask_for_sign_in(email, "en")


def test_requests_expired_or_spent_a_day_ago_are_deleted_and_the_others_kept():
    fresh = _asked("fresh@example.com", timedelta(minutes=5))
    expired_lately = _asked("lately@example.com", timedelta(hours=3))  # expired 2.5 hours ago
    expired_long_ago = _asked("old@example.com", timedelta(days=2))
    spent_lately = _asked("spent@example.com", timedelta(minutes=20))
    with time_machine.travel(NOW - timedelta(minutes=19), tick=False):
        use_sign_in(token_for("signin", spent_lately.pk))
    spent_long_ago = _asked("spent-old@example.com", timedelta(days=1, hours=2))
    with time_machine.travel(NOW - timedelta(days=1, hours=1, minutes=50), tick=False):
        use_sign_in(token_for("signin", spent_long_ago.pk))

    with time_machine.travel(NOW, tick=False):
        assert prune_sign_in_requests() == 2
        kept = set(SignInRequest.objects.values_list("pk", flat=True))
        assert kept == {fresh.pk, expired_lately.pk, spent_lately.pk}
        assert check_sign_in(token_for("signin", fresh.pk)) == fresh  # still signs in
        with pytest.raises(SignInError, match="not valid"):  # a pruned request's link signs nobody in
            check_sign_in(token_for("signin", expired_long_ago.pk))
        assert prune_sign_in_requests() == 0
    # A new request does not take a pruned one's id, so an old link never names it.
    assert ask_for_sign_in("new@example.com", "en").pk > spent_long_ago.pk


def test_the_beat_prunes_the_sign_in_requests_daily(settings):
    from games.tasks import prune_sign_ins

    entry = settings.CELERY_BEAT_SCHEDULE["games-prune-sign-ins"]
    assert (entry["task"], entry["schedule"]) == (prune_sign_ins.name, 86400.0)
    assert prune_sign_ins.name == "games.prune_sign_ins"
    _asked("old@example.com", timedelta(days=3))
    assert prune_sign_ins.delay().get() == 1
    assert not SignInRequest.objects.exists()
