"""Messages, vacations and mail preferences (docs/long-games.md), through the player page and the emails."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from games.engine import Pass
from games.mail.keys import read_reply_address
from games.models import DeadlineSettings, Event, NotificationPreference, SeatClock
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.digests import send_digests
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from games.services.vacations import VacationRefused, take_vacation
from games.words.clock import recompute_deadlines
from notifications.services import deliver_outbox
from tests.order_loop_support import seats_to_act

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
PLAYERS = [
    PlayerSpec("Ana", "ana@example.com", "athens"),
    PlayerSpec("Ben", "ben@example.com", "sparta"),
    PlayerSpec("Cleo", "cleo@example.com", "corinth"),
]


@pytest.fixture
def game(db, settings):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    settings.INBOUND_DOMAIN = "play.example.com"
    mail.outbox = []
    with time_machine.travel(T0, tick=False):
        created = create_game(PLAYERS, name="Long game")
    deliver_outbox()
    mail.outbox.clear()
    return created


def page(client, seat) -> str:
    return client.get(f"/play/{seat.game_id}/{link_token(seat)}/").content.decode()


def sent() -> list:
    deliver_outbox()
    return mail.outbox


@pytest.mark.django_db
def test_a_message_reaches_its_recipient_only_and_a_reply_by_email_goes_back(game, client):
    ana, ben, cleo = (game.seats.get(faction=f) for f in ("athens", "sparta", "corinth"))
    response = client.post(
        f"/play/{game.pk}/{link_token(ana)}/message/", {"to": "sparta", "text": "Shall we share Aegina?"}
    )
    assert response.status_code == 302
    event = Event.objects.get(game=game, type="MessageSent")
    assert (event.actor, event.payload) == (
        "athens",
        {"player": "athens", "to": ["sparta"], "text": "Shall we share Aegina?"},
    )
    assert "Shall we share Aegina?" in page(client, ana) and "Shall we share Aegina?" in page(client, ben)
    assert "Shall we share Aegina?" not in page(client, cleo)
    (delivered,) = sent()
    assert delivered.to == ["ben@example.com"] and "> Shall we share Aegina?" in delivered.body
    key = read_reply_address(delivered.reply_to[0])
    assert (key.seat, key.kind, key.ref) == (ben, "m", "athens")
    from games.services.inbox.replies import handle_reply

    handle_reply(key, ["Only if you leave Corinth alone."], inbound_id=1)
    answer = Event.objects.filter(game=game, type="MessageSent").last()
    assert answer.payload == {
        "player": "sparta",
        "to": ["athens"],
        "text": "Only if you leave Corinth alone.",
    }


@pytest.mark.django_db
def test_a_message_to_all_and_bad_messages(game, client):
    ana = game.seats.get(faction="athens")
    client.post(f"/play/{game.pk}/{link_token(ana)}/message/", {"to": "all", "text": "Peace?"})
    assert Event.objects.get(game=game, type="MessageSent").payload["to"] == ["corinth", "sparta"]
    before = load_game(game).seq
    response = client.post(
        f"/play/{game.pk}/{link_token(ana)}/message/", {"to": "athens", "text": "me"}, follow=True
    )
    assert "Choose a recipient and write a message." in response.content.decode()
    assert load_game(game).seq == before


@pytest.mark.django_db
def test_an_order_given_on_a_page_rendered_before_a_message_still_stands(game):
    (on_turn,) = seats_to_act(game)
    seen = load_game(game).seq
    other = game.seats.exclude(pk=on_turn.pk).first()
    from games.services.messages import send_message

    send_message(other, on_turn.faction, "Hurry up!")
    result = submit_order(game, on_turn, Pass(on_turn.faction), seen)
    assert result.seq > seen + 1


@pytest.mark.django_db
def test_a_one_day_vacation_is_told_as_one_day_in_english_and_german(game, client):
    """Before: "Athens is on vacation for 1 days", "ist 1 Tage im Urlaub"."""
    (on_turn,) = seats_to_act(game)
    other = game.seats.exclude(pk=on_turn.pk).first()
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        take_vacation(on_turn, 1)
    history = f"/play/{game.pk}/{link_token(other)}/history/?since=all"
    english = client.get(history, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "is on vacation for 1 day (until 2 Dec 2026, 10:00 (UTC)); their deadlines wait." in english
    other.language = "de"
    other.save(update_fields=["language"])
    german = client.get(history).content.decode()
    assert "ist 1 Tag im Urlaub (bis zum 2.12.2026, 10:00 (UTC)); die Fristen warten so lange." in german


@pytest.mark.django_db
def test_vacation_extends_only_the_takers_deadline_and_everyone_sees_it(game, client):
    (on_turn,) = seats_to_act(game)
    other = game.seats.exclude(pk=on_turn.pk).first()
    assert SeatClock.objects.get(game=game, faction=on_turn.faction).deadline == T0 + timedelta(hours=48)
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        response = client.post(f"/play/{game.pk}/{link_token(on_turn)}/vacation/", {"days": "3"})
    assert response.status_code == 302
    clocks = {c.faction: c for c in SeatClock.objects.filter(game=game)}
    assert clocks[on_turn.faction].deadline == T0 + timedelta(hours=48 + 72)
    assert clocks[other.faction].deadline is None
    assert "Your deadline" in page(client, on_turn) and "6 Dec 2026, 09:00 (UTC)" in page(client, on_turn)
    event = Event.objects.get(game=game, type="VacationTaken")
    assert event.payload["player"] == on_turn.faction and event.payload["days"] == 3
    from games.words.narration import describe

    assert "is on vacation for 3 days" in describe(event.type, event.payload, other.faction, game=game)


@pytest.mark.django_db
def test_vacation_respects_the_quota_and_cannot_be_stacked(game):
    DeadlineSettings.objects.create(game=game, vacation_days=14)
    recompute_deadlines(game)
    ana = game.seats.get(faction="athens")
    take_vacation(ana, 3, now=T0)
    with pytest.raises(VacationRefused, match="on vacation already"):
        take_vacation(ana, 1, now=T0 + timedelta(days=1))
    later = T0 + timedelta(days=4)
    with pytest.raises(VacationRefused, match="11 vacation days left"):
        take_vacation(ana, 12, now=later)
    take_vacation(ana, 11, now=later)
    with pytest.raises(VacationRefused, match="0 vacation days left"):
        take_vacation(ana, 1, now=later + timedelta(days=12))
    # 365 days after the first vacation began, its days count no more.
    take_vacation(ana, 3, now=T0 + timedelta(days=366))
    assert Event.objects.filter(game=game, type="VacationTaken").count() == 3


@pytest.mark.django_db
def test_preference_every_turn_mails_an_update_and_unsubscribe_stops_the_mail(game, client):
    (on_turn,) = seats_to_act(game)
    order = load_game(game).state.seat_order
    watcher = game.seats.get(faction=order[(order.index(on_turn.faction) + 2) % 3])  # not next on turn
    client.post(
        f"/play/{game.pk}/{link_token(watcher)}/preferences/",
        {"mode": "every_turn", "digest_hour": "18", "language": "en"},
    )
    assert NotificationPreference.objects.get(seat=watcher).mode == "every_turn"
    submit_order(game, on_turn, Pass(on_turn.faction), load_game(game).seq)
    updates = [m for m in sent() if m.to == [watcher.email] and "What happened" in m.subject]
    assert len(updates) == 1 and "passed." in updates[0].body
    message = sent()[-1]
    unsubscribe = message.extra_headers["List-Unsubscribe"].strip("<>")
    path = unsubscribe.removeprefix("http://127.0.0.1:8000")
    who = game.seats.get(email=message.to[0])
    assert "No more emails about this game" in client.get(path).content.decode()
    assert (
        NotificationPreference.objects.filter(seat=who, unsubscribed=True).count() == 0
    )  # GET changes nothing
    response = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert NotificationPreference.objects.get(seat=who).unsubscribed
    mail.outbox.clear()
    while seats_to_act(game)[0] != who:
        seat = seats_to_act(game)[0]
        submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    assert all(m.to != [who.email] for m in sent())
    assert client.post("/mail/unsubscribe/forged/").status_code == 404


@pytest.mark.django_db
def test_a_daily_digest_goes_out_once_a_day_at_the_chosen_hour(game):
    cleo = game.seats.get(faction="corinth")
    NotificationPreference.objects.create(seat=cleo, mode="digest", digest_hour=18)
    (on_turn,) = seats_to_act(game)
    submit_order(game, on_turn, Pass(on_turn.faction), load_game(game).seq)
    deliver_outbox()
    mail.outbox.clear()
    assert send_digests(now=T0.replace(hour=17)) == 0
    assert send_digests(now=T0.replace(hour=18, minute=5)) == 1
    assert send_digests(now=T0.replace(hour=19)) == 0  # once a day
    (digest,) = sent()
    assert digest.to == [cleo.email] and "Your daily digest" in digest.subject
    assert "passed." in digest.body


@pytest.mark.django_db
def test_the_digest_hour_is_the_games_zone_named_on_the_page_and_follows_its_clock_change(game, client):
    """A player in London in a Berlin game chooses the digest's hour on a page that says which
    clock it is read on; the digest follows Berlin's clock across the last Sunday of March."""
    DeadlineSettings.objects.create(game=game, time_zone="Europe/Berlin")
    ben = game.seats.get(faction="sparta")
    assert "Digest hour (0-23, Europe/Berlin time)" in page(client, ben)
    ben.language = "de"
    ben.language_chosen = True
    ben.save()
    assert "Stunde der Zusammenfassung (0–23, Uhrzeit Europe/Berlin)" in page(client, ben)
    NotificationPreference.objects.create(seat=ben, mode="digest", digest_hour=18)
    saturday, sunday = datetime(2027, 3, 27, tzinfo=UTC), datetime(2027, 3, 28, tzinfo=UTC)
    for day, utc_hour in ((saturday, 17), (sunday, 16)):  # 18:00 in winter (UTC+1), in summer (UTC+2)
        seat = seats_to_act(game)[0]
        with time_machine.travel(day.replace(hour=1), tick=False):
            submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
        assert send_digests(now=day.replace(hour=utc_hour - 1, minute=59)) == 0
        assert send_digests(now=day.replace(hour=utc_hour, minute=1)) == 1
        assert send_digests(now=day.replace(hour=22)) == 0
