"""Hostile input, part two: inbound email replies (anymail's Postmark and Mailgun webhooks) and the
player page's order forms, fuzzed: never a server error; a refused input changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.links import link_token
from games.mail_keys import reply_address
from games.models import Event
from games.order_syntax import OrderSyntaxError, parse_order, read_reply
from games.situation import load_game
from tests.order_loop_support import seats_to_act, two_player_game
from tests.test_email_orders import inbound_settings, mailgun, postmark  # noqa: F401  (fixture)

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
    before = Event.objects.filter(game=game).count()
    response = esp(client, address, text)
    assert response.status_code == 200, response.content[:200]
    changed = Event.objects.filter(game=game).count() != before
    if forged or not parses_as_order(text, seat.faction):
        assert not changed


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
