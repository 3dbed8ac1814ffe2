"""CSRF: every POST that changes something, on a seat's pages, the organiser's pages and the front
door, is refused without the page's CSRF token and changes nothing anywhere in the database; with
the token the same POST does change something, so no row of the table is refused for another
reason. A last test holds the table to the URL map: a new address must be put in the table, or
among the ones that change nothing or carry their own key, with the reason.

tests/reliability/test_security.py checks that every form in the templates carries the token;
this checks what the server does when a request comes without it (a page of another site posting
to ours from the player's browser, which sends the seat cookie and the session cookie along).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import get_resolver

from games.engine import Pass
from games.mail.frontdoor import token_for
from games.models import Seat
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import create_game
from games.services.invitations import gather_game, invite, take_open_seat
from games.services.orders import submit_order
from games.services.sign_in import ask_for_sign_in
from games.services.substitute_seekers import offer_to_substitute, seek_substitute
from tests.browser_like_client import seat_page
from tests.order_loop_support import ANA, BEN, seats_to_act, suggested_orders

pytestmark = pytest.mark.django_db

CSRF_SECRET = "a" * 32  # what a csrftoken cookie holds; the page's forms carry it (masked) in the body
Post = tuple[Client, str, dict[str, Any]]


def database() -> list:
    """Every row of the project's tables (games, notifications), the accounts and the sessions."""
    models = [*apps.get_app_config("games").get_models(), *apps.get_app_config("notifications").get_models()]
    models += [get_user_model(), Session]
    return [(m.__name__, list(m.objects.order_by("pk").values())) for m in models]


def guarded() -> Client:
    return Client(enforce_csrf_checks=True)


def organiser() -> tuple[Client, Any]:
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    client = guarded()
    client.force_login(olga)
    return client, olga


def seat_opened(after_an_order: bool = False) -> tuple[Client, Seat, str]:
    """A browser holding the seat on turn (the first player's, after they passed: the next's)."""
    game = create_game([ANA, BEN])
    (seat,) = seats_to_act(game)
    if after_an_order:
        submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    client = guarded()
    return client, seat, seat_page(client, game.pk, link_token(seat))


# The seat's pages (games/web/views/play.py, table.py, frontdoor.py), each opened by its seat cookie.


def order() -> Post:
    client, _seat, page = seat_opened()
    seq, command = suggested_orders(client.get(page).content.decode())[0]
    return client, page, {"kind": "suggested", "expected_seq": seq, "command": json.dumps(command)}


def take_back() -> Post:
    client, seat, page = seat_opened(after_an_order=True)
    return client, page, {"kind": "take_back", "seen_seq": load_game(seat.game).seq}


def page_language() -> Post:
    client, _seat, page = seat_opened()
    return client, page, {"kind": "language", "language": "de"}


def seat_action(action: str, data: dict[str, Any]) -> Callable[[], Post]:
    def post() -> Post:
        client, _seat, page = seat_opened()
        return client, f"{page}{action}/", data

    return post


def message() -> Post:
    client, seat, page = seat_opened()
    rival = seat.game.seats.exclude(pk=seat.pk).get()
    return client, f"{page}message/", {"to": rival.faction, "text": "Hello"}


def sign_out_everywhere() -> Post:
    client, _seat, page = seat_opened()
    return client, f"{page}sign-out-everywhere/", {}


def link_exchange() -> Post:
    """An old page's form posting to its token address: the exchange makes a grant."""
    game = create_game([ANA, BEN])
    (seat,) = seats_to_act(game)
    return guarded(), f"/play/{game.pk}/{link_token(seat)}/", {"kind": "pass", "expected_seq": 1}


# The organiser's pages (games/web/views/organiser.py, gathering.py, table.py, seeking.py).


def new_game() -> Post:
    client, _olga = organiser()
    players = "Ana <ana@example.com>:athens\nBen <ben@example.com>:sparta\n"
    return client, "/organiser/games/new/", {"name": "Kos", "language": "en", "players": players}


def new_gathering() -> Post:
    client, _olga = organiser()
    return client, "/organiser/games/gather/", {"name": "Kos", "language": "en", "seats": "2"}


