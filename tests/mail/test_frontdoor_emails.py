"""The front door's emails as they are sent (docs/front-door.md): each invitation in the language the
organiser chose for its address, the sign-in link's own footer, and an unnamed game's name in the
game's language."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from games.models import Game
from games.services.invitations import gather_game, invite
from games.services.sign_in import ask_for_sign_in
from notifications.services import deliver_outbox

pytestmark = pytest.mark.django_db
SEAT_KEY = "This link is your key to the game"


def _sent_to(to: str):
    deliver_outbox()
    (email,) = [m for m in mail.outbox if m.to == [to]]
    return email


def test_each_invitation_is_mailed_in_the_language_chosen_for_its_address(client, organiser):
    organiser.email = "olga@example.com"
    organiser.save()
    client.post("/organiser/games/gather/", {"name": "Delos", "language": "en", "seats": "3"})
    game = Game.objects.get(name="Delos")
    page = f"/organiser/games/{game.pk}/players/"
    form = client.get(page).content.decode()
    assert '<option value="en" selected>' in form  # the game's language, to start
    client.post(page, {"action": "invite", "email": "jan@example.com", "faction": "", "language": "de"})
    client.post(page, {"action": "invite", "email": "amy@example.com", "faction": "", "language": "en"})
    german, english = _sent_to("jan@example.com"), _sent_to("amy@example.com")
    assert "Einladung" in german.subject and "lädt dich" in german.body
    assert "invitation" in english.subject and "invites you" in english.body
    html = german.alternatives[0][0]
    assert '<html lang="de">' in html and SEAT_KEY not in html
    # The page the invited person opens offers the invitation's language to start.
    link = german.body.split("/invitation/")[1].split("/")[0]
    answer = client.get(f"/invitation/{link}/").content.decode()
    assert '<option value="de" selected>' in answer


def test_the_sign_in_email_says_what_a_sign_in_link_is(settings):
    ask_for_sign_in("nora@example.com", "en")
    email = _sent_to("nora@example.com")
    html = email.alternatives[0][0]
    for body in (email.body, html):
        # How long and how often it works, and what to do with an email not asked for: each said once.
        assert body.count("It works once, for 30 minutes.") == 1 and body.count("30 minutes") == 1
        assert body.count("If you did not ask for it, ignore this email") == 1
        assert "This sign-in link only signs you in: do not share it." in body
        assert SEAT_KEY not in body and "current state of the game" not in body


def test_the_sign_in_email_footer_is_german_too():
    ask_for_sign_in("jan@example.com", "de")
    email = _sent_to("jan@example.com")
    for body in (email.body, email.alternatives[0][0]):
        assert body.count("30 Minuten") == 1 and body.count("angefordert") == 1
        assert "Dieser Anmeldelink meldet dich nur an: gib ihn nicht weiter." in body
        assert SEAT_KEY not in body


def test_an_unnamed_game_is_named_in_its_own_language():
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    german = gather_game(olga, "", "de", 2)
    english = gather_game(olga, "", "en", 2)
    assert german.name == f"Partie {german.pk}" and english.name == f"Game {english.pk}"
    invite(german, "jan@example.com")
    email = _sent_to("jan@example.com")
    assert f"Partie {german.pk}" in email.subject and "Game " not in email.subject


@pytest.mark.parametrize(
    ("language", "subject", "asks"),
    [
        ("en", "An invitation from the organiser · Delos", "The organiser invites you"),
        ("de", "Eine Einladung der Spielleitung · Delos", "Die Spielleitung lädt dich"),
    ],
)
def test_an_invitation_names_the_organiser_by_the_name_given_never_by_their_address(
    client, organiser, language, subject, asks
):
    """Signed in by email, an account's user name is its address: no email to a stranger shows it."""
    organiser.username = organiser.email = "olga.berlin@example.com"
    organiser.save()
    gather = {"name": "Delos", "language": language, "seats": "3", "organiser_name": ""}
    client.post("/organiser/games/gather/", gather)
    page = f"/organiser/games/{Game.objects.get(name='Delos').pk}/players/"
    client.post(page, {"action": "invite", "email": "jan@example.com", "faction": "", "language": language})
    unnamed = _sent_to("jan@example.com")
    assert unnamed.subject == subject and asks in unnamed.body
    assert "olga.berlin" not in unnamed.body + unnamed.subject + unnamed.alternatives[0][0]

    client.post("/organiser/games/gather/", {**gather, "name": "Naxos", "organiser_name": " Olga "})
    organiser.refresh_from_db()
    assert organiser.get_full_name() == "Olga"
    page = f"/organiser/games/{Game.objects.get(name='Naxos').pk}/players/"
    client.post(page, {"action": "invite", "email": "amy@example.com", "faction": "", "language": language})
    named = _sent_to("amy@example.com")
    assert " Olga · Naxos" in named.subject and f"Olga {asks.split(' ', 2)[2]}" in named.body
    assert "olga.berlin" not in named.body
