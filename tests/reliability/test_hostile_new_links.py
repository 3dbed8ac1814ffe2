"""Hostile input, part three: asking for a new link (/links/new/, games/services/fresh_links.py), a reply to a
withdrawn reply address (notifications/inbound.py) and the link of a deleted game (games/reading/links.py
"gone"), fuzzed: never a server error; nothing in any game changes; the new-link page never tells
whether an address plays; an email goes only to a seat's own stored address, once an hour."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.core import signing
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.mail.keys import reply_address
from games.models import Event, Seat
from games.reading.links import SALT, LinkError, resolve_link, revoke_links
from notifications.models import Outbox
from tests.browser_like_client import BrowserLikeClient
from tests.inbox.support import inbound_settings, mailgun, postmark  # noqa: F401  (fixture)
from tests.order_loop_support import two_player_game

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
NEW_LINK = "/links/new/"
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
# Inside one hour: a seat gets at most one new-link email an hour, however often it is asked.
ONE_HOUR = datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC)

odd_addresses = st.one_of(
    st.emails(),
    st.text(max_size=60),
    st.text(max_size=3000),  # huge
    st.builds(
        lambda local, domain: f"{local}@{domain}",
        st.text(min_size=1, max_size=20),
        st.sampled_from(["example.com", "exämple.com", "EXAMPLE.COM", "example.com.", "xn--exmple-cua.com"]),
    ),
    st.sampled_from(["ana@example.com\x00", "ana@example.com\n", "ana@example.com, ben@example.com"]),
    st.sampled_from(["<ana@example.com>", "Ana <ana@example.com>", "ana@ex\u0430mple.com", "\u212aana@x.de"]),
)


def ask(address: str) -> tuple[int, str, bytes]:
    """Post the form as a fresh browser does: the status, where it leads, and the page without its
    CSRF token (the only part that differs between two browsers)."""
    response = BrowserLikeClient().post(NEW_LINK, {"email": address})
    return response.status_code, response.get("Location", ""), CSRF.sub(b"", response.content)


def game_state() -> tuple[int, list[tuple[int, int, str, str]]]:
    """Everything asking could change: the events, and each seat's link version and address."""
    seats = Seat.objects.order_by("pk").values_list("pk", "token_version", "email", "time_zone")
    return Event.objects.count(), list(seats)


@pytest.fixture
def game(db):
    return two_player_game()


@pytest.fixture
def withdrawn(game) -> tuple[Seat, str]:
    """Athens and a reply address of its that the organiser withdrew (its links revoked)."""
    seat = game.seats.get(faction="athens")
    address = reply_address(seat, "o", Event.objects.filter(game=game).count())
    revoke_links(seat)
    return seat, address


@pytest.mark.django_db
@given(address=odd_addresses)
@FUZZ
def test_any_text_on_the_new_link_page_is_answered_clearly_and_mails_only_a_seats_own_address(game, address):
    before, outbox = game_state(), Outbox.objects.count()
    with time_machine.travel(ONE_HOUR, tick=False):
        status, location, _page = ask(address)
    assert status in (302, 400)
    assert game_state() == before
    new = list(Outbox.objects.order_by("pk").values_list("kind", "to_email", "seat_id")[outbox:])
    if status == 400:  # refused next to the field: nothing queued
        assert new == []
    else:
        assert location == f"{NEW_LINK}?sent=1"
        seats = {seat.pk: seat.email for seat in Seat.objects.all()}
        assert all(kind == "link" and seats[seat_id] == to for kind, to, seat_id in new)
    # However often and however spelled, one new-link email per seat in the hour.
    assert Outbox.objects.filter(kind="link").count() <= 2


@pytest.mark.django_db
@given(
    spelling=st.sampled_from(["ana@example.com", "ANA@example.COM", " Ana@Example.com ", "ben@example.com"]),
    stranger=st.emails().filter(lambda a: a.split("@")[0].casefold() not in ("ana", "ben")),
)
@FUZZ
def test_the_new_link_page_answers_a_known_and_an_unknown_address_identically(game, spelling, stranger):
    known, unknown = ask(spelling), ask(stranger)
    assert known == unknown
    assert known[:2] == (302, f"{NEW_LINK}?sent=1")
    # The page it leads to (the same for both: it knows nothing of the address).
    assert BrowserLikeClient().get(known[1]).content == BrowserLikeClient().get(unknown[1]).content


