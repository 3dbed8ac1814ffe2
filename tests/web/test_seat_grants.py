"""A seat cookie is a grant the server keeps (games/services/seat_grants.py, docs/operations.md "Links
and the seat cookie").

Finding "sign-out that really signs out": sign-out only deleted the browser's cookies, and the seat
cookie held the emailed link's token itself (good for 30 days), so a copy of it taken before
sign-out still opened the seat. Now the cookie carries a grant's key: sign-out revokes the
browser's grants, "Sign out everywhere" every grant of the seat, and the copy opens nothing.
Django's client sends every cookie to every path: a browser's sign-out is posted with only the
cookies it sends there (tests/web/support.py `sign_out_as_a_browser`).
"""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import SeatGrant
from games.reading.links import link_token
from games.services.substitutes import hand_over_seat
from games.web.seat_cookies import cookie_name
from tests.browser_like_client import seat_page
from tests.order_loop_support import seats_to_act, two_player_game
from tests.web.support import sign_out_as_a_browser

pytestmark = pytest.mark.django_db

ORDER_FORMS = 'name="command"'  # the one-click suggestions: a seat's own page has them on its turn
SEAT_SHOWN = 'id="sign-out-everywhere"'  # on every page of a seat's own, never on another page


def text(response) -> str:
    return html.unescape(response.content.decode())


def opened(client: Client, seat) -> str:
    """Open the seat's emailed link in `client`; its page's address, which must show the seat."""
    page = seat_page(client, seat.game_id, link_token(seat))
    assert SEAT_SHOWN in client.get(page).content.decode()
    return page


def with_cookie(seat, value: str, **headers) -> Client:
    """Another browser holding a copy of a seat cookie."""
    thief = Client(**headers)
    thief.cookies[cookie_name(seat.pk)] = value
    return thief


def test_a_copy_of_the_seat_cookie_taken_before_sign_out_opens_nothing_after_it():
    seat = seats_to_act(two_player_game())[0]
    client = Client()
    page = opened(client, seat)
    copy = client.cookies[cookie_name(seat.pk)].value
    assert ORDER_FORMS in with_cookie(seat, copy).get(page).content.decode()  # it did open the seat

    assert sign_out_as_a_browser(client).status_code == 302
    refused = with_cookie(seat, copy).get(page)
    assert refused.status_code == 403 and ORDER_FORMS not in text(refused)
    assert "This browser was signed out of this seat. The link in your email opens it again." in text(refused)
    assert with_cookie(seat, copy).post(page, {"kind": "pass", "expected_seq": 1}).status_code == 403
    assert opened(client, seat)  # the emailed link opens the seat again, in a new grant


def test_opening_the_link_again_ends_the_grant_the_browser_held_before():
    """A browser's cookie is replaced when it opens the link again: the grant it held ends with it,
    so sign-out, which ends the browser's grants, leaves no older copy alive."""
    seat = seats_to_act(two_player_game())[0]
    client = Client()
    page = opened(client, seat)
    copy = client.cookies[cookie_name(seat.pk)].value
    opened(client, seat)
    assert with_cookie(seat, copy).get(page).status_code == 403
    assert SeatGrant.objects.filter(seat=seat, revoked_at=None).count() == 1


@pytest.mark.parametrize(
    ("language", "button", "said"),
    [
        ("en", "Sign out everywhere", "Every browser that had opened your seat in Test game is signed out"),
        ("de", "Überall abmelden", "Jeder Browser, der deinen Platz in Test game geöffnet hatte, ist davon"),
    ],
)
def test_sign_out_everywhere_ends_every_browsers_grant_and_the_link_still_opens_the_seat(
    language, button, said
):
    game = two_player_game(name="Test game")
    seat, other_seat = seats_to_act(game)[0], game.seats.exclude(pk=seats_to_act(game)[0].pk).get()
    phone, laptop, rival = (Client(HTTP_ACCEPT_LANGUAGE=language, enforce_csrf_checks=True) for _ in "abc")
    page = opened(phone, seat)
    opened(laptop, seat)
    rivals_page = opened(rival, other_seat)

    shown = phone.get(page).content.decode()
    assert f'action="{page}sign-out-everywhere/"' in shown and button in shown
    assert phone.post(page + "sign-out-everywhere/").status_code == 403  # no CSRF token: refused
    assert ORDER_FORMS in laptop.get(page).content.decode()

    out = phone.post(page + "sign-out-everywhere/", {"csrfmiddlewaretoken": phone.cookies["csrftoken"].value})
    assert out.status_code == 302 and out["Location"] == "/"
    assert out.cookies[cookie_name(seat.pk)].value == "" and out.cookies[cookie_name(seat.pk)]["path"] == page
    assert said in text(phone.get("/"))
    for browser in (phone, laptop):
        refused = browser.get(page)
        assert refused.status_code == 403 and SEAT_SHOWN not in text(refused)
    assert SEAT_SHOWN in rival.get(rivals_page).content.decode()  # another seat's grants stand
    opened(laptop, seat)  # the emailed link still opens the seat


def test_the_substitutes_hand_over_refuses_the_replaced_players_grant():
    game = two_player_game()
    seat = seats_to_act(game)[0]
    replaced = Client()
    page = opened(replaced, seat)
    old_link = link_token(seat)
    hand_over_seat(seat, "Cleo", "cleo@example.com")

    refused = replaced.get(page)
    assert refused.status_code == 403 and ORDER_FORMS not in text(refused)
    assert "This link has been withdrawn by the organiser." in text(refused)
    assert replaced.get(f"/play/{game.pk}/{old_link}/").status_code == 403  # nor a new grant by the old link
    seat.refresh_from_db()
    assert opened(Client(), seat) == page  # the substitute's link opens the seat


def test_an_expired_grant_is_refused_and_says_so():
    seat = seats_to_act(two_player_game())[0]
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    page = opened(client, seat)
    SeatGrant.objects.filter(seat=seat).update(expires=timezone.now() - timedelta(seconds=1))
    refused = client.get(page)
    assert refused.status_code == 403 and ORDER_FORMS not in text(refused)
    assert "Die Anmeldung dieses Browsers an diesem Platz ist abgelaufen." in text(refused)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "so the key this browser kept from before no longer opens it"),
        ("de", "deshalb öffnet der Schlüssel, den dieser Browser von früher hat, ihn nicht mehr"),
    ],
)
def test_a_cookie_from_before_grants_is_refused_with_a_page_saying_to_open_the_link_again(language, said):
    """The cookies set before grants held the link's token: not accepted any more, and its page
    says why and what to do, rather than calling it forged."""
    seat = seats_to_act(two_player_game())[0]
    old = with_cookie(seat, link_token(seat), HTTP_ACCEPT_LANGUAGE=language)
    refused = old.get(f"/play/{seat.game_id}/{seat.pk}/")
    assert refused.status_code == 403 and ORDER_FORMS not in text(refused)
    assert said in text(refused)
    assert opened(old, seat)  # the emailed link replaces it with a grant


def test_the_grant_keeps_only_hashes_and_the_cookie_only_the_grants_key():
    seat = seats_to_act(two_player_game())[0]
    client = Client()
    opened(client, seat)
    cookie = client.cookies[cookie_name(seat.pk)].value
    grant = SeatGrant.objects.get(seat=seat)
    assert link_token(seat) not in cookie
    assert grant.key_hash not in cookie and len(grant.key_hash) == 64
    assert grant.token_version == seat.token_version and grant.expires - grant.created == timedelta(days=30)