def gathering_post(data: dict[str, Any]) -> Callable[[], Post]:
    def post() -> Post:
        client, olga = organiser()
        game = gather_game(olga, "Kos", "en", 3, published=True)
        for name in ("ana", "ben"):
            user = get_user_model().objects.create_user(name, email=f"{name}@example.com")
            take_open_seat(game, user, name.title(), "en", "")
        return client, f"/organiser/games/{game.pk}/players/", data

    return post


def deadlines_post(data: dict[str, Any]) -> Callable[[], Post]:
    def post() -> Post:
        client, olga = organiser()
        game = create_game([ANA, BEN], organiser=olga)
        seat = game.seats.get(faction="sparta")
        return client, f"/organiser/games/{game.pk}/deadlines/", {**data, "seat": seat.pk}

    return post


SETTINGS = {
    "form": "settings",
    "turn_hours": "24",
    "winter_hours": "48",
    "time_zone": "Europe/Berlin",
    "reminders": "50%",
    "missed_turns_alert": "3",
    "vacation_days": "14",
}


def seek() -> Post:
    client, olga = organiser()
    game = create_game([ANA, BEN], organiser=olga)
    return (
        client,
        f"/organiser/games/{game.pk}/substitutes/",
        {"action": "seek", "seat": game.seats.first().pk},
    )


def accept_offer() -> Post:
    client, olga = organiser()
    game = create_game([ANA, BEN], organiser=olga)
    wanted = seek_substitute(game.seats.get(faction="sparta"))
    zoe = get_user_model().objects.create_user("zoe", email="zoe@example.com")
    offer = offer_to_substitute(wanted, zoe, "Zoe")
    return client, f"/organiser/games/{game.pk}/substitutes/", {"action": "accept", "offer": offer.pk}


# The front door (games/web/views/frontdoor.py, gathering.py, seeking.py, links.py).


def signed_in_stranger() -> Client:
    client = guarded()
    client.force_login(get_user_model().objects.create_user("zoe", email="zoe@example.com"))
    return client


def take_a_lobby_seat() -> Post:
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    game = gather_game(olga, "Kos", "en", 2, published=True)
    return signed_in_stranger(), f"/lobby/{game.pk}/", {"name": "Zoe", "language": "en", "time_zone": ""}


def offer_to_take_over() -> Post:
    wanted = seek_substitute(create_game([ANA, BEN]).seats.get(faction="sparta"))
    return signed_in_stranger(), f"/lobby/seats/{wanted.pk}/", {"name": "Zoe"}


def invitation(data: dict[str, Any]) -> Callable[[], Post]:
    def post() -> Post:
        olga = get_user_model().objects.create_user("olga", email="olga@example.com")
        invited = invite(gather_game(olga, "Kos", "en", 2), "ana@example.com")
        return guarded(), f"/invitation/{token_for('invitation', invited.pk)}/", data

    return post


def sign_in_link() -> Post:
    asked = ask_for_sign_in("nora@example.com", "en")
    return guarded(), f"/sign-in/{token_for('signin', asked.pk)}/", {}


def sign_out() -> Post:
    client, _seat, _page = seat_opened()
    client.force_login(get_user_model().objects.create_user("ana", email="ana@example.com"))
    return client, "/sign-out/", {}


def ask_for_a_new_link() -> Post:
    create_game([ANA, BEN])
    return guarded(), "/links/new/", {"email": ANA.email}


def password_login() -> Post:
    get_user_model().objects.create_user("olga", password="secret-pass-1")
    return guarded(), "/accounts/login/", {"username": "olga", "password": "secret-pass-1"}


