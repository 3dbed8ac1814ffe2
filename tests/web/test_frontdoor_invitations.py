"""The invitation pages (docs/front-door.md "Invitations", "Open games and the lobby"): the organiser
invites by address, the invited answer from the emailed link, a stranger takes an open seat."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings

from games.models import Game, Invitation, Seat
from notifications.services import deliver_outbox

pytestmark = pytest.mark.django_db


def _invitation_link(to: str) -> str:
    deliver_outbox()
    email = next(m for m in reversed(mail.outbox) if m.to == [to])
    match = re.search(r"https?://[^/\s]+(/invitation/\S+/)", email.body)
    assert match, email.body
    return match[1]


def _gather(client, **fields) -> Game:
    data = {"name": "Delos", "language": "en", "seats": "2", **fields}
    response = client.post("/organiser/games/gather/", data)
    assert response.status_code == 302, response.content.decode()
    return Game.objects.get(name="Delos")


def test_invited_players_accept_in_their_language_and_the_game_begins(client, organiser):
    organiser.email = "olga@example.com"
    organiser.save()
    game = _gather(client)
    page = f"/organiser/games/{game.pk}/players/"
    assert client.get(f"/organiser/games/{game.pk}/")["Location"] == page
    for address in ("ana@example.com", "ben@example.com"):
        assert client.post(page, {"action": "invite", "email": address, "faction": ""}).status_code == 302
    assert "Gathering players: 0 of 2 accepted" in client.get("/organiser/").content.decode()
    listing = client.get(page).content.decode()
    assert "ana@example.com" in listing and "/invitation/" not in listing  # no token on the page
    ana, ben = _invitation_link("ana@example.com"), _invitation_link("ben@example.com")
    assert "Accept the seat" in client.get(ana).content.decode()
    answered = client.post(
        ana, {"action": "accept", "name": "Ana", "language": "en", "time_zone": "Europe/Lisbon"}
    )
    assert answered.status_code == 200 and "You have a seat" in answered.content.decode()
    german = client.post(
        ben,
        {"action": "accept", "name": "Ben", "language": "de", "time_zone": "Mars/Base"},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert german.status_code == 400 and "Unbekannte Zeitzone" in german.content.decode()
    client.post(ben, {"action": "accept", "name": "Ben", "language": "de", "time_zone": "Europe/Berlin"})
    assert Seat.objects.get(game=game, name="Ben").language == "de"
    deliver_outbox()
    welcome = next(m for m in mail.outbox if m.to == ["ben@example.com"] and "/play/" in m.body)
    assert "Hallo Ben" in welcome.body
    assert client.get(page)["Location"] == f"/organiser/games/{game.pk}/"
    assert "Gathering players" not in client.get("/organiser/").content.decode()


def test_a_declined_invitation_is_told_to_the_organiser(client, organiser):
    organiser.email = "olga@example.com"
    organiser.save()
    game = _gather(client)
    client.post(f"/organiser/games/{game.pk}/players/", {"action": "invite", "email": "cy@example.com"})
    link = _invitation_link("cy@example.com")
    # A decline cannot be undone: the first tap asks again, on a page of its own (no script needed).
    asked = client.post(link, {"action": "decline"})
    assert asked.status_code == 200 and "Yes, decline" in asked.content.decode()
    assert Invitation.objects.get(game=game).status == Invitation.Status.PENDING
    assert "declined" in client.post(link, {"action": "decline", "confirm": "yes"}).content.decode()
    assert Invitation.objects.get(game=game).status == Invitation.Status.DECLINED
    deliver_outbox()
    (told,) = [m for m in mail.outbox if m.to == ["olga@example.com"]]
    # The subject is one whole sentence (no clause cut at a semicolon); the body says the rest.
    assert told.subject == "cy@example.com declined the invitation · Delos"
    assert "cy@example.com declined the invitation to Delos." in told.body
    assert "The seat is free again" in told.body
    assert client.post(link, {"action": "decline", "confirm": "yes"}).status_code == 400


def test_a_stranger_signs_in_and_takes_a_seat_in_the_lobby(client, organiser):
    game = _gather(client, published="on")
    client.logout()
    lobby = client.get("/lobby/").content.decode()
    assert "Delos" in lobby and "2 of 2 seats free" in lobby
    assert client.get(f"/lobby/{game.pk}/")["Location"].startswith("/sign-in/")
    zoe = get_user_model().objects.create_user("zoe", email="zoe@example.com")
    client.force_login(zoe)
    taken = client.post(f"/lobby/{game.pk}/", {"name": "Zoe", "language": "en", "time_zone": ""})
    assert taken.status_code == 200
    assert "1 of 2 seats free" in client.get("/lobby/").content.decode()
    # Seated: the lobby offers no second seat, and says why.
    lobby = client.get("/lobby/").content.decode()
    assert "You have a seat in this game." in lobby and f"/lobby/{game.pk}/" not in lobby
    seat_page = client.get(f"/lobby/{game.pk}/").content.decode()
    assert "You have a seat in this game." in seat_page and 'name="name"' not in seat_page
    again = client.post(f"/lobby/{game.pk}/", {"name": "Zoe", "language": "en", "time_zone": ""})
    assert again.status_code == 400 and "You have a seat in this game." in again.content.decode()
    assert Invitation.objects.filter(game=game).count() == 1


@override_settings(RATE_LIMITS={"invitations": (2, 3600)})
def test_an_organiser_mails_only_so_many_invitations_an_hour(client, organiser):
    game = _gather(client, seats="4")
    page = f"/organiser/games/{game.pk}/players/"
    for n in range(2):
        assert client.post(page, {"action": "invite", "email": f"p{n}@example.com"}).status_code == 302
    refused = client.post(page, {"action": "invite", "email": "p9@example.com"})
    assert refused.status_code == 429 and refused["Retry-After"]
    assert Invitation.objects.filter(game=game).count() == 2