@pytest.mark.django_db
@given(
    sender=odd_addresses | st.sampled_from(["ANA@EXAMPLE.COM", " ana@example.com", "ben@example.com"]),
    esp=st.sampled_from([postmark, mailgun]),
)
@example(sender="ana@example.com", esp=postmark)  # the seat's own address: answered, once
@example(sender="@\x80", esp=postmark)  # a From anymail takes, and fails on when it is read
@example(sender="ana@example.com, Eve <eve@example.org>", esp=mailgun)  # two senders in one From
@example(sender="0@", esp=mailgun)  # Python's header parser raises IndexError on it: 400, not 500
@FUZZ
def test_a_forged_from_on_a_reply_to_a_withdrawn_address_mails_only_the_seats_own_address(
    client, withdrawn, sender, esp
):
    """Whatever the From says, the answer (if any) goes to the withdrawn seat's stored address, at
    most once an hour: a forged From can make us mail a player their own link, nobody else."""
    seat, address = withdrawn
    before, outbox = game_state(), Outbox.objects.count()
    with time_machine.travel(ONE_HOUR, tick=False):
        response = esp(client, address, "pass", sender=sender)
    assert response.status_code in (200, 400)  # 400: a From anymail cannot read
    assert game_state() == before
    new = list(Outbox.objects.order_by("pk").values_list("to_email", "kind", "context")[outbox:])
    assert [(to, kind) for to, kind, _ in new] in ([], [(seat.email, "withdrawn")])
    # It tells the position a reply to it orders on: the seat's own (H-SCREEN).
    assert all(context["position_of"]["viewer"] == seat.faction for *_, context in new)
    assert Outbox.objects.filter(kind="withdrawn").count() <= 1  # once in the hour


signed_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("gsvx"), inner, max_size=4),
    max_leaves=8,
)


@pytest.mark.django_db
@given(
    payload=st.fixed_dictionaries(
        {"g": st.integers(-(2**70), 2**70), "s": st.integers(-(2**70), 2**70), "v": st.integers(0, 3)}
    )
    | signed_values
)
@FUZZ
def test_a_link_we_signed_for_no_seat_of_this_game_is_gone_or_refused_never_a_server_error(game, payload):
    """A deleted game's link ("gone"), or any value signed with the link salt: a clear 403/404 page
    with the new-link form, and nothing changes (the link is ours, so it is signed correctly)."""
    token = signing.dumps(payload, salt=SALT, compress=False)
    game_id = payload["g"] if isinstance(payload, dict) and type(payload.get("g")) is int else game.pk
    game_id = game_id if 0 <= game_id < 2**63 else game.pk  # the URL's <int:…> takes no sign
    seats = {seat.pk for seat in Seat.objects.filter(game_id=game_id)}
    if isinstance(payload, dict) and isinstance(payload.get("s"), int) and payload["s"] in seats:
        return  # one of this game's own seats: not a link that opens nothing
    with pytest.raises(LinkError) as refused:
        resolve_link(token, game_id)
    assert refused.value.reason in ("forged", "gone", "unknown")
    before, client, bearer = game_state(), BrowserLikeClient(), {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    for response in (
        client.get(reverse("games:play", args=[game_id, token])),
        client.post(reverse("games:play-rest", args=[game_id, token, "time-zone/"]), {"time_zone": "UTC"}),
        client.get(reverse("games:play-rest", args=[game_id, token, "history/"])),
    ):
        assert response.status_code == refused.value.status
        assert 'action="/links/new/"' in response.content.decode()
    order = '{"expected_seq": 1, "command": {"kind": "pass"}}'
    for response in (  # the JSON answers name the reason
        client.get(reverse("games:play-rest", args=[game_id, token, "move-cost"])),
        client.get(reverse("games:export", args=[game_id]), {"token": token}),
        client.get(reverse("games:api-state", args=[game_id]), **bearer),
        client.post(reverse("games:api-orders", args=[game_id]), order, "application/json", **bearer),
    ):
        assert response.status_code == refused.value.status, response.content[:200]
    assert game_state() == before


@pytest.mark.django_db
def test_an_order_through_the_api_on_a_link_of_a_deleted_game_is_answered_gone_not_a_server_error(game):
    """The API checks a link's seat with the game's lock: with no game to lock it failed with a
    server error where the player page says "This game no longer exists on this server"."""
    token = signing.dumps({"g": game.pk + 1000, "s": 1, "v": 1}, salt=SALT, compress=False)
    response = BrowserLikeClient().post(
        reverse("games:api-orders", args=[game.pk + 1000]),
        '{"expected_seq": 1, "command": {"kind": "pass"}}',
        "application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "gone"
    assert response.json()["error"]["message"] == "Diese Partie gibt es auf diesem Server nicht mehr."
