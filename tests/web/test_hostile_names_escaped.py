"""XSS: a player's name, a game's name and a message's text that hold markup are shown as text, never
run, wherever they are shown: the lobby, the player page, the history, the organiser's pages and
the HTML part of every email that names them.

Each comes in as a user enters it: the organiser names the game on the new-game form, the hostile
player names themself on the lobby's "Take a seat" form, and writes the message on their page.
"""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from games.models import Game, Seat
from games.services.substitute_seekers import seek_substitute
from notifications.services import deliver_outbox
from tests.browser_like_client import BrowserLikeClient
from tests.order_loop_support import link_in

pytestmark = pytest.mark.django_db

GAME = 'Delos<script>alert("game")</script>'
PLAYER = '"><img src=x onerror=alert(1)>Mal'
MESSAGE = '<script>alert("message")</script>"><img src=y onerror=alert(2)> see you'
RUN = ("<script>alert(", "<img src=x onerror", "<img src=y onerror")  # markup a browser would run


def assert_shown_as_text(text: str, where: str, *shown: str) -> None:
    """No hostile markup as markup; each of `shown` there as text (escaped), so the check has a
    name or message to look at and does not pass on a page that shows none."""
    for markup in RUN:
        assert markup not in text, f"{where} runs {markup!r}"
    for value in shown:
        assert html.escape(value, quote=False) in text or html.escape(value) in text, f"{where}: {value!r}"


def signed_in(name: str) -> Client:
    client = BrowserLikeClient()
    client.force_login(get_user_model().objects.create_user(name, email=f"{name}@example.com"))
    return client


def test_hostile_names_and_messages_are_escaped_on_every_page_and_in_every_emails_html():
    """Keeps out stored XSS: markup entered as a name or a message running in another player's, or
    the organiser's, browser or mail client (it would act with their seat cookie or session)."""
    olga = signed_in("olga")
    made = olga.post(
        "/organiser/games/gather/", {"name": GAME, "language": "en", "seats": "2", "published": "on"}
    )
    assert made.status_code == 302, made.content.decode()
    game = Game.objects.get(name=GAME)
    mal, ben = signed_in("mal"), signed_in("ben")
    assert (
        mal.post(f"/lobby/{game.pk}/", {"name": PLAYER, "language": "en", "time_zone": ""}).status_code == 200
    )
    for path in ("/lobby/", f"/lobby/{game.pk}/"):
        assert_shown_as_text(ben.get(path).content.decode(), path, GAME)
    assert_shown_as_text(ben.get("/lobby/").content.decode(), "the lobby's players", PLAYER)
    assert_shown_as_text(
        olga.get(f"/organiser/games/{game.pk}/players/").content.decode(), "invitations", PLAYER
    )
    assert (
        ben.post(f"/lobby/{game.pk}/", {"name": "Ben", "language": "en", "time_zone": ""}).status_code == 200
    )

    deliver_outbox()
    mal_seat, ben_seat = Seat.objects.get(game=game, name=PLAYER), Seat.objects.get(game=game, name="Ben")
    pages = {}
    for seat, client in ((mal_seat, mal), (ben_seat, ben)):
        welcome = next(m for m in mail.outbox if m.to == [seat.email] and "/play/" in m.body)
        pages[seat.pk] = client.get(link_in(welcome)).request["PATH_INFO"]
    rival = ben_seat.faction
    sent = mal.post(pages[mal_seat.pk] + "message/", {"to": rival, "text": MESSAGE})
    assert sent.status_code == 302
    for email in mail.outbox:  # the welcomes and the organiser's notices of the lobby's seats
        assert_shown_as_text(email.alternatives[0][0], f"the HTML of {email.subject!r}", GAME)
    mail.outbox = []
    deliver_outbox()

    for seat, client in ((ben_seat, ben), (mal_seat, mal)):
        page = pages[seat.pk]
        assert_shown_as_text(client.get(page).content.decode(), f"{seat.name}'s page", GAME, PLAYER)
        history = client.get(page + "history/?since=all").content.decode()
        assert_shown_as_text(history, f"{seat.name}'s history", GAME, MESSAGE)
    for path in ("/organiser/", f"/organiser/games/{game.pk}/", f"/organiser/games/{game.pk}/deadlines/"):
        assert_shown_as_text(olga.get(path).content.decode(), path, GAME)
    for path in (f"/organiser/games/{game.pk}/", f"/organiser/games/{game.pk}/deadlines/"):
        assert_shown_as_text(olga.get(path).content.decode(), path, PLAYER)
    history = olga.get(f"/organiser/games/{game.pk}/history/?since=all").content.decode()
    assert_shown_as_text(history, "the organiser's history", GAME)
    seek_substitute(mal_seat)
    substitutes = olga.get(f"/organiser/games/{game.pk}/substitutes/").content.decode()
    assert_shown_as_text(substitutes, "the organiser's substitutes page", GAME, PLAYER)
    assert_shown_as_text(ben.get("/lobby/").content.decode(), "the lobby's seats to take over", GAME)

    (message_email,) = [m for m in mail.outbox if m.to == [ben_seat.email] and MESSAGE in m.body]
    assert_shown_as_text(message_email.alternatives[0][0], "the message email's HTML", PLAYER, MESSAGE)
    assert mail.outbox
    for email in mail.outbox:
        assert_shown_as_text(email.alternatives[0][0], f"the HTML of {email.subject!r}", GAME)
