"""Invitations and the lobby attacked through their forms (docs/front-door.md "Invitations", "Open
games and the lobby"): a form with a field changed to another game, seat or faction, an invitation
accepted twice, declined after it was accepted, accepted after it lapsed or after the game began.
Each is refused on the page, saying why, and changes nothing: no invitation, seat, event or email.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail

from games.models import Event, Game, Invitation, Seat
from games.services.game_setup import create_game
from games.services.invitations import gather_game, invite, remind_and_lapse
from notifications.models import Outbox
from notifications.services import deliver_outbox
from tests.order_loop_support import ANA, BEN

pytestmark = pytest.mark.django_db

ANSWERED = "This invitation was answered already or has lapsed."
BEGUN = "This game has begun; its seats are taken."
ACCEPT = {"action": "accept", "name": "Ana", "language": "en", "time_zone": ""}


def everything() -> tuple:
    """What a refusal must leave as it was, in every game."""
    invitations = list(Invitation.objects.order_by("pk").values())
    seats = list(Seat.objects.order_by("pk").values())
    return invitations, seats, Event.objects.count(), Outbox.objects.count()


def link_mailed_to(address: str) -> str:
    deliver_outbox()
    email = next(m for m in reversed(mail.outbox) if m.to == [address])
    match = re.search(r"https?://[^/\s]+(/invitation/\S+/)", email.body)
    assert match, email.body
    return match[1]


@pytest.fixture
def olga(organiser) -> object:
    organiser.email = "olga@example.com"
    organiser.save()
    return organiser


@pytest.fixture
def delos(olga) -> Game:
    """A three-seat game gathering by invitation: Ana is promised Athens, Ben a random faction."""
    game = gather_game(olga, "Delos", "en", 3)
    invite(game, "ana@example.com", "athens")
    invite(game, "ben@example.com")
    return game


def test_an_accept_form_with_fields_added_for_another_game_seat_faction_or_address_takes_only_its_own_seat(
    client, delos, olga
):
    """Keeps out an invited player who adds fields to the accept form to take another faction, an
    address's seat or a seat in another game: the invitation's link alone says which seat it is."""
    other = gather_game(olga, "Naxos", "en", 2, published=True)
    others_before = list(Invitation.objects.filter(game=other).values())
    link = link_mailed_to("ana@example.com")
    tampered = {
        **ACCEPT,
        "faction": "sparta",
        "game": str(other.pk),
        "game_id": str(other.pk),
        "seat": "1",
        "email": "eve@example.com",
        "status": "accepted",
    }
    assert client.post(link, tampered).status_code == 200
    ana = Invitation.objects.get(game=delos, name="Ana")
    assert (ana.email, ana.faction, ana.status) == ("ana@example.com", "athens", Invitation.Status.ACCEPTED)
    assert list(Invitation.objects.filter(game=other).values()) == others_before
    assert not Invitation.objects.filter(email="eve@example.com").exists()


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [("faction", "rome", "Select a valid choice"), ("language", "xx", "Select a valid choice")],
)
def test_the_organisers_invitation_form_with_a_faction_or_language_that_is_no_choice_is_refused(
    client, delos, field, value, said
):
    """Keeps out an invitation to a faction the game has not (or in a language the service has not)."""
    before = everything()
    data = {"action": "invite", "email": "cy@example.com", "faction": "", "language": "en", field: value}
    refused = client.post(f"/organiser/games/{delos.pk}/players/", data)
    assert refused.status_code == 400 and said in refused.content.decode()
    assert everything() == before


def test_the_organisers_forms_of_another_organisers_game_or_with_its_seats_are_refused(client, delos):
    """Keeps out an organiser who changes a game's or a seat's number in a form's address or fields
    to invite into, begin, seek a substitute in or hand over a seat of a game that is not theirs."""
    otto = get_user_model().objects.create_user("otto", email="otto@example.com")
    theirs = gather_game(otto, "Paros", "en", 2)
    running = create_game([ANA, BEN], organiser=otto, name="Kos")
    own = create_game([ANA, BEN], organiser=delos.organiser, name="Mine")
    their_seat = running.seats.get(faction="sparta")
    before = everything()
    for path, data in [
        (f"/organiser/games/{theirs.pk}/players/", {"action": "invite", "email": "cy@example.com"}),
        (f"/organiser/games/{theirs.pk}/players/", {"action": "begin"}),
        (f"/organiser/games/{running.pk}/substitutes/", {"action": "seek", "seat": their_seat.pk}),
        (f"/organiser/games/{own.pk}/substitutes/", {"action": "seek", "seat": their_seat.pk}),
        (f"/organiser/games/{running.pk}/deadlines/", {"form": "handover", "seat": their_seat.pk}),
    ]:
        assert client.post(path, {**data, "name": "Eve", "email": "eve@example.com"}).status_code == 404, path
    # The hand-over form of one's own game offers its own seats only: another game's is no choice.
    data = {"form": "handover", "seat": their_seat.pk, "name": "Eve", "email": "eve@example.com"}
    refused = client.post(f"/organiser/games/{own.pk}/deadlines/", data)
    assert refused.status_code == 400 and "Select a valid choice" in refused.content.decode()
    assert everything() == before


def test_a_lobby_seat_posted_with_a_faction_added_is_a_random_one_as_every_lobby_seat(client, olga):
    """Keeps out a stranger who adds a faction field to "Take a seat" to pick the faction the lobby
    draws at random."""
    game = gather_game(olga, "Naxos", "en", 2, published=True)
    client.force_login(get_user_model().objects.create_user("zoe", email="zoe@example.com"))
    taken = client.post(
        f"/lobby/{game.pk}/", {"name": "Zoe", "language": "en", "time_zone": "", "faction": "athens"}
    )
    assert taken.status_code == 200
    assert Invitation.objects.get(game=game).faction == ""  # drawn when the game begins


def test_an_invitation_accepted_twice_or_declined_after_accepting_is_refused_and_changes_nothing(
    client, delos
):
    """Keeps out a second answer from a forwarded or replayed invitation link: renaming the player
    after the organiser read the first, or declining to free a seat someone already holds."""
    link = link_mailed_to("ana@example.com")
    assert client.post(link, ACCEPT).status_code == 200
    before = everything()
    again = client.post(link, {**ACCEPT, "name": "Mallory"})
    assert again.status_code == 400 and ANSWERED in again.content.decode()
    declined = client.post(link, {"action": "decline", "confirm": "yes"})
    assert declined.status_code == 400 and ANSWERED in declined.content.decode()
    assert everything() == before


@pytest.mark.parametrize("swept", [False, True], ids=["past-its-expiry", "lapsed-by-the-beat"])
def test_an_invitation_accepted_after_it_lapsed_is_refused_and_changes_nothing(client, delos, swept):
    """Keeps out a late acceptance taking a seat the organiser may have promised to another since,
    whether or not the beat has marked the invitation lapsed yet."""
    link = link_mailed_to("ana@example.com")
    with time_machine.travel(timedelta(days=8)):
        if swept:
            assert remind_and_lapse() == 2
        before = everything()
        late = client.post(link, ACCEPT)
    assert late.status_code == 400 and ANSWERED in late.content.decode()
    assert everything() == before
    assert Invitation.objects.get(email="ana@example.com").status != Invitation.Status.ACCEPTED


def test_an_invitation_accepted_after_the_game_began_is_refused_and_changes_nothing(client, delos):
    """Keeps out a fourth player, or a second Athens, joining a game the organiser began with the
    players who had accepted."""
    ben_link = link_mailed_to("ben@example.com")
    cy_link = (invite(delos, "cy@example.com"), link_mailed_to("cy@example.com"))[1]
    assert client.post(ben_link, {**ACCEPT, "name": "Ben"}).status_code == 200
    assert client.post(cy_link, {**ACCEPT, "name": "Cy"}).status_code == 200
    assert client.post(f"/organiser/games/{delos.pk}/players/", {"action": "begin"}).status_code == 302
    before = everything()
    late = client.post(link_mailed_to("ana@example.com"), ACCEPT)
    assert late.status_code == 400 and BEGUN in late.content.decode()
    assert everything() == before
    assert sorted(Seat.objects.filter(game=delos).values_list("name", flat=True)) == ["Ben", "Cy"]
