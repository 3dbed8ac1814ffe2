"""Each player reads times in their own zone (Seat.time_zone), the organiser in the game's.

Friends in Berlin and London play a game whose organiser chose Europe/Berlin: the deadlines are
counted on Berlin's clock (weekends, turn hours), but the London player reads their deadline,
vacation and digest hour in London time on their page and in every email to them, once they
chose it on their page.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail

from games.engine import Pass
from games.models import DeadlineSettings, NotificationPreference, Seat, SeatClock
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.deadline_tick import tick
from games.services.digests import send_digests
from games.services.orders import submit_order
from games.services.substitutes import hand_over_seat, set_preferences
from games.words.clock import recompute_deadlines
from notifications.services import deliver_outbox
from tests.order_loop_support import seats_to_act, two_player_game

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # winter: Berlin is UTC+1, London UTC+0
ON = "Your email preferences were saved."


@pytest.fixture
def mailbox(settings):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []
    return mail.outbox


def berlin_game(at: datetime, **settings):
    """A two-player game created at `at` whose organiser (Olga) chose Europe/Berlin."""
    organiser = User.objects.create_user("olga", "olga@example.com", "pw")
    with time_machine.travel(at, tick=False):
        game = two_player_game(organiser=organiser, name="Aegean")
    DeadlineSettings.objects.create(game=game, time_zone="Europe/Berlin", **settings)
    recompute_deadlines(game)
    deliver_outbox()
    mail.outbox.clear()
    return game


def page(client, seat: Seat) -> str:
    return client.get(f"/play/{seat.game_id}/{link_token(seat)}/").content.decode()


def choose(client, seat: Seat, zone: str, **fields: str):
    """The player saves their preferences on their page with `zone` chosen."""
    data = {"mode": "must_act", "digest_hour": "18", "language": seat.language, "time_zone": zone, **fields}
    return client.post(f"/play/{seat.game_id}/{link_token(seat)}/preferences/", data, follow=True)


def take_a_vacation(client, seat: Seat, days: int = 2, **kwargs):
    """The player page's vacation form, posted."""
    return client.post(f"/play/{seat.game_id}/{link_token(seat)}/vacation/", {"days": str(days)}, **kwargs)


def emails_to(seat: Seat) -> list:
    deliver_outbox()
    return [m for m in mail.outbox if m.to == [seat.email]]


def organiser_page(client, game) -> str:
    client.force_login(game.organiser)
    return client.get(f"/organiser/games/{game.pk}/deadlines/").content.decode()


@pytest.mark.django_db
def test_a_london_seat_reads_its_deadline_in_london_time_on_its_page_and_in_its_turn_email(client, mailbox):
    game = berlin_game(T0)
    (berliner,) = seats_to_act(game)  # on turn: deadline T0 + 48 h = 2026-12-03 09:00 UTC
    londoner = game.seats.exclude(pk=berliner.pk).get()
    assert ON in choose(client, londoner, "Europe/London").content.decode()
    assert "3 Dec 2026, 10:00 (Europe/Berlin)" in page(client, berliner)

    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        submit_order(game, berliner, Pass(berliner.faction), load_game(game).seq)
    # The London seat's turn: 2026-12-03 10:00 UTC is 10:00 in London, 11:00 in Berlin.
    (turn,) = emails_to(londoner)
    assert "Your deadline: 3 Dec 2026, 10:00 (Europe/London)." in turn.body
    assert "3 Dec 2026, 10:00 (Europe/London)" in turn.alternatives[0][0]
    assert "Europe/Berlin" not in turn.body
    assert "3 Dec 2026, 10:00 (Europe/London)" in page(client, londoner)
    assert "3 Dec 2026, 11:00 (Europe/Berlin)" in organiser_page(client, game)  # the organiser's clock

    with time_machine.travel(T0 + timedelta(hours=2), tick=False):
        submit_order(game, londoner, Pass(londoner.faction), load_game(game).seq)
    # Back to the Berlin seat, who chose no zone: the game's.
    (turn,) = emails_to(berliner)
    assert "Your deadline: 3 Dec 2026, 12:00 (Europe/Berlin)." in turn.body
    assert "3 Dec 2026, 12:00 (Europe/Berlin)" in page(client, berliner)
    assert "3 Dec 2026, 12:00 (Europe/Berlin)" in organiser_page(client, game)


