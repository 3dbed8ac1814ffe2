"""Signed player links (docs/order-loop.md): unforgeable, expiring, bound to one game and one seat, revocable.

A link that opens nothing answers 403/404 with a clear page, changes nothing and mails nobody.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail, signing
from django.urls import reverse

from games.models import Event, Seat
from games.reading.links import SALT, LinkError, link_token, resolve_link, revoke_links
from notifications.models import Outbox
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return two_player_game()


def play_url(game_id: int, token: str) -> str:
    return reverse("games:play", args=[game_id, token])


def counts(game) -> tuple[int, int, int]:
    """Events in the log, outbox rows and sent emails: what a refused link must leave alone."""
    return (
        Event.objects.filter(game=game).count(),
        Outbox.objects.filter(game_id=game.pk).count(),
        len(mail.outbox),
    )


def post_pass(client, url: str, seq: int):
    return client.post(url, {"kind": "pass", "expected_seq": seq})


def test_link_opens_its_own_seat(game):
    seat = seats_to_act(game)[0]
    assert resolve_link(link_token(seat), game.pk) == seat


def test_link_loads_its_seat_and_game_in_one_query(game, django_assert_num_queries):
    """The lookup every API call makes (written out once, not compiled by the ORM each time)
    gives the same seat and game as the ORM, typed as the ORM types them."""
    seat = seats_to_act(game)[0]
    token = link_token(seat)
    with django_assert_num_queries(1):
        opened = resolve_link(token, game.pk)
        opened_game = opened.game
    expected = Seat.objects.select_related("game").get(pk=seat.pk)

    def fields(row):
        return {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}

    assert fields(opened) == fields(expected)
    assert fields(opened_game) == fields(expected.game)
    assert opened.language_chosen is False and opened.created.tzinfo is not None
    assert not opened._state.adding and opened._state.db == "default"


def test_forged_link_is_refused_with_403_and_changes_nothing(client, game):
    seat = seats_to_act(game)[0]
    before = counts(game)
    events = before[0]
    token = link_token(seat)
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    signed_elsewhere = signing.dumps({"g": game.pk, "s": seat.pk, "v": 1}, salt="another-purpose")
    for bad in (forged, signed_elsewhere, "not-a-token"):
        response = post_pass(client, play_url(game.pk, bad), events)
        assert response.status_code == 403
        assert "This link is not valid" in response.content.decode()
        assert client.get(play_url(game.pk, bad)).status_code == 403
    assert counts(game) == before


def test_expired_link_is_refused_with_403(client, game, settings):
    settings.LINK_MAX_AGE = timedelta(days=30)
    seat = seats_to_act(game)[0]
    before = counts(game)
    events = before[0]
    token = link_token(seat)
    with time_machine.travel(timedelta(days=31)):
        response = post_pass(client, play_url(game.pk, token), events)
        assert response.status_code == 403
        assert "This link has expired" in response.content.decode()
        with pytest.raises(LinkError) as error:
            resolve_link(token, game.pk)
        assert error.value.reason == "expired"
    assert counts(game) == before


def test_link_for_another_game_is_refused_with_404(client, game):
    other = two_player_game()
    seat = seats_to_act(game)[0]
    before = counts(other)
    response = post_pass(client, play_url(other.pk, link_token(seat)), before[0])
    assert response.status_code == 404
    assert "This link does not belong to this game" in response.content.decode()
    assert counts(other) == before


def test_link_naming_another_players_seat_is_refused(client, game):
    """A signed payload edited to name the other seat fails the signature: 403, nothing changes."""
    seat = seats_to_act(game)[0]
    other = game.seats.exclude(pk=seat.pk).get()
    before = counts(game)
    events = before[0]
    token = link_token(other)
    payload, rest = token.split(":", 1)
    mine = link_token(seat).split(":", 1)[0]
    response = post_pass(client, play_url(game.pk, f"{mine}:{rest}"), events)
    assert response.status_code == 403
    assert counts(game) == before


def test_other_players_link_cannot_act_for_the_player_on_turn(client, game):
    """The waiting player's own link opens their page, but their Pass is refused by the rules."""
    on_turn = seats_to_act(game)[0]
    waiting = game.seats.exclude(pk=on_turn.pk).get()
    before = counts(game)
    events = before[0]
    url = play_url(game.pk, link_token(waiting))
    page = client.get(url).content.decode()
    assert "Your order" not in page
    response = post_pass(client, url, events)
    assert response.status_code == 400
    assert "It is not your turn" in response.content.decode()
    assert counts(game) == before


def test_revoked_link_is_refused_and_a_fresh_one_works(client, game):
    seat = seats_to_act(game)[0]
    old = link_token(seat)
    revoke_links(seat)
    before = counts(game)
    events = before[0]
    response = post_pass(client, play_url(game.pk, old), events)
    assert response.status_code == 403
    assert "withdrawn" in response.content.decode()
    assert counts(game) == before
    assert client.get(play_url(game.pk, link_token(seat))).status_code == 200


def test_token_payload_is_signed_with_its_own_salt(game):
    seat = seats_to_act(game)[0]
    assert signing.loads(link_token(seat), salt=SALT) == {"g": game.pk, "s": seat.pk, "v": seat.token_version}
