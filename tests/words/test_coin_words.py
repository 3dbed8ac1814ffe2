"""Coins in words (H-BAG): each design counted in its language's plural ("2 owls", "2 Eulen"), and a
reply that copies the plural from an email is read as the design."""

from __future__ import annotations

from django.utils import translation

from games.services.inbox.order_syntax import parse_order
from games.words.names import coins_text
from games.words.trade import bundle_text


def test_h_bag_coins_are_counted_in_the_plural_in_english_and_german() -> None:
    coins = {"owl": 2, "pegasus": 1, "shield": 3, "turtle": 2}
    assert coins_text(coins) == "2 owls, 1 pegasus, 3 shields, 2 turtles"
    assert coins_text({"owl": 1}) == "1 owl"
    assert bundle_text({"ap": 2, "coins": {"owl": 2}}) == "2 AP, 2 owls"
    with translation.override("de"):
        assert coins_text(coins) == "2 Eulen, 1 Pegasus, 3 Schilde, 2 Schildkröten"
        assert coins_text({"turtle": 1}) == "1 Schildkröte"
        assert coins_text({}) == "keine Münzen"


def test_h_bag_a_reply_may_name_coins_in_the_plural_the_email_wrote() -> None:
    singular = parse_order("commit owl 2 turtle 1", "sparta")
    assert parse_order("commit 2 owls 1 turtle", "sparta") == singular
    assert parse_order("einsetzen 2 Eulen 1 Schildkröte", "sparta") == singular
