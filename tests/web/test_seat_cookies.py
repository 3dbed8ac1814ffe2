"""The emailed link's token leaves the address bar: it is exchanged for the seat cookie, a grant of the
seat to the browser, on its first visit (games/web/seat_cookies.py, docs/operations.md "Links and
the seat cookie").

Finding "tokens in URLs": every page of a seat lived at /play/<game>/<token>/…, so the token filled
access logs, Referer headers and browser history, and each page view signed a fresh 30-day token
into the page (the Move cost preview's address), so a leaked page renewed itself for ever.
These tests use Django's plain client, which follows no redirect by itself.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from games.models import Event, Seat, SeatGrant
from games.reading.links import SALT, link_token, revoke_links
from games.reading.situation import load_game
from games.web.seat_cookies import COOKIE_PREFIX, cookie_name
from tests.order_loop_support import seats_to_act, two_player_game
from tests.web.support import seat_cookie

pytestmark = pytest.mark.django_db

# Anything shaped like a signed value: base64 parts joined by colons.
SIGNED = re.compile(r"[A-Za-z0-9_-]{6,}(?::[A-Za-z0-9_-]+){2}")


def open_link(client: Client, seat: Seat, rest: str = "") -> str:
    response = client.get(f"/play/{seat.game_id}/{link_token(seat)}/{rest}")
    assert response.status_code == 302
    return response["Location"]


def seat_cookies(response) -> list[str]:
    return [name for name in response.cookies if name.startswith(COOKIE_PREFIX)]


def valid_tokens_in(text: str) -> list[str]:
    """Every signed seat link in `text`: what a leaked page would hand on."""
    found = []
    for candidate in SIGNED.findall(text):
        try:
            signing.loads(candidate, salt=SALT)
        except signing.BadSignature:
            continue
        found.append(candidate)
    return found


def test_the_emailed_link_sets_the_seat_cookie_and_redirects_to_the_address_without_the_token():
    game = two_player_game()
    seat = game.seats.get(faction="athens")
    client = Client()
    token = link_token(seat)
    response = client.get(f"/play/{game.pk}/{token}/")
    page = reverse("games:seat", args=[game.pk, seat.pk])
    assert response.status_code == 302 and response["Location"] == page
    cookie = response.cookies[cookie_name(seat.pk)]
    assert token not in cookie.value and not valid_tokens_in(cookie.value)  # a grant's key, not the token
    assert SeatGrant.objects.filter(seat=seat, revoked_at=None).count() == 1
    assert cookie["httponly"] is True and cookie["samesite"] == "Lax" and cookie["path"] == page
    assert int(cookie["max-age"]) == 30 * 24 * 3600 and not cookie["secure"]  # http: no Secure flag
    opened = client.get(page)
    assert opened.status_code == 200 and "Athens" in opened.content.decode()


def test_no_page_of_a_seat_carries_a_token_any_more():
    """The finding's second half: the page signed a fresh token into itself (the Move cost
    preview), the history page into its export link."""
    game = two_player_game()
    seat = seats_to_act(game)[0]
    client = Client()
    page = open_link(client, seat)
    for path in (page, page + "history/", page + "history/?since=all"):
        response = client.get(path)
        assert response.status_code == 200
        assert valid_tokens_in(response.content.decode()) == [], path
    assert client.get(page + "export.json").json()["game"]["id"] == game.pk  # the history's download


def test_a_page_below_the_link_and_its_query_keep_their_place_through_the_exchange():
    game = two_player_game()
    seat = game.seats.get(faction="sparta")
    client = Client()
    response = client.get(f"/play/{game.pk}/{link_token(seat)}/history/?since=all&player=athens")
    assert response["Location"] == f"/play/{game.pk}/{seat.pk}/history/?since=all&player=athens"


def test_without_the_cookie_the_token_free_page_says_to_open_the_email_link_in_the_readers_language():
    game = two_player_game()
    seat = game.seats.get(faction="athens")
    page = reverse("games:seat", args=[game.pk, seat.pk])
    english = Client().get(page)
    assert english.status_code == 403
    assert "This page opens from the link in your email." in english.content.decode()
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get(page)
    assert "Diese Seite öffnet sich über den Link in deiner E-Mail." in german.content.decode()
    assert Client().post(page, {"kind": "pass", "expected_seq": 1}).status_code == 403


def test_a_cookie_opens_only_its_own_seat_and_revoking_the_links_revokes_it():
    game = two_player_game()
    athens, sparta = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    thief = Client()
    # Athens' cookie under Sparta's cookie name, at Sparta's address: refused, not Athens' page.
    thief.cookies[cookie_name(sparta.pk)] = seat_cookie(athens)
    assert thief.get(reverse("games:seat", args=[game.pk, sparta.pk])).status_code == 404
    client = Client()
    page = open_link(client, athens)
    revoke_links(athens)
    refused = client.get(page)
    assert refused.status_code == 403 and "withdrawn" in refused.content.decode()


def test_two_seats_opened_in_one_browser_each_keep_their_own_page():
    """One cookie per seat (its name and path), so the second link opened cannot turn the first
    tab's orders into the second seat's."""
    game = two_player_game()
    athens, sparta = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    client = Client()
    athens_page, sparta_page = open_link(client, athens), open_link(client, sparta)
    assert "you play Athens" in client.get(athens_page).content.decode()
    assert "you play Sparta" in client.get(sparta_page).content.decode()


def test_an_order_an_old_page_posts_to_its_token_address_is_carried_on_and_counted_once():
    """A page opened before links were exchanged posts to /play/<game>/<token>/: 307 (the browser
    sends it again, with its body) to the token-free page, which takes the order once."""
    game = two_player_game()
    seat = seats_to_act(game)[0]
    client = Client()
    client.get("/")  # a CSRF cookie, as the old page had
    seq = load_game(game).seq
    old = f"/play/{game.pk}/{link_token(seat)}/"
    response = client.post(old, {"kind": "pass", "expected_seq": seq}, follow=True)
    assert response.redirect_chain[0] == (reverse("games:seat", args=[game.pk, seat.pk]), 307)
    assert response.status_code == 200 and "Your order was accepted" in response.content.decode()
    assert Event.objects.filter(game=game, type="PlayerPassed").count() == 1


def test_on_https_the_seat_cookie_is_secure(settings):
    settings.SITE_URL = "https://aegea.example"
    game = two_player_game()
    seat = game.seats.get(faction="athens")
    response = Client().get(f"/play/{game.pk}/{link_token(seat)}/")
    assert response.cookies[cookie_name(seat.pk)]["secure"] is True


def test_a_forged_or_expired_link_sets_no_cookie(settings):
    game = two_player_game()
    forged = Client().get(f"/play/{game.pk}/not:a:token/")
    assert forged.status_code == 403 and not seat_cookies(forged)
    seat = game.seats.get(faction="athens")
    token = link_token(seat)
    settings.LINK_MAX_AGE = timedelta(seconds=-1)
    expired = Client().get(f"/play/{game.pk}/{token}/")
    assert expired.status_code == 403 and not seat_cookies(expired)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "This page is another player's seat in this game"),
        ("de", "Diese Seite ist der Platz eines anderen Spielers dieser Partie"),
    ],
)
def test_a_players_browser_at_a_rivals_seat_is_told_whose_page_it_is_not_to_accept_cookies(language, said):
    """H-SCREEN: Ana's browser holds her seat; at Ben's address it is refused, as before, but says
    it is another player's page, where it told her to accept cookies, which she does. A browser
    that holds no seat of the game is still told to open its emailed link."""
    game = two_player_game()
    ana, ben = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    Seat.objects.filter(pk=ana.pk).update(language=language)
    ana.refresh_from_db()
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    open_link(client, ana)
    rivals = client.get(reverse("games:seat", args=[game.pk, ben.pk]))
    assert rivals.status_code == 403
    text = html.unescape(rivals.content.decode())
    assert said in text and "cookies" not in text.lower()

    stranger = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("games:seat", args=[game.pk, ben.pk]))
    assert stranger.status_code == 403
    assert said not in html.unescape(stranger.content.decode()) and "ookie" in stranger.content.decode()
