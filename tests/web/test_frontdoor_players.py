"""The front door as a player meets it (docs/front-door.md): signing out, a sign-in link that lands
where the person was going, "Your games" listing the games they play, the lobby's last seat, the
thanks in the language just chosen, and the names linked to their records."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from games.models import Game, Invitation, SignInRequest
from games.services.game_setup import PlayerSpec, create_game
from games.services.invitations import gather_game, invite
from notifications.services import deliver_outbox

pytestmark = pytest.mark.django_db


def _sign_in_link(to: str) -> str:
    deliver_outbox()
    email = [m for m in mail.outbox if m.to == [to]][-1]
    return re.search(r"https?://[^/\s]+(/sign-in/\S+/)", email.body)[1]


def _invitation_link(to: str) -> str:
    deliver_outbox()
    email = [m for m in mail.outbox if m.to == [to]][-1]
    return re.search(r"https?://[^/\s]+(/invitation/\S+/)", email.body)[1]


@pytest.mark.parametrize(("language", "said"), [("en", "You are signed out."), ("de", "Du bist abgemeldet.")])
def test_signing_out_lands_on_the_home_page_in_the_persons_language(client, language, said):
    client.force_login(get_user_model().objects.create_user("ida", email="ida@example.com"))
    out = client.post("/sign-out/", HTTP_ACCEPT_LANGUAGE=language)
    assert out.status_code == 302 and out["Location"] == "/"
    home = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert said in home and "Django" not in home
    assert "_auth_user_id" not in client.session
    assert client.get("/sign-out/").status_code == 405  # a GET (a prefetch) signs nobody out


def test_the_sign_in_link_lands_on_the_lobby_seat_the_stranger_chose(client):
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    game = gather_game(olga, "Delos", "en", 2, published=True)
    asked = client.get(f"/lobby/{game.pk}/")
    assert asked["Location"] == f"/sign-in/?next=/lobby/{game.pk}/"
    page = client.get(asked["Location"]).content.decode()
    assert "To take the seat you chose in the lobby, sign in first" in page
    assert f'name="next" value="/lobby/{game.pk}/"' in page
    client.post("/sign-in/", {"email": "zoe@example.com", "next": f"/lobby/{game.pk}/"})
    assert SignInRequest.objects.get().next_path == f"/lobby/{game.pk}/"
    landed = client.post(_sign_in_link("zoe@example.com"))
    assert landed.status_code == 302 and landed["Location"] == f"/lobby/{game.pk}/"
    assert "Take a seat" in client.get(landed["Location"]).content.decode()


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"])
def test_a_next_page_off_the_site_is_dropped(client, target):
    page = client.get("/sign-in/", {"next": target}).content.decode()
    assert "evil" not in page and "javascript" not in page and "sign in first" not in page
    client.post("/sign-in/", {"email": "eve@example.com", "next": target})
    assert SignInRequest.objects.get().next_path == ""
    assert client.post(_sign_in_link("eve@example.com"))["Location"] == "/organiser/"


def test_your_games_lists_the_seats_of_the_accounts_address_and_opens_each(client):
    create_game(
        [PlayerSpec("Ana", "Ana@Example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")],
        name="Aegean",
    )
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    gathering = gather_game(olga, "Delos", "en", 3)
    invite(gathering, "ana@example.com")
    ana = get_user_model().objects.create_user("ana", email="ana@example.com")
    client.force_login(ana)
    page = client.get("/organiser/").content.decode()
    assert "You have no games yet" not in page and "Games you play" in page
    assert "Aegean" in page and "Ana (Athens)" in page and "Open your page" in page
    # An invitation not answered holds no seat of hers yet; one accepted is listed as waiting.
    assert "Delos" not in page
    Invitation.objects.filter(game=gathering).update(status=Invitation.Status.ACCEPTED, name="Ana")
    assert "Waiting for players: 1 of 3 seats taken" in client.get("/organiser/").content.decode()
    seat = Game.objects.get(name="Aegean").seats.get(faction="athens")
    opened = client.get(f"/your-seats/{seat.pk}/")
    assert opened.status_code == 302 and opened["Location"].startswith(f"/play/{seat.game_id}/")
    page = client.get(opened["Location"], follow=True)
    assert page.status_code == 200 and "Ana" in page.content.decode()
    ben = Game.objects.get(name="Aegean").seats.get(faction="sparta")
    assert client.get(f"/your-seats/{ben.pk}/").status_code == 404  # another's seat
    client.logout()
    assert client.get(f"/your-seats/{seat.pk}/").status_code == 302  # to the sign-in


def test_the_last_lobby_seat_says_the_game_began_and_the_organiser_is_told_it_was_taken(client):
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    game = gather_game(olga, "Delos", "en", 2, published=True)
    for name in ("Ana", "Ben"):
        client.force_login(get_user_model().objects.create_user(name, email=f"{name}@example.com"))
        answer = client.post(f"/lobby/{game.pk}/", {"name": name, "language": "en", "time_zone": ""})
        said = answer.content.decode()
    assert "the game has begun" in said and "The game begins when every seat is taken" not in said
    deliver_outbox()
    told = [m for m in mail.outbox if m.to == ["olga@example.com"]]
    assert [m.subject for m in told] == [
        "Ana took an open seat · Delos",
        "Ben took an open seat · Delos",
    ]
    assert "Ben took an open seat of Delos in the lobby." in told[-1].body
    assert "accepted the invitation" not in told[-1].body


def test_the_thanks_come_in_the_language_just_chosen(client):
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    game = gather_game(olga, "Delos", "en", 3)
    invite(game, "ben@example.com")
    thanks = client.post(
        _invitation_link("ben@example.com"),
        {"action": "accept", "name": "Ben", "language": "de", "time_zone": "Europe/Berlin"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    text = thanks.content.decode()
    assert thanks.status_code == 200 and '<html lang="de">' in text
    assert "Danke" in text and "Thank you" not in text
    assert thanks["Content-Language"] == "de"  # the header names the page's language, not the browser's


def test_a_players_name_links_to_their_record_and_ones_own_record_is_named(client):
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    game = gather_game(olga, "Delos", "en", 3)
    invite(game, "ana@example.com")
    ana = get_user_model().objects.create_user("ana", email="ana@example.com")
    client.force_login(ana)
    own = client.get(f"/players/{ana.pk}/").content.decode()
    assert "<h1>Your record</h1>" in own and "A player" not in own
    client.post(_invitation_link("ana@example.com"), {"action": "accept", "name": "Ana", "language": "en"})
    assert "<h1>Ana</h1>" in client.get(f"/players/{ana.pk}/").content.decode()
    client.force_login(olga)
    listing = client.get(f"/organiser/games/{game.pk}/players/").content.decode()
    assert f'<a href="/players/{ana.pk}/">Ana</a>' in listing
