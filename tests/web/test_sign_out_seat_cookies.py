"""Signing out ends the seats' pages this browser holds too (docs/front-door.md, "Sign out").

A new user's walk on a shared device: signed in by the emailed link, they opened their seat from
"Your games", pressed "Sign out" and read "You are signed out.", yet /play/<game>/<seat>/ still
showed their seat with every order form: the seat cookie (games/web/seat_cookies.py) stayed. Now
sign-out deletes every seat cookie the browser holds, with the path and flags each was set with;
the seat's page without its token is then the stranger's, and the emailed link opens it again.
Django's client sends every cookie to every path, so the sign-out here is posted with only the
cookies a browser sends to /sign-out/ (those on "/"); tests/browser/test_sign_out_phone.py
signs out in a real browser.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.reading.links import link_token
from games.services.game_setup import PlayerSpec, create_game
from games.web.seat_cookies import BROWSER, SEATS_HELD, cookie_name
from tests.order_loop_support import seats_to_act
from tests.web.support import sign_out_as_a_browser

pytestmark = pytest.mark.django_db

IDA = PlayerSpec("Ida", "ida@example.com", "athens")
BEN = PlayerSpec("Ben", "ben@example.com", "sparta")


def deleted(response, name: str) -> dict[str, object]:
    morsel = response.cookies[name]
    assert morsel.value == "" and int(morsel["max-age"]) == 0
    return {"path": morsel["path"], "httponly": morsel["httponly"], "samesite": morsel["samesite"]}


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "You are signed out. This browser no longer opens your games&#x27; pages; your emailed links do.",
        ),
        ("de", "Du bist abgemeldet."),
    ],
)
def test_sign_out_deletes_every_seat_cookie_this_browser_holds_and_the_seat_page_is_a_strangers(
    language, said
):
    (mine,) = seats_to_act(create_game([IDA, BEN]))  # the seat that can order now is the one signed in
    ida = get_user_model().objects.create_user("ida", email=mine.email)
    other_game = create_game([PlayerSpec("Eve", "eve@example.com", "athens"), BEN])
    anothers = other_game.seats.get(faction="sparta")  # Ben's seat, opened from his email on this device
    client = Client()
    client.force_login(ida)
    opened = client.get(f"/your-seats/{mine.pk}/", follow=True)
    page = f"/play/{mine.game_id}/{mine.pk}/"
    assert opened.redirect_chain[-1][0] == page and 'name="command"' in opened.content.decode()
    client.get(f"/play/{anothers.game_id}/{link_token(anothers)}/")
    assert {cookie_name(mine.pk), cookie_name(anothers.pk), SEATS_HELD, BROWSER} <= set(client.cookies)

    out = sign_out_as_a_browser(client, HTTP_ACCEPT_LANGUAGE=language)
    assert out.status_code == 302 and out["Location"] == "/"
    set_as = {"httponly": True, "samesite": "Lax"}
    assert deleted(out, cookie_name(mine.pk)) == {"path": page, **set_as}
    theirs = f"/play/{anothers.game_id}/{anothers.pk}/"
    assert deleted(out, cookie_name(anothers.pk)) == {"path": theirs, **set_as}
    assert deleted(out, SEATS_HELD) == deleted(out, BROWSER) == {"path": "/", **set_as}
    assert said in client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    # The browser dropped the cookies: the seat's page without its token is the stranger's.
    for path in (page, theirs):
        refused, strangers = client.get(path), Client().get(path)
        assert refused.status_code == strangers.status_code != 200
        assert 'name="command"' not in refused.content.decode()
    # The emailed link still opens the seat.
    again = client.get(f"/play/{mine.game_id}/{link_token(mine)}/", follow=True)
    assert again.status_code == 200 and 'name="command"' in again.content.decode()
