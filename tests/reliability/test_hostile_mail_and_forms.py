"""Hostile input, part two: inbound email replies (anymail's Postmark and Mailgun webhooks) and the
player page's order forms, fuzzed: never a server error; a refused input changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.forms.models import model_to_dict
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.mail.keys import reply_address
from games.mail.outbox import preference
from games.models import Event, Seat
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.inbox.order_syntax import OrderSyntaxError, parse_order, read_reply
from games.words.clock import player_time_zones
from notifications.models import InboundMail, Outbox
from tests.inbox.support import inbound_settings, mailgun, postmark  # noqa: F401  (fixture)
from tests.order_loop_support import seats_to_act, two_player_game

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
words = st.sampled_from(
    [
        "pass",
        "move",
        "expand",
        "recruit",
        "fortify",
        "commit",
        "A1",
        "E5",
        "I9",
        "3",
        "-1",
        "deck",
        "bag",
        "message",
        "Hallo",
        ">",
        "zug",
        "passen",
        "\x00",
        "🏛",
        "999999999999",
    ]
)
reply_texts = st.lists(words, max_size=8).map(" ".join) | st.text(max_size=200)


@pytest.fixture
def game_on_turn(db):
    game = two_player_game()
    return game, seats_to_act(game)[0]


def parses_as_order(text: str, faction: str) -> bool:
    lines = read_reply(text)
    if not lines:
        return False
    try:
        return isinstance(parse_order(lines[0], faction), dict)
    except OrderSyntaxError:
        return False


@pytest.mark.django_db
@given(text=reply_texts, esp=st.sampled_from([postmark, mailgun]), forged=st.booleans())
@FUZZ
def test_inbound_replies_never_fail_and_only_a_readable_order_on_a_true_address_changes_the_game(
    client, game_on_turn, text, esp, forged
):
    game, seat = game_on_turn
    address = reply_address(seat, "o", load_game(game).seq)
    if forged:
        local, domain = address.split("@")
        address = f"{local[:-2]}{'xy' if not local.endswith('xy') else 'zz'}@{domain}"
    before, last_email = Event.objects.filter(game=game).count(), Outbox.objects.order_by("pk").last()
    response = esp(client, address, text)
    assert response.status_code == 200, response.content[:200]
    changed = Event.objects.filter(game=game).count() != before
    if forged or not parses_as_order(text, seat.faction):
        assert not changed
    # Every email it made goes to a seat's stored address (never the From), and the position an
    # answer now carries is its reader's own (H-SCREEN).
    seats = {s.pk: s for s in game.seats.all()}
    for email in Outbox.objects.filter(pk__gt=last_email.pk if last_email else 0):
        assert email.to_email == seats[email.seat_id].email
        viewer = email.context.get("position_of", {}).get("viewer", seats[email.seat_id].faction)
        assert viewer == seats[email.seat_id].faction


@pytest.mark.django_db
@given(
    cc=st.sampled_from(["@\x80", "<>", "@", "a@b@c", '"x" <@>', "orders+x@play.example.com"])
    | st.text(max_size=30),
    sender=st.sampled_from(["@\x80", "<>", "", "ana@example.com"]) | st.text(max_size=30),
)
@example(cc="@\x80", sender="@\x80")  # anymail takes both, and fails when they are read
@FUZZ
def test_a_reply_with_an_unreadable_cc_or_from_is_still_kept_by_its_reply_address(
    client, game_on_turn, cc, sender
):
    """The reply address is the key, not the From or Cc: a garbled one (anymail reads them only
    when asked) was a server error, which the ESP retries for days and the order was lost."""
    game, _ = game_on_turn
    seat = seats_to_act(game)[0]
    before = InboundMail.objects.count()
    response = postmark(client, reply_address(seat, "o", load_game(game).seq), "pass", sender=sender, cc=cc)
    if response.status_code == 400:  # anymail could not build the email from the post at all
        assert response.content == b"Unreadable post." and InboundMail.objects.count() == before
    else:
        assert response.status_code == 200, response.content[:200]
        assert InboundMail.objects.count() == before + 1


form_fields = st.dictionaries(
    st.sampled_from(
        [
            "kind",
            "expected_seq",
            "space",
            "origin",
            "destinations",
            "phalanxes",
            "navigators",
            "blanks",
            "coins",
            "source",
            "government",
            "offer",
            "command",
            "x",
        ]
    ),
    st.text(max_size=12)
    | st.integers(-5, 10**12).map(str)
    | st.sampled_from(["pass", "move", "suggested", "{}"]),
    max_size=6,
)


@pytest.mark.django_db
@given(fields=form_fields)
@FUZZ
def test_order_forms_never_fail_with_a_server_error_and_refusals_change_nothing(client, game_on_turn, fields):
    game, seat = game_on_turn
    url = reverse("games:play", args=[game.pk, link_token(seat)])
    before = Event.objects.filter(game=game).count()
    response = client.post(url, fields)
    assert response.status_code in (302, 400, 409), response.status_code
    if response.status_code != 302:  # only an accepted order redirects
        assert Event.objects.filter(game=game).count() == before


zones = st.one_of(
    st.sampled_from(["Europe/Berlin", "Europe/London", "UTC", "", "GB", "localtime", "Factory", "Etc/GMT+1"]),
    st.sampled_from(["europe/berlin", " Europe/Berlin", "Europe/Berlin\x00", "Europe/../UTC", "US/Eastern"]),
    st.text(max_size=40),
    st.text(min_size=1000, max_size=5000),  # huge
)


@pytest.mark.django_db
@given(zone=zones)
@FUZZ
def test_the_one_tap_time_zone_takes_only_a_zone_of_the_list_and_a_refusal_changes_nothing(
    client, game_on_turn, zone
):
    """The player page's "Show my times in Europe/Berlin" (web/views/table.py "time-zone"): any text is a
    redirect to the page with a clear refusal or the zone saved, and nothing else of the seat
    (its preferences, language, subscription) or the game ever changes."""
    game, seat = game_on_turn
    seat.refresh_from_db()
    kept = (seat.language, seat.email, seat.token_version, model_to_dict(preference(seat)))
    before = (seat.time_zone, Event.objects.filter(game=game).count())
    token = link_token(seat)
    url = reverse("games:play-rest", args=[game.pk, token, "time-zone/"])
    fields = {"time_zone": zone, "mode": "digest", "language": "de", "unsubscribed": "1", "subscribe": "0"}
    response = client.post(url, fields)
    assert response.status_code == 302 and response["Location"] == reverse(
        "games:seat", args=[game.pk, seat.pk]
    )
    told = " ".join(str(message) for message in get_messages(response.wsgi_request))
    seat = Seat.objects.get(pk=seat.pk)
    assert (seat.language, seat.email, seat.token_version, model_to_dict(preference(seat))) == kept
    assert Event.objects.filter(game=game).count() == before[1]
    if zone in ("", *player_time_zones()):
        assert seat.time_zone == zone
        assert f"Your times are now shown in {zone or 'UTC'}." in told
    else:
        assert seat.time_zone == before[0]
        assert "Unknown time zone; choose one from the list" in told
