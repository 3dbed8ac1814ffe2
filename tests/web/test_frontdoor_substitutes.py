"""Seats that need a substitute, in the lobby (docs/front-door.md "Open games and the lobby"): the
organiser seeks one, a signed-in person offers, the organiser reads their record and hands the seat."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from games.models import Event, Seat, SubstituteOffer
from games.services.game_setup import create_game
from notifications.services import deliver_outbox
from tests.order_loop_support import ANA, BEN

pytestmark = pytest.mark.django_db


def test_a_seat_sought_in_the_lobby_is_handed_to_one_who_offered(client, organiser):
    organiser.email = "olga@example.com"
    organiser.save()
    game = create_game([ANA, BEN], organiser=organiser, name="Long game")
    ben = Seat.objects.get(game=game, faction="sparta")
    page = f"/organiser/games/{game.pk}/substitutes/"
    assert "Seek a substitute in the lobby" in client.get(page).content.decode()
    assert client.post(page, {"action": "seek", "seat": ben.pk}).status_code == 302
    client.logout()
    lobby = client.get("/lobby/").content.decode()
    assert "Long game: Sparta" in lobby and "ben@example.com" not in lobby
    zoe = get_user_model().objects.create_user("zoe", email="zoe@example.com")
    client.force_login(zoe)
    wanted = ben.substitute_wanted
    offered = client.post(f"/lobby/seats/{wanted.pk}/", {"name": "Zoe"})
    assert offered.status_code == 200 and "is with its organiser" in offered.content.decode()
    assert client.post(f"/lobby/seats/{wanted.pk}/", {"name": "Zoe"}).status_code == 400  # once
    deliver_outbox()
    assert any(
        "Zoe offers to take over Sparta" in m.subject for m in mail.outbox if m.to == ["olga@example.com"]
    )
    client.force_login(organiser)
    seats_page = client.get(page).content.decode()
    assert "Hand the seat to Zoe" in seats_page and '<dd class="played">0</dd>' in seats_page
    assert f'<a href="/players/{zoe.pk}/">Zoe</a>' in seats_page  # her name opens her record
    offer = SubstituteOffer.objects.get()
    assert client.post(page, {"action": "accept", "offer": offer.pk}).status_code == 302
    ben.refresh_from_db()
    assert (ben.name, ben.email) == ("Zoe", "zoe@example.com")
    assert Event.objects.filter(game=game, type="SeatHandedOver").count() == 1
    assert "Long game" not in client.get("/lobby/").content.decode()
    assert client.post(page, {"action": "accept", "offer": offer.pk}).status_code == 400  # filled


def test_another_organisers_seat_cannot_be_sought(client, organiser):
    other = get_user_model().objects.create_user("otto")
    game = create_game([ANA, BEN], organiser=other)
    seat = game.seats.first()
    assert (
        client.post(
            f"/organiser/games/{game.pk}/substitutes/", {"action": "seek", "seat": seat.pk}
        ).status_code
        == 404
    )