POSTS: dict[str, tuple[str, Callable[[], Post]]] = {
    # name: (the URL name it posts to, how to make the request)
    "order": ("seat", order),
    "take back (H-TAKEBACK)": ("seat", take_back),
    "page language": ("seat", page_language),
    "message": ("seat-action", message),
    "vacation": ("seat-action", seat_action("vacation", {"days": "3"})),
    "preferences": (
        "seat-action",
        seat_action("preferences", {"mode": "every_turn", "digest_hour": "18", "language": "de"}),
    ),
    "time zone": ("seat-action", seat_action("time-zone", {"time_zone": "Europe/Berlin"})),
    "sign out everywhere": ("seat-sign-out-everywhere", sign_out_everywhere),
    "the link's exchange": ("play", link_exchange),
    "new game": ("organiser-new", new_game),
    "new gathering": ("organiser-gather", new_gathering),
    "invite": ("organiser-gathering", gathering_post({"action": "invite", "email": "cy@example.com"})),
    "begin": ("organiser-gathering", gathering_post({"action": "begin"})),
    "deadline settings": ("organiser-deadlines", deadlines_post(SETTINGS)),
    "hand over": (
        "organiser-deadlines",
        deadlines_post({"form": "handover", "name": "Cleo", "email": "cleo@example.com"}),
    ),
    "seek a substitute": ("organiser-substitutes", seek),
    "accept a substitute": ("organiser-substitutes", accept_offer),
    "take a lobby seat": ("lobby-take", take_a_lobby_seat),
    "offer to take over": ("lobby-substitute", offer_to_take_over),
    "accept an invitation": (
        "invitation",
        invitation({"action": "accept", "name": "Ana", "language": "en", "time_zone": ""}),
    ),
    "decline an invitation": ("invitation", invitation({"action": "decline", "confirm": "yes"})),
    "ask for a sign-in link": ("sign-in", lambda: (guarded(), "/sign-in/", {"email": "nora@example.com"})),
    "use a sign-in link": ("sign-in-link", sign_in_link),
    "sign out": ("sign-out", sign_out),
    "ask for a new link": ("new-link", ask_for_a_new_link),
    "password login": ("login", password_login),
}


@pytest.mark.parametrize("name", list(POSTS))
def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing_and_with_it_is_taken(name):
    """Keeps out cross-site request forgery: another site's page making a player's or an organiser's
    browser order, take back, write, hand over a seat, invite or sign in or out on their behalf."""
    client, path, data = POSTS[name][1]()
    before = database()
    refused = client.post(path, data)
    assert refused.status_code == 403, (name, refused.status_code)
    assert database() == before, name
    client.cookies["csrftoken"] = CSRF_SECRET
    taken = client.post(path, {**data, "csrfmiddlewaretoken": CSRF_SECRET})
    assert taken.status_code in (200, 302, 303, 307), (name, taken.status_code, taken.content[:300])
    assert database() != before, f"{name}: with its token the POST changed nothing, so the row proves nothing"


# Addresses that change nothing on a POST (no POST at all, or a page read), and those whose POST is
# exempt from CSRF because it carries its own key, which no other site's page knows.
CHANGE_NOTHING = {
    "home", "healthz", "seat-move-cost", "seat-history", "seat-export", "organiser-history", "export",
    "api-state", "organiser", "organiser-game", "rules", "rules-page", "own-seat", "lobby", "profile",
    "log-heads", "play-rest",  # the exchange again, below a page: the table's "play" row
    "logout", "password_change", "password_change_done", "password_reset_done",
    "password_reset_confirm", "password_reset_complete",
}  # fmt: skip
OWN_KEY = {
    "api-orders": "the link's token as the bearer token; a browser never sends it by itself",
    "unsubscribe": "the signed token in its address; RFC 8058 one-click posts come without a CSRF token",
    "password_reset": "mails a reset link to the address's owner; Django's own view, CSRF-protected anyway",
    "mailbox": "the dev mailbox: 404 unless DEBUG",
    "mailbox-message": "the dev mailbox: 404 unless DEBUG",
}


def test_every_address_is_in_the_table_or_said_to_change_nothing_or_to_carry_its_own_key():
    """Keeps a new form's address from being added without its CSRF row."""
    root = get_resolver()
    _prefix, games = root.namespace_dict["games"]
    # The admin's and the webhooks' own views are not in the root's names: Django's and anymail's.
    names = {name for resolver in (root, games) for name in resolver.reverse_dict if isinstance(name, str)}
    tabled = {url_name for url_name, _make in POSTS.values()}
    assert names - tabled - CHANGE_NOTHING - set(OWN_KEY) == set()
    assert not (tabled & CHANGE_NOTHING)