@pytest.mark.django_db
def test_across_the_clock_change_reminder_and_missed_deadline_name_the_london_time_it_will_be(
    client, mailbox
):
    """The clocks go back on Sunday 31 October 2027. A turn begins on the Saturday (BST, UTC+1);
    its deadline on Monday 09:00 UTC is 09:00 in London (GMT) and 10:00 in Berlin (CET) — the
    reminder sent on the Saturday, still in summer time, must already say so."""
    saturday = datetime(2027, 10, 30, 9, 0, tzinfo=UTC)
    game = berlin_game(saturday, reminders="10%")
    (londoner,) = seats_to_act(game)
    choose(client, londoner, "Europe/London")
    deadline = SeatClock.objects.get(game=game, faction=londoner.faction).deadline
    assert deadline == saturday + timedelta(hours=48)  # counted as ever: real hours
    assert "1 Nov 2027, 09:00 (Europe/London)" in page(client, londoner)

    with time_machine.travel(saturday + timedelta(hours=5), tick=False):  # 15:00 BST
        assert tick().reminders == 1
    (reminder,) = emails_to(londoner)
    assert "your order is due by 1 Nov 2027, 09:00 (Europe/London)" in reminder.subject
    assert "The deadline is 1 Nov 2027, 09:00 (Europe/London)" in reminder.body
    assert "1 Nov 2027, 10:00 (Europe/Berlin)" in organiser_page(client, game)

    mail.outbox.clear()
    with time_machine.travel(saturday + timedelta(hours=48, minutes=1), tick=False):
        assert len(tick().defaults) == 1
    (missed,) = [m for m in emails_to(londoner) if "Your deadline passed" in m.subject]
    assert "Your deadline, 1 Nov 2027, 09:00 (Europe/London), passed" in missed.body


@pytest.mark.django_db
def test_the_player_chooses_a_zone_in_the_preferences_form_and_a_bogus_one_changes_nothing(client):
    game = berlin_game(T0)
    seat = game.seats.first()
    shown = page(client, seat)
    assert '<option value="" selected>the game&#x27;s time zone (Europe/Berlin)</option>' in shown
    assert '<option value="Europe/London">Europe/London</option>' in shown
    assert "Digest hour (0-23, Europe/Berlin time)" in shown

    assert ON in choose(client, seat, "Europe/London", mode="digest", digest_hour="8").content.decode()
    seat.refresh_from_db()
    assert seat.time_zone == "Europe/London"
    shown = page(client, seat)
    assert '<option value="Europe/London" selected>Europe/London</option>' in shown
    assert "Digest hour (0-23, Europe/London time)" in shown

    for bogus in ("Mars/Olympus_Mons", "localtime", "europe/london", "W-SU", "Etc/GMT+1"):
        told = choose(client, seat, bogus, mode="every_turn", digest_hour="20").content.decode()
        assert "Unknown time zone; choose one from the list, e.g. Europe/London." in told
        assert ON not in told
    with pytest.raises(ValueError, match="unknown time zone"):  # the service refuses them too
        set_preferences(seat, "every_turn", 20, "en", "localtime")
    seat.refresh_from_db()
    pref = NotificationPreference.objects.get(seat=seat)
    assert (seat.time_zone, pref.mode, pref.digest_hour) == ("Europe/London", "digest", 8)

    seat.language = "de"
    seat.language_chosen = True
    seat.save()
    told = choose(client, seat, "Mars/Olympus_Mons").content.decode()
    assert "Unbekannte Zeitzone; wähle eine aus der Liste, z. B. Europe/London." in told
    shown = page(client, seat)
    assert "die Zeitzone der Partie (Europe/Berlin)" in shown and "Deine Zeitzone" in shown
    assert "Stunde der Zusammenfassung (0–23, Uhrzeit Europe/London)" in shown

    choose(client, seat, "")  # back to the game's
    seat.refresh_from_db()
    assert seat.time_zone == ""
    assert "Uhrzeit Europe/Berlin" in page(client, seat)


