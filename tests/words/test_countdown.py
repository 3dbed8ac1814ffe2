"""The deadline as a countdown on the player page (docs/long-games.md, "Deadlines"), in English and German."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from games.words.countdown import countdown_text

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("left", "english", "german"),
    [
        (timedelta(days=1, hours=3, minutes=40), "in 1 day 3 h", "in 1 Tag 3 Std."),
        (timedelta(days=2, hours=0), "in 2 days 0 h", "in 2 Tagen 0 Std."),
        (timedelta(hours=5, minutes=20), "in 5 h 20 min", "in 5 Std. 20 Min."),
        (timedelta(minutes=12, seconds=59), "in 12 min", "in 12 Min."),
        (timedelta(seconds=30), "now", "jetzt"),
        (-timedelta(hours=1), "now", "jetzt"),
    ],
)
def test_the_countdown_reads_the_same_in_every_zone_in_english_and_german(left, english, german):
    with translation.override("en"):
        assert countdown_text(NOW + left, NOW) == english
    with translation.override("de"):
        assert countdown_text(NOW + left, NOW) == german
