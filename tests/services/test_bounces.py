"""Bounces and spam complaints: the ESP's real tracking webhook posts, through anymail's URLs, to
what the organiser is mailed and what the player and organiser pages show."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from games.engine import Pass
from games.mail.outbox import wants_mail
from games.models import DeadlineSettings, DeliveryProblem, NotificationPreference
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.messages import send_message
from games.services.orders import submit_order
from notifications.models import Outbox
from notifications.services import deliver_outbox
from tests.bounce_support import (
    MAILGUN_KEY,
    NO_SUCH_USER,
    SECRET,
    mailgun_event,
    post_mailgun,
    post_postmark,
    postmark_record,
)
from tests.order_loop_support import seats_to_act

ORGANISER = "olga@example.com"
PLAYERS = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@exmaple.com", "sparta")]


@pytest.fixture
def game(db, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": MAILGUN_KEY}
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []
    organiser = get_user_model().objects.create_user("olga", ORGANISER, "pw")
    created = create_game(PLAYERS, organiser=organiser, name="Typo game")
    deliver_outbox()
    return created


def seat_of(game, faction: str):
    return game.seats.get(faction=faction)


def welcome(seat) -> Outbox:
    return Outbox.objects.get(seat_id=seat.pk, kind="welcome")


def alerts() -> list:
    deliver_outbox()
    return [m for m in mail.outbox if m.to == [ORGANISER]]


def page(client, seat) -> str:
    response = client.get(f"/play/{seat.game_id}/{link_token(seat)}/")
    assert response.status_code == 200
    return response.content.decode()


def complain(client, seat) -> None:
    """The player marks their welcome as spam; Postmark reports it."""
    record = postmark_record(welcome(seat), "SpamComplaint", "SpamComplaint")
    assert post_postmark(client, record).status_code == 200


def next_turn_email(game, seat) -> Outbox:
    """Play until `seat` is mailed its turn again; its newest sent email."""
    (on_turn,) = seats_to_act(game)
    if on_turn == seat:
        submit_order(game, on_turn, Pass(on_turn.faction), load_game(game).seq)
        (on_turn,) = seats_to_act(game)
    submit_order(game, on_turn, Pass(on_turn.faction), load_game(game).seq)
    deliver_outbox()
    return Outbox.objects.filter(seat_id=seat.pk, to_email=seat.email, kind="turn").latest("sent_at")


@pytest.mark.django_db
def test_a_hard_bounce_tells_the_organiser_once_and_shows_on_every_page(game, client):
    ben = seat_of(game, "sparta")
    record = postmark_record(welcome(ben))
    assert post_postmark(client, record).status_code == 200
    problem = DeliveryProblem.objects.get(seat=ben)
    assert (problem.kind, problem.event, problem.email) == ("undeliverable", "bounced", "ben@exmaple.com")
    assert problem.description == NO_SUCH_USER and problem.resolution == ""

    (alert,) = alerts()
    assert alert.subject == "Emails to Ben are not arriving · Typo game"
    assert "Ben (Sparta) at ben@exmaple.com could not be delivered" in alert.body
    assert f"The mail server said: {NO_SUCH_USER}" in alert.body
    assert "hand the seat over to the same player with the right address" in alert.body
    assert f"/organiser/games/{game.pk}/deadlines/" in alert.body

    banner = "Emails to ben@exmaple.com are not arriving (the mail server said: The server was unable"
    assert banner in page(client, ben)
    assert "are not arriving" not in page(client, seat_of(game, "athens"))
    client.force_login(game.organiser)
    assert (
        "Emails to ben@exmaple.com are not arriving since"
        in client.get(f"/organiser/games/{game.pk}/").content.decode()
    )
    deadlines = client.get(f"/organiser/games/{game.pk}/deadlines/").content.decode()
    assert "Emails to ben@exmaple.com are not arriving since" in deadlines

    # The ESP retries its webhook, and every later email to the address bounces too: one problem,
    # one alert.
    assert post_postmark(client, record).status_code == 200
    assert post_postmark(client, postmark_record(next_turn_email(game, ben))).status_code == 200
    problem = DeliveryProblem.objects.get(seat=ben)
    assert problem.reports == 2
    assert len(alerts()) == 1


@pytest.mark.django_db
def test_a_delivered_email_clears_the_problem_and_a_late_bounce_of_an_older_one_changes_nothing(game, client):
    ben = seat_of(game, "sparta")
    first = welcome(ben)
    # A soft bounce (the mailbox is full) through Mailgun's signed JSON webhook.
    assert post_mailgun(client, mailgun_event(first)).status_code == 200
    assert DeliveryProblem.objects.get(seat=ben).description == "Mailbox full"
    later = next_turn_email(game, ben)
    assert post_postmark(client, postmark_record(later, "Delivery")).status_code == 200
    assert DeliveryProblem.objects.get(seat=ben).resolution == "delivered"
    assert "are not arriving" not in page(client, ben)
    # The ESP posts the older email's bounce once more: old news.
    assert post_mailgun(client, mailgun_event(first)).status_code == 200
    assert not DeliveryProblem.objects.filter(seat=ben, resolution="").exists()
    # A new bounce after that is a new problem, with its own alert.
    assert post_postmark(client, postmark_record(next_turn_email(game, ben))).status_code == 200
    assert DeliveryProblem.objects.filter(seat=ben).count() == 2
    assert len(alerts()) == 2


@pytest.mark.django_db
def test_temporary_failures_opens_and_clicks_change_nothing(game, client):
    ben = seat_of(game, "sparta")
    row = welcome(ben)
    assert post_mailgun(client, mailgun_event(row, severity="temporary")).status_code == 200
    assert post_postmark(client, postmark_record(row, kind="Transient")).status_code == 200
    opened = {"RecordType": "Open", "Recipient": row.to_email, "MessageID": row.message_id, "Tag": row.kind}
    assert post_postmark(client, {**opened, "Metadata": postmark_record(row)["Metadata"]}).status_code == 200
    assert not DeliveryProblem.objects.exists()
    assert alerts() == []


@pytest.mark.django_db
def test_a_bounce_for_the_old_address_after_a_hand_over_changes_nothing(game, client):
    ben = seat_of(game, "sparta")
    old_welcome = welcome(ben)
    assert post_postmark(client, postmark_record(old_welcome)).status_code == 200
    assert len(alerts()) == 1
    client.force_login(game.organiser)
    response = client.post(
        f"/organiser/games/{game.pk}/deadlines/",
        {"form": "handover", "seat": ben.pk, "name": "Ben", "email": "ben@example.com"},
    )
    assert response.status_code == 302
    ben.refresh_from_db()
    assert DeliveryProblem.objects.get(seat=ben).resolution == "address-changed"
    assert "are not arriving" not in page(client, ben)
    assert "are not arriving" not in client.get(f"/organiser/games/{game.pk}/").content.decode()
    mail.outbox.clear()
    # The old address's bounces keep coming (the ESP's retries, the welcome's soft bounce).
    assert post_postmark(client, postmark_record(old_welcome)).status_code == 200
    assert post_postmark(client, postmark_record(old_welcome, kind="SoftBounce")).status_code == 200
    assert not DeliveryProblem.objects.filter(seat=ben, resolution="").exists()
    assert alerts() == []
    assert "are not arriving" not in page(client, ben)


@pytest.mark.django_db
def test_a_spam_complaint_stops_the_non_essential_emails_and_tells_the_organiser(game, client):
    ana, ben = seat_of(game, "athens"), seat_of(game, "sparta")
    complain(client, ben)
    problem = DeliveryProblem.objects.get(seat=ben)
    assert (problem.kind, problem.event) == ("complaint", "complained")
    (alert,) = alerts()
    assert alert.subject == "Ben marked an email as spam · Typo game"
    assert "Ben (Sparta) marked an email of this game to ben@exmaple.com as spam" in alert.body
    assert NotificationPreference.objects.get(seat=ben).essential_only
    assert "was marked as spam, so you now get only the emails you need to play" in page(client, ben)

    mail.outbox.clear()
    send_message(ana, "sparta", "Truce?")  # a message is not needed to play: no email
    deliver_outbox()
    assert [m for m in mail.outbox if m.to == [ben.email]] == []
    assert not wants_mail(ben, "reminder-1") and wants_mail(ben, "turn")
    next_turn_email(game, ben)  # the turn email still goes out
    assert [m for m in mail.outbox if m.to == [ben.email]]

    # The player chooses their emails again on the page: the complaint no longer holds them back.
    response = client.post(
        f"/play/{game.pk}/{link_token(ben)}/preferences/",
        {"mode": "must_act", "digest_hour": 18, "language": "en"},
    )
    assert response.status_code == 302
    assert DeliveryProblem.objects.get(seat=ben).resolution == "preferences"
    assert wants_mail(NotificationPreference.objects.get(seat=ben).seat, "reminder-1")
    assert "marked as spam" not in page(client, ben)


@pytest.mark.django_db
def test_without_alerts_the_problem_is_still_recorded_and_shown(game, client):
    DeadlineSettings.objects.create(game=game, alert_organiser=False)
    ben = seat_of(game, "sparta")
    assert post_postmark(client, postmark_record(welcome(ben), kind="BadEmailAddress")).status_code == 200
    assert DeliveryProblem.objects.get(seat=ben).event == "rejected"
    assert alerts() == []
    assert "Emails to ben@exmaple.com are not arriving" in page(client, ben)


@pytest.mark.django_db
def test_german_games_tell_in_german(db, settings, client):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []
    organiser = get_user_model().objects.create_user("olga", ORGANISER, "pw")
    game = create_game(PLAYERS, "de", organiser=organiser, name="Tippfehler")
    deliver_outbox()
    ben = seat_of(game, "sparta")
    assert post_postmark(client, postmark_record(welcome(ben))).status_code == 200
    (alert,) = alerts()
    assert alert.subject == "E-Mails an Ben kommen nicht an · Tippfehler"
    assert "Der Mailserver sagte:" in alert.body
    text = client.get(f"/play/{game.pk}/{link_token(ben)}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "E-Mails an ben@exmaple.com kommen nicht an (der Mailserver sagte:" in text


@pytest.mark.django_db
def test_a_hand_over_lifts_a_spam_complaint_even_to_the_same_address(game, client):
    ben = seat_of(game, "sparta")
    complain(client, ben)
    client.force_login(game.organiser)
    response = client.post(
        f"/organiser/games/{game.pk}/deadlines/",
        {"form": "handover", "seat": ben.pk, "name": "Benedikt", "email": ben.email},
    )
    assert response.status_code == 302
    ben.refresh_from_db()
    assert DeliveryProblem.objects.get(seat=ben).resolution == "address-changed"
    assert wants_mail(ben, "reminder-1")
    assert "marked as spam" not in page(client, ben)
