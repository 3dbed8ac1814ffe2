"""Pages and emails in the player's language (docs/i18n.md).

A seat's pages follow the player's own choice, else the browser's Accept-Language, else the
seat's language; its emails are always in the seat's language, whoever's request caused them.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.cache import caches
from django.urls import reverse
from django.utils import translation

from games.engine import RuleViolation
from games.models import Event, Seat
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import create_game
from games.words.names import faction_name
from games.words.orders import violation_text
from notifications.models import Outbox
from notifications.services import rendered
from tests.order_loop_support import ANA, BEN, seats_to_act

pytestmark = pytest.mark.django_db

GERMAN_BROWSER = "de-DE,de;q=0.9,en;q=0.5"


@pytest.fixture(autouse=True)
def english_after_each_test():
    """LocaleMiddleware leaves the request's language active in this thread; later tests expect English."""
    yield
    translation.deactivate()


ENGLISH_BROWSER = "en-GB,en;q=0.8"


def page_url(seat: Seat) -> str:
    return reverse("games:play", args=[seat.game_id, link_token(seat)])


def german_game():
    return create_game([ANA, BEN], language="de", name="Partie")


def pass_order(seat: Seat) -> dict[str, object]:
    seq = load_game(seat.game).seq
    return {"kind": "suggested", "expected_seq": seq, "command": json.dumps({"kind": "pass"})}


def test_a_german_seats_page_is_german(client):
    game = german_game()
    seat = seats_to_act(game)[0]
    response = client.get(page_url(seat))
    page = response.content.decode()
    assert response["Content-Language"] == "de"
    assert '<html lang="de">' in page
    assert "431 v. Chr., Aktionsrunde 1 von 3." in page
    assert "Du bist am Zug." in page
    for words in (
        "Dein Befehl",
        "Vorgeschlagene Befehle",
        "Expandieren",
        "Bewegen",
        "Münzen hinter dem Sichtschirm",
    ):
        assert words in page
    assert "Your order" not in page and "It is your turn." not in page


def test_an_engine_refusal_on_a_german_page_is_german(client):
    game = german_game()
    seat = seats_to_act(game)[0]
    events = Event.objects.filter(game=game).count()
    data = {
        "kind": "expand",
        "expected_seq": load_game(game).seq,
        "expand-space": "I9",
        "expand-source": "deck",
    }
    response = client.post(page_url(seat), data)
    page = response.content.decode()
    assert response.status_code == 400
    # The rule is a link to its place in the German rulebook (docs/rules.de.md).
    assert (
        'I9 grenzt an keine Polis, die du kontrollierst. (Regel <a class="rule-link" href="/rules/de/#S-EXP"'
        in page
    )
    assert "is not next to a Polis you control" not in page
    assert Event.objects.filter(game=game).count() == events


