"""A player replaced by a substitute (games/services/substitutes.py, docs/front-door.md "Open games and
the lobby", docs/email-orders.md "What comes back"): every key they were given before the hand-over
is refused, with a page that says the link was withdrawn, and nothing they send changes the game.

The keys, all taken before the organiser hands the seat over on the deadlines page: the seat
cookie of the browser they opened the seat in, the emailed link itself (its token), the link as the
JSON API's bearer token, and the Reply-To of their last email, fed through the real inbound path.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from django.core import mail
from django.test import Client

from games.mail.keys import withdrawn_reply_seat
from games.models import Event, Game, Seat, SeatGrant
from games.reading.links import link_token
from notifications.feed import NotStored, feed_reply
from notifications.models import Outbox
from notifications.services import deliver_outbox
from tests.browser_like_client import BrowserLikeClient, seat_page
from tests.inbox.support import inbound_settings  # noqa: F401  (the fixture: reply addresses on)
from tests.order_loop_support import seats_to_act, suggested_orders, two_player_game

pytestmark = pytest.mark.django_db

WITHDRAWN = "This link has been withdrawn by the organiser."


def state_of(game: Game) -> tuple:
    """What a refused request must leave as it was: the log, every seat's row, the live grants
    and the outbox."""
    seats = list(Seat.objects.filter(game=game).order_by("pk").values())
    grants = SeatGrant.objects.filter(seat__game=game, revoked_at=None).count()
    return Event.objects.filter(game=game).count(), seats, grants, Outbox.objects.count()


def replaced_after_ordering(organiser, client):
    """The first player passed from their page, so their order could still be taken back; then the
    organiser handed their seat to Cleo. (game, seat, the old page, the replaced player's browser,
    the old link's token, the Reply-To of the last email they were sent, Cleo's browser and page.)"""
    game = two_player_game(organiser=organiser)
    (seat,) = seats_to_act(game)
    old = BrowserLikeClient()
    token = link_token(seat)
    page = seat_page(old, game.pk, token)
    seq, command = suggested_orders(old.get(page).content.decode())[0]
    passed = {"kind": "suggested", "expected_seq": seq, "command": json.dumps(command)}
    assert old.post(page, passed).status_code in (302, 303)
    deliver_outbox()
    (reply_to,) = [m for m in mail.outbox if m.to == [seat.email]][-1].reply_to
    client.force_login(organiser)
    handed = client.post(
        f"/organiser/games/{game.pk}/deadlines/",
        {"form": "handover", "seat": seat.pk, "name": "Cleo", "email": "cleo@example.com"},
    )
    assert handed.status_code == 302
    seat.refresh_from_db()
    cleo = BrowserLikeClient()
    assert seat_page(cleo, game.pk, link_token(seat)) == page
    deliver_outbox()
    mail.outbox = []
    return game, seat, page, old, token, reply_to, cleo


def test_every_request_of_the_replaced_players_browser_is_refused_saying_so_and_changes_nothing(
    organiser, client
):
    """Keeps out a dropped player who, with the seat cookie still in their browser, takes back the
    order they gave, orders, writes to the rival, takes a vacation, changes the seat's email
    preferences or signs the substitute out everywhere."""
    game, seat, page, old, _token, _reply_to, cleo = replaced_after_ordering(organiser, client)
    before = state_of(game)
    posts = {
        "take-back": (page, {"kind": "take_back", "seen_seq": Event.objects.filter(game=game).count()}),
        "order": (page, {"kind": "pass", "expected_seq": Event.objects.filter(game=game).count()}),
        "language": (page, {"kind": "language", "language": "de"}),
        "message": (page + "message/", {"to": "sparta", "text": "I am still here"}),
        "vacation": (page + "vacation/", {"days": "5"}),
        "preferences": (page + "preferences/", {"mode": "digest", "digest_hour": "3", "language": "de"}),
        "time zone": (page + "time-zone/", {"time_zone": "Europe/Berlin"}),
        "sign out everywhere": (page + "sign-out-everywhere/", {}),
    }
    for what, (path, data) in posts.items():
        refused = old.post(path, data)
        assert refused.status_code == 403, what
        assert WITHDRAWN in refused.content.decode(), what
    for path in (page, page + "history/", page + "export.json"):
        refused = old.get(path)
        assert refused.status_code == 403 and WITHDRAWN in refused.content.decode(), path
    assert state_of(game) == before
    assert 'id="sign-out-everywhere"' in cleo.get(page).content.decode()  # the substitute plays on


def test_the_replaced_players_emailed_link_and_its_api_token_are_refused_saying_so_and_change_nothing(
    organiser, client
):
    """Keeps out a dropped player who opens the link of an old email again, in a new browser (which
    would otherwise get a fresh grant of the seat), posts an order through it, or uses it with the
    JSON API."""
    game, seat, page, _old, token, _reply_to, _cleo = replaced_after_ordering(organiser, client)
    before = state_of(game)
    fresh = Client()
    opened = fresh.get(f"/play/{game.pk}/{token}/")
    assert opened.status_code == 403 and WITHDRAWN in opened.content.decode()
    assert not any(name.startswith("aegea_seat_") for name in opened.cookies)
    posted = fresh.post(f"/play/{game.pk}/{token}/", {"kind": "pass", "expected_seq": 1})
    assert posted.status_code == 403 and WITHDRAWN in posted.content.decode()
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    api = fresh.post(
        f"/api/games/{game.pk}/orders", {"kind": "pass"}, content_type="application/json", **bearer
    )
    assert api.status_code == 403 and api.json()["error"]["message"] == WITHDRAWN, api.content
    assert fresh.get(f"/api/games/{game.pk}/state", **bearer).status_code == 403
    assert state_of(game) == before


@pytest.mark.parametrize("text", ["take back", "pass", "message sparta: I am still here"])
def test_a_reply_by_the_replaced_player_to_their_old_reply_address_changes_nothing_and_answers_no_one(
    organiser, client, text
):
    """Keeps out a dropped player who answers their last turn email (the Reply-To carries the seat's
    old reply token) to take back, order or write as the seat. By docs/email-orders.md no answer
    goes out: the seat's address is now the substitute's, who did not write, and an answer must
    never go to an address the From header alone names."""
    game, seat, _page, _old, _token, reply_to, _cleo = replaced_after_ordering(organiser, client)
    assert withdrawn_reply_seat(reply_to) == seat  # a true address of the seat, only withdrawn
    before = state_of(game)
    raw = (
        f"From: Ana <ana@example.com>\r\nTo: {reply_to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <late-{abs(hash(text))}@phone.example>\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n"
    ).encode()
    with contextlib.suppress(NotStored):  # not even kept: an address no seat has now
        feed_reply(raw)
    deliver_outbox()
    assert mail.outbox == []
    assert state_of(game) == before