@pytest.mark.django_db
def test_the_digest_goes_out_at_the_seats_local_hour(client, mailbox):
    game = berlin_game(T0)
    (on_turn,) = seats_to_act(game)
    londoner = game.seats.exclude(pk=on_turn.pk).get()
    choose(client, londoner, "Europe/London", mode="digest", digest_hour="8")
    with time_machine.travel(T0, tick=False):
        submit_order(game, on_turn, Pass(on_turn.faction), load_game(game).seq)
    deliver_outbox()
    mail.outbox.clear()
    day = datetime(2026, 12, 2, tzinfo=UTC)
    assert send_digests(now=day.replace(hour=7, minute=30)) == 0  # 08:30 in Berlin, 07:30 in London
    assert send_digests(now=day.replace(hour=8, minute=1)) == 1
    (digest,) = emails_to(londoner)
    assert "Your daily digest" in digest.subject


@pytest.mark.django_db
def test_vacation_times_are_the_seats_and_a_substitute_starts_on_the_games_zone(client, mailbox):
    game = berlin_game(T0)
    (londoner,) = seats_to_act(game)
    choose(client, londoner, "Europe/London")
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        told = take_a_vacation(client, londoner, follow=True).content.decode()
        shown = page(client, londoner)
    # Two days from 10:00 UTC; the deadline moves by them to 2026-12-05 09:00 UTC.
    assert "your deadlines stand still until 3 Dec 2026, 10:00 (Europe/London)." in told
    assert "You are on vacation until 3 Dec 2026, 10:00 (Europe/London)." in shown
    assert "5 Dec 2026, 09:00 (Europe/London)" in shown

    # The absent player's zone is not the substitute's: they read the game's until they choose.
    mail.outbox.clear()
    with time_machine.travel(T0 + timedelta(hours=3), tick=False):
        hand_over_seat(londoner, "Sub", "sub@example.com")
    londoner.refresh_from_db()
    assert londoner.time_zone == ""
    (welcome,) = emails_to(londoner)
    assert "The deadline is 5 Dec 2026, 10:00 (Europe/Berlin)" in welcome.body


@pytest.mark.django_db
def test_the_history_tells_a_vacations_end_in_each_readers_zone(client, mailbox):
    """Before, the history said "until 2026-12-03 10:00 UTC" to everyone."""
    game = berlin_game(T0)
    (londoner,) = seats_to_act(game)
    berliner = game.seats.exclude(pk=londoner.pk).get()
    choose(client, londoner, "Europe/London")
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):  # two days from 10:00 UTC
        take_a_vacation(client, londoner)
    history = "/play/{}/{}/history/?since=all"
    for reader, until in (
        (londoner, "3 Dec 2026, 10:00 (Europe/London)"),
        (berliner, "3 Dec 2026, 11:00 (Europe/Berlin)"),
    ):
        told = client.get(history.format(game.pk, link_token(reader))).content.decode()
        assert f"is on vacation for 2 days (until {until}); their deadlines wait." in told
        assert "UTC" not in told
    client.force_login(game.organiser)  # the organiser reads the game's zone
    told = client.get(f"/organiser/games/{game.pk}/history/").content.decode()
    assert "(until 3 Dec 2026, 11:00 (Europe/Berlin))" in told and "UTC" not in told


@pytest.mark.django_db
def test_what_happened_since_my_last_turn_tells_a_vacations_end_in_the_readers_zone(client, mailbox):
    """The same words on the player page, in the turn email and on the organiser's game page
    (situation.happenings; the digest tells them alike)."""
    game = berlin_game(T0)
    (berliner,) = seats_to_act(game)
    londoner = game.seats.exclude(pk=berliner.pk).get()
    choose(client, londoner, "Europe/London")
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        take_a_vacation(client, berliner)
        submit_order(game, berliner, Pass(berliner.faction), load_game(game).seq)
    until = "(until 3 Dec 2026, 10:00 (Europe/London)); their deadlines wait."
    assert until in page(client, londoner)
    (turn,) = emails_to(londoner)
    assert until in turn.body and "UTC" not in turn.body
    client.force_login(game.organiser)  # the organiser's "Recent events": the game's zone
    assert (
        "(until 3 Dec 2026, 11:00 (Europe/Berlin))"
        in client.get(f"/organiser/games/{game.pk}/").content.decode()
    )