def test_the_page_follows_the_browser_until_the_player_chooses(client):
    game = create_game([ANA, BEN])  # the organiser's language: English
    seat = seats_to_act(game)[0]
    german = client.get(page_url(seat), HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER)
    assert german["Content-Language"] == "de" and "Du bist am Zug." in german.content.decode()
    assert "Accept-Language" in german["Vary"]
    unknown = client.get(page_url(seat), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert "It is your turn." in unknown.content.decode()  # no French: the seat's language

    response = client.post(page_url(seat), {"kind": "language", "language": "en"})
    assert response.status_code == 302
    seat.refresh_from_db()
    assert (seat.language, seat.language_chosen) == ("en", True)
    chosen = client.get(page_url(seat), HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER).content.decode()
    assert "It is your turn." in chosen and '<html lang="en">' in chosen
    assert 'lang="de" aria-pressed="false">Deutsch</button>' in chosen


def test_an_unknown_language_changes_nothing(client):
    game = create_game([ANA, BEN])
    seat = seats_to_act(game)[0]
    client.post(page_url(seat), {"kind": "language", "language": "xx"}, HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER)
    seat.refresh_from_db()
    assert (seat.language, seat.language_chosen) == ("en", False)
    page = client.get(page_url(seat), HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER).content.decode()
    assert "Choose one of the languages offered." in page


def test_choosing_german_on_the_page_makes_the_emails_german(client):
    game = create_game([ANA, BEN])
    first = seats_to_act(game)[0]
    second = game.seats.exclude(pk=first.pk).get()
    client.post(page_url(second), {"kind": "language", "language": "de"})

    # The first player passes from an English page; the second player's turn email is German.
    client.post(page_url(first), pass_order(first), HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER)
    row = Outbox.objects.filter(game_id=game.pk, seat_id=second.pk, kind="turn").get()
    mail = rendered(row)  # as the worker will render it
    assert row.language == "de"
    assert "du bist am Zug" in mail.subject
    with translation.override("de"):
        as_faction = f"Du bist mit {faction_name(second.faction)} am Zug:"
    assert f"Hallo {second.name}," in mail.text and as_faction in mail.text
    assert "hat gepasst." in mail.text  # the narration, too
    assert '<html lang="de">' in mail.html and "Partie öffnen und Befehl geben" in mail.html
    # The footer link says what it does, in German in both parts.
    assert "Diese E-Mails abbestellen:" in mail.text and ">Diese E-Mails abbestellen</a>" in mail.html


def test_an_english_seat_gets_english_mail_from_a_german_request(client):
    game = create_game([ANA, BEN])
    first = seats_to_act(game)[0]
    second = game.seats.exclude(pk=first.pk).get()
    client.post(page_url(first), pass_order(first), HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER)
    row = Outbox.objects.filter(game_id=game.pk, seat_id=second.pk, kind="turn").get()
    mail = rendered(row)
    assert row.language == "en" and f"Hello {second.name}," in mail.text and "passed." in mail.text


def test_the_welcome_email_of_a_german_seat_is_german():
    game = german_game()
    mail = rendered(Outbox.objects.filter(game_id=game.pk, kind="welcome").first())
    assert "Du spielst" in mail.subject
    assert "Dein persönlicher Link zur Partie" in mail.text
    names = {"athens": "Ana (Athen)", "sparta": "Ben (Sparta)"}
    first, second = (names[faction] for faction in load_game(game).state.seat_order)  # H-SETUP
    assert (
        f"Spielreihenfolge (zu Beginn ausgelost, in jeder Runde dieselbe): 1. {first}, 2. {second}."
        in mail.text
    )


def test_refusals_name_the_game_words_in_the_readers_language():
    moved = RuleViolation(
        "S-MOVE",
        "You move %(moving)d %(kind)s out of %(origin)s, but %(origin)s holds only %(present)d.",
        moving=2,
        kind="Navigators",
        origin="C3",
        present=1,
    )
    turn = RuleViolation("H-YEAR", "It is not your turn; the game waits for %(player)s.", player="corinth")
    reform = RuleViolation(
        "H-GOV", "You already live under %(government)s; a Reform must change it.", government="democracy"
    )
    with translation.override("de"):
        moved_text = "Du bewegst 2 Navigatoren aus C3, aber dort gibt es nur 1. (Regel S-MOVE)"
        assert violation_text(moved) == moved_text
        assert violation_text(turn) == "Du bist nicht am Zug; Korinth ist am Zug. (Regel H-YEAR)"
        assert "unter der Demokratie" in violation_text(reform)
    with translation.override("en"):
        assert violation_text(turn) == "It is not your turn; the game waits for Corinth. (rule H-YEAR)"


def test_a_new_language_in_the_mail_preferences_is_the_players_choice_for_pages_too(client):
    game = create_game([ANA, BEN])
    seat = seats_to_act(game)[0]
    url = reverse("games:play-rest", args=[game.pk, link_token(seat), "preferences/"])
    client.post(
        url, {"mode": "must_act", "digest_hour": 18, "language": "de"}, HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER
    )
    seat.refresh_from_db()
    assert (seat.language, seat.language_chosen) == ("de", True)
    page = client.get(page_url(seat), HTTP_ACCEPT_LANGUAGE=ENGLISH_BROWSER).content.decode()
    assert "Deine E-Mail-Einstellungen wurden gespeichert." in page and "Du bist am Zug." in page


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)  # one window: one minute
def test_the_too_many_requests_page_speaks_the_browsers_language(client, settings):
    """It answers before the link's seat (and so its chosen language) is read: it reads Accept-Language."""
    settings.RATE_LIMITS = {"links": (1, 60)}
    caches["ratelimit"].clear()
    seat = seats_to_act(create_game([ANA, BEN]))[0]
    client.get(page_url(seat), HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER)
    refused = client.get(page_url(seat), HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER)
    assert refused.status_code == 429
    page = refused.content.decode()
    assert '<html lang="de">' in page and "Zu viele Anfragen. Bitte warte" in page


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)
def test_too_many_sign_ins_tell_the_organiser_about_signing_in_not_about_a_link(client, settings):
    """The organiser audit: the sign-in limit's page said 'Your link still works' to an organiser."""
    settings.RATE_LIMITS = {"logins": (1, 300)}
    caches["ratelimit"].clear()
    form = {"username": "olga", "password": "wrong"}
    client.post(reverse("login"), form, HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER)
    refused = client.post(reverse("login"), form, HTTP_ACCEPT_LANGUAGE=GERMAN_BROWSER)
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Dein Passwort wurde nicht geprüft. Warte und melde dich dann noch einmal an." in page
    assert "Link" not in page
