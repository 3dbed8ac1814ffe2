"""Cookie fixation (games/web/seat_cookies.py, games/services/seat_grants.py, docs/operations.md "Links
and the seat cookie"): cookies an attacker plants in a victim's browser before the victim opens
their emailed link give the attacker nothing of the victim's seat afterwards.

The attacker here is the victim's rival, the one with most to gain: they hold a valid signed
`aegea_browser` id and a live grant of their own seat, both from opening their own link. They plant
that browser id, a seat cookie under the victim's seat's name (their own grant's value, or one they
made up) and the list of held seats. The victim's link makes a new grant whose key only the server
and the victim's browser know; the attacker's browser, sharing the planted browser id, opens nothing.
"""

from __future__ import annotations

import html

import pytest
from django.test import Client

from games.models import Event
from games.reading.links import link_token
from games.reading.situation import load_game
from games.web.seat_cookies import BROWSER, SEATS_HELD, cookie_name
from games.words.names import coins_text
from tests.browser_like_client import seat_page
from tests.order_loop_support import two_player_game

pytestmark = pytest.mark.django_db

SEAT_SHOWN = 'id="sign-out-everywhere"'  # on every page of a seat's own, never on another page


@pytest.mark.parametrize("planted", ["the attackers own grant", "made up"])
def test_cookies_planted_before_the_victim_opens_their_link_give_the_attacker_nothing_of_the_seat(planted):
    """Keeps out session fixation: a browser id and a seat cookie chosen by the attacker must not
    become the victim's seat's key once the victim opens their link."""
    game = two_player_game()
    victim, rival = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    attacker = Client()
    rivals_page = seat_page(attacker, game.pk, link_token(rival))
    known_browser = attacker.cookies[BROWSER].value
    own_grant = attacker.cookies[cookie_name(rival.pk)].value
    planted_value = own_grant if planted == "the attackers own grant" else "attacker-chosen-key"

    browser = Client()  # the victim's, with the attacker's cookies in it
    browser.cookies[BROWSER] = known_browser
    browser.cookies[SEATS_HELD] = str(victim.pk)
    browser.cookies[cookie_name(victim.pk)] = planted_value
    page = seat_page(browser, game.pk, link_token(victim))
    opened = browser.get(page)
    assert opened.status_code == 200 and SEAT_SHOWN in opened.content.decode()  # the victim plays
    victims_key = browser.cookies[cookie_name(victim.pk)].value
    assert victims_key not in (planted_value, own_grant)

    screen = coins_text(load_game(game).state.players["athens"].coins_behind_screen)
    assert screen in html.unescape(opened.content.decode())  # what the attacker is after
    events = Event.objects.filter(game=game).count()
    for value in (planted_value, own_grant):
        attacker.cookies[cookie_name(victim.pk)] = value  # the browser id is the victim's too
        for path in (page, page + "history/", page + "export.json"):
            refused = attacker.get(path)
            assert refused.status_code in (403, 404), (value, path)
            assert SEAT_SHOWN not in refused.content.decode()
            assert screen not in html.unescape(refused.content.decode())
        ordered = attacker.post(page, {"kind": "pass", "expected_seq": load_game(game).seq})
        assert ordered.status_code in (403, 404)
    assert Event.objects.filter(game=game).count() == events
    assert SEAT_SHOWN in attacker.get(rivals_page).content.decode()  # their own seat, no more
    assert SEAT_SHOWN in browser.get(page).content.decode()


def test_a_browser_id_planted_in_the_victims_browser_does_not_let_its_planter_sign_the_victim_out():
    """Keeps out a sign-out by proxy: the planted id is shared by both browsers, but sign-out revokes
    only the grants of the seats the signing-out browser's own signed cookie names."""
    game = two_player_game()
    victim, rival = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    attacker = Client()
    seat_page(attacker, game.pk, link_token(rival))
    browser = Client()
    browser.cookies[BROWSER] = attacker.cookies[BROWSER].value
    page = seat_page(browser, game.pk, link_token(victim))

    attacker.post("/sign-out/")

    assert SEAT_SHOWN in browser.get(page).content.decode()  # the victim still plays
    browser.post("/sign-out/")
    assert browser.get(page).status_code == 403  # and their own sign-out still signs them out
