"""Deadlines, reminders, default orders and substitutes (docs/long-games.md), with a controllable clock."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail

from games.engine import ChooseTile, CommitCoins, Pass
from games.engine.state import PendingChoice
from games.models import DeadlineSettings, Event, SeatClock
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.deadline_tick import default_orders, tick
from games.services.orders import submit_order
from games.services.substitutes import hand_over_seat
from games.words.clock import deadline_after, parse_reminders, recompute_deadlines
from notifications.models import Outbox
from notifications.services import deliver_outbox
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401
from tests.order_loop_support import seats_to_act, two_player_game
from tests.race_support import captured, paused_in_load_game, race

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday
UTC_ZONE = zoneinfo.ZoneInfo("UTC")


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def test_deadline_after_counts_hours_and_skips_weekends_in_the_organisers_zone():
    berlin = zoneinfo.ZoneInfo("Europe/Berlin")
    friday_noon = datetime(2026, 12, 4, 12, 0, tzinfo=berlin)
    assert deadline_after(friday_noon, 24, berlin) == friday_noon + timedelta(hours=24)
    # 12 hours of Friday, the weekend stands still, 12 hours of Monday.
    assert deadline_after(friday_noon, 24, berlin, skip_weekends=True) == datetime(
        2026, 12, 7, 12, 0, tzinfo=berlin
    )
    saturday = datetime(2026, 12, 5, 10, 0, tzinfo=berlin)
    assert deadline_after(saturday, 2, berlin, skip_weekends=True) == datetime(
        2026, 12, 7, 2, 0, tzinfo=berlin
    )


def test_deadline_after_counts_real_hours_across_a_clock_change_between_weekends():
    """Skipping weekends, the hours between them are real hours even when the clock changes on a
    weekday (Israel moves it on the Friday before the last Sunday of March, at 02:00)."""
    jerusalem = zoneinfo.ZoneInfo("Asia/Jerusalem")
    sunday = datetime(2026, 3, 21, 23, 0, tzinfo=UTC)  # Sunday 01:00 there: the clock starts Monday
    monday = datetime(2026, 3, 23, 0, 0, tzinfo=jerusalem).astimezone(UTC)
    deadline = deadline_after(sunday, 100, jerusalem, skip_weekends=True)
    assert deadline == monday + timedelta(hours=100)  # Friday 05:00 there, after the change
    assert deadline.astimezone(jerusalem).hour == 5
    # 119 real hours to Saturday 00:00 (the clock lost one), 11 more on Monday.
    assert deadline_after(sunday, 130, jerusalem, skip_weekends=True) == datetime(
        2026, 3, 30, 11, 0, tzinfo=jerusalem
    )
    # Europe/Berlin and Europe/London change on the Sunday, inside the weekend: 24 hours of Friday
    # and Monday stay 24 hours and the deadline keeps its time of day.
    for zone in (zoneinfo.ZoneInfo("Europe/Berlin"), zoneinfo.ZoneInfo("Europe/London")):
        for friday in (datetime(2026, 3, 27, 12, 0, tzinfo=zone), datetime(2026, 10, 23, 12, 0, tzinfo=zone)):
            deadline = deadline_after(friday.astimezone(UTC), 24, zone, skip_weekends=True)
            assert deadline.astimezone(zone).replace(tzinfo=None) == datetime(
                friday.year, friday.month, friday.day + 3, 12, 0
            )


def test_deadline_after_stands_still_during_a_vacation():
    vacation = (at(10), at(10 + 72))
    assert deadline_after(T0, 48, UTC_ZONE, pauses=[vacation]) == at(48 + 72)
    assert deadline_after(T0, 48, UTC_ZONE, pauses=[(at(50), at(60))]) == at(48)  # after the deadline


def test_reminder_points_are_read_from_the_settings_text():
    half, two_hours = parse_reminders("50%, 2h")
    assert half.at(T0, at(48)) == at(24) and two_hours.at(T0, at(48)) == at(46)
    with pytest.raises(ValueError, match="is not a reminder"):
        parse_reminders("soon")


@pytest.fixture
def game(db, request):
    request.getfixturevalue("anymail_outbox")
    organiser = User.objects.create_user("olga", "olga@example.com", "pw")
    with time_machine.travel(T0, tick=False):
        return two_player_game(organiser=organiser, name="Slow game")


def sent() -> list:
    """The emails sent so far (the outbox is sent after commit, which a test transaction never reaches)."""
    deliver_outbox()
    return mail.outbox


def fresh_mail() -> None:
    deliver_outbox()
    mail.outbox.clear()


def clock(game, faction):
    return SeatClock.objects.get(game=game, faction=faction)


@pytest.mark.django_db
def test_the_player_on_turn_has_a_deadline_from_the_turns_start(game):
    (on_turn,) = seats_to_act(game)
    assert clock(game, on_turn.faction).deadline == at(48)
    other = game.seats.exclude(pk=on_turn.pk).get()
    assert clock(game, other.faction).deadline is None


@pytest.mark.django_db
def test_deadline_passes_default_pass_is_given_by_the_system_and_players_are_mailed(game):
    (absent,) = seats_to_act(game)
    fresh_mail()
    with time_machine.travel(at(47.9), tick=False):
        assert tick().defaults == []
    with time_machine.travel(at(48.5), tick=False):
        report = tick()
    assert report.defaults == [(game.pk, absent.faction)]
    passed = Event.objects.get(game=game, type="DeadlinePassed")
    assert passed.actor == "system"
    assert passed.payload == {
        "player": absent.faction,
        "reason": "deadline passed",
        "obligation": "turn:431:1",
    }
    after = Event.objects.filter(game=game, seq__gt=passed.seq)
    given = after.filter(type="OrderGiven").first()
    if given is not None:  # the order's record, OrderGiven (docs/export.md)
        assert given.payload["by"] == "system" and given.payload["command"]["kind"] == "pass"
    assert after.filter(type="PlayerPassed", payload__player=absent.faction).exists()
    missed = [m for m in sent() if m.to == [absent.email]]
    assert [m.subject for m in missed] == [
        "Reminder: your order is due by 3 Dec 2026, 09:00 (UTC) · Slow game",  # 2 hours before
        "Your deadline passed · Slow game",
    ]
    assert "the server gave the default order for you" in missed[1].body
    (next_seat,) = seats_to_act(game)
    (turn_mail,) = [m for m in sent() if m.to == [next_seat.email] and "your turn" in m.subject]
    assert "missed the deadline; the server gave the default order." in turn_mail.body
    # The next player's clock starts now; the absent player owes nothing and missed one turn.
    assert clock(game, next_seat.faction).deadline == at(48.5 + 48)
    assert clock(game, absent.faction).missed_in_a_row == 1
    with time_machine.travel(at(48.6), tick=False):
        assert tick().defaults == []  # never twice


@pytest.mark.django_db
def test_reminders_fire_once_each_under_repeated_beat_runs(game):
    (on_turn,) = seats_to_act(game)
    fresh_mail()
    for hours in (1, 23.9):
        with time_machine.travel(at(hours), tick=False):
            tick()
    assert sent() == []
    for hours in (24, 24.1, 30, 45.9):
        with time_machine.travel(at(hours), tick=False):
            tick()
    assert [m.subject for m in sent()] == [
        "Reminder: your order is due by 3 Dec 2026, 09:00 (UTC) · Slow game"
    ]
    for hours in (46, 46.5, 47.99):
        with time_machine.travel(at(hours), tick=False):
            tick()
    assert len(sent()) == 2 and all(m.to == [on_turn.email] for m in sent())
    kinds = Outbox.objects.filter(game_id=game.pk, kind__startswith="reminder").values_list("kind", flat=True)
    assert sorted(kinds) == ["reminder-1", "reminder-2"]
    reminder = mail.outbox[1]
    assert reminder.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert reminder.extra_headers["List-Unsubscribe"].startswith("<http")


@pytest.mark.django_db
def test_an_order_in_time_moves_the_deadline_to_the_next_obligation(game):
    (first,) = seats_to_act(game)
    with time_machine.travel(at(5), tick=False):
        submit_order(game, first, Pass(first.faction), load_game(game).seq)
    (second,) = seats_to_act(game)
    assert clock(game, first.faction).deadline is None
    assert clock(game, second.faction).deadline == at(5 + 48)
    with time_machine.travel(at(49), tick=False):
        assert tick().defaults == []  # the first player's old deadline is gone


@pytest.mark.django_db
def test_h_winter_orders_have_their_own_deadline_and_resolve_at_once_when_all_are_in(game):
    DeadlineSettings.objects.create(game=game, turn_hours=24, winter_hours=72)
    hours = 0.0
    while load_game(game).state.phase != "winter_orders":
        hours += 1
        seat = seats_to_act(game)[0]
        with time_machine.travel(at(hours), tick=False):
            submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    year = load_game(game).state.year
    clocks = SeatClock.objects.filter(game=game)
    assert {c.obligation for c in clocks} == {f"winter:{year}"}
    assert {c.deadline for c in clocks} == {at(hours + 72)}
    first, second = game.seats.all()
    with time_machine.travel(at(hours + 1), tick=False):
        submit_order(game, first, CommitCoins(first.faction), load_game(game).seq)
    assert clock(game, first.faction).deadline is None and clock(game, second.faction).deadline == at(
        hours + 72
    )
    with time_machine.travel(at(hours + 2), tick=False):
        submit_order(game, second, CommitCoins(second.faction), load_game(game).seq)
    # Everyone sealed: the winter resolved at once and the next year's first turn runs 24 hours.
    (on_turn,) = seats_to_act(game)
    assert clock(game, on_turn.faction).deadline == at(hours + 2 + 24)


@pytest.mark.django_db
def test_h_choices_the_default_orders_commit_nothing_keep_the_first_tile_and_pass(game):
    state = load_game(game).state
    faction = state.player_on_turn
    assert default_orders(state, faction) == [Pass(faction)]
    chosen = state.copy()
    chosen.phase = "choice"
    chosen.pending_choice = PendingChoice(player=faction, space="E5", tiles=["t1", "t2"])
    assert default_orders(chosen, faction) == [ChooseTile(faction, keep="t1")]
    winter = state.copy()
    winter.phase = "winter_orders"
    assert default_orders(winter, faction) == [CommitCoins(faction)]


@pytest.mark.django_db
def test_missed_turns_in_a_row_mail_the_organiser_who_hands_the_seat_to_a_substitute(game, client):
    DeadlineSettings.objects.create(game=game, turn_hours=24, missed_turns_alert=2)
    recompute_deadlines(game)
    (absent,) = seats_to_act(game)
    old_link = f"/play/{game.pk}/{link_token(absent)}/"
    # Both players are away: each turn's deadline passes in turn, 24 hours after the last.
    for turn in range(1, 4):
        with time_machine.travel(at(24 * turn + 0.5), tick=False):
            assert len(tick().defaults) == 1
    assert clock(game, absent.faction).missed_in_a_row == 2
    alerts = [m for m in sent() if m.to == ["olga@example.com"]]
    assert [m.subject for m in alerts] == [f"{absent.name} missed 2 turns in a row · Slow game"]
    assert "hand the seat to a substitute" in alerts[0].body
    stop = alerts[0].extra_headers["List-Unsubscribe"].strip("<>").removeprefix("http://127.0.0.1:8000")
    assert client.post(stop, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert not DeadlineSettings.objects.get(game=game).alert_organiser
    client.force_login(game.organiser)
    page = client.get(f"/organiser/games/{game.pk}/deadlines/")
    assert page.status_code == 200 and "Missed in a row" in page.content.decode()
    fresh_mail()
    response = client.post(
        f"/organiser/games/{game.pk}/deadlines/",
        {"form": "handover", "seat": absent.pk, "name": "Sub", "email": "sub@example.com"},
    )
    assert response.status_code == 302
    absent.refresh_from_db()
    assert (absent.name, absent.email) == ("Sub", "sub@example.com")
    assert client.get(old_link).status_code == 403
    (welcome,) = [m for m in sent() if m.to == ["sub@example.com"]]
    assert "You take over" in welcome.subject
    assert Event.objects.filter(game=game, type="SeatHandedOver", payload__player=absent.faction).exists()
    assert clock(game, absent.faction).missed_in_a_row == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "first_name", "greeting"),
    [
        ("en", "", "Hello,"),
        ("de", "", "Hallo,"),
        ("en", "Olga", "Hello Olga,"),
        ("de", "Olga", "Hallo Olga,"),
    ],
)
@pytest.mark.usefixtures("anymail_outbox")
def test_the_absence_alert_greets_the_organiser_by_the_name_they_gave_never_by_their_address(
    language, first_name, greeting
):
    # An account made by signing in by email has the address as its user name (docs/front-door.md).
    organiser = User.objects.create_user("olga@example.com", "olga@example.com", first_name=first_name)
    with time_machine.travel(T0, tick=False):
        game = two_player_game(organiser=organiser, name="Slow game", language=language)
    DeadlineSettings.objects.create(game=game, turn_hours=24, missed_turns_alert=1)
    recompute_deadlines(game)
    with time_machine.travel(at(24.5), tick=False):
        assert len(tick().defaults) == 1
    (alert,) = [m for m in sent() if m.to == ["olga@example.com"]]
    html, _ = alert.alternatives[0]
    assert alert.body.startswith(greeting + "\n")
    assert f"<p>{greeting}</p>" in html
    assert "olga@example.com" not in alert.body.split("\n")[0] and "Hello olga" not in html


@pytest.mark.django_db
def test_hand_over_refuses_a_bad_address_and_changes_nothing(game):
    seat = game.seats.first()
    with pytest.raises(ValueError, match="is not an email address"):
        hand_over_seat(seat, "Sub", "nope")
    assert not Event.objects.filter(game=game, type="SeatHandedOver").exists()


@pytest.mark.django_db
def test_hand_over_to_an_address_longer_than_a_seat_holds_is_refused_not_a_server_error(game, client):
    """An address the form takes (up to 320 characters) but the seat's column (254) does not was a
    DataError: the organiser's page answered 500."""
    seat = game.seats.first()
    client.force_login(game.organiser)
    long_address = "z" * 64 + "@" + "b" * 60 + "." + "c" * 60 + "." + "d" * 60 + ".example.com"
    for address in ("z" * 300 + "@example.com", long_address):
        response = client.post(
            f"/organiser/games/{game.pk}/deadlines/",
            {"form": "handover", "seat": seat.pk, "name": "Sub", "email": address},
        )
        assert response.status_code == 400
        assert "is not an email address" in response.content.decode()
    seat.refresh_from_db()
    assert seat.email != long_address
    assert not Event.objects.filter(game=game, type="SeatHandedOver").exists()


@pytest.mark.django_db
def test_seat_clocks_and_vacations_are_rebuilt_identically_from_the_log(game):
    from games.eventstore.projections import rebuild_projections
    from games.services.vacations import take_vacation

    with time_machine.travel(at(48.5), tick=False):
        tick()
    (on_turn,) = seats_to_act(game)
    take_vacation(on_turn, 2, now=at(49))

    def rows():
        clocks = SeatClock.objects.order_by("faction").values(
            "faction", "obligation", "since_seq", "due_since", "deadline", "missed_in_a_row"
        )
        vacations = game.vacations.order_by("seq").values("faction", "seq", "start", "end", "days")
        return list(clocks), list(vacations)

    before = rows()
    assert before[1] and any(c["missed_in_a_row"] for c in before[0])
    rebuild_projections()
    assert rows() == before
    rebuild_projections(batch_size=3)
    assert rows() == before


@pytest.mark.django_db
def test_the_beat_schedule_polls_deadlines_every_minute_through_the_celery_task(game, settings):
    from games.tasks import tick_deadlines

    schedule = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule["games.tick_deadlines"] == 60.0 and "games.send_digests" in schedule
    (absent,) = seats_to_act(game)
    with time_machine.travel(at(49), tick=False):
        assert tick_deadlines.delay().get() == 1  # eager in tests: the task runs here
        assert tick_deadlines.delay().get() == 0
    assert Event.objects.filter(game=game, type="DeadlinePassed", payload__player=absent.faction).count() == 1


@pytest.mark.django_db
def test_the_organiser_changes_the_settings_and_open_deadlines_follow(game, client):
    (on_turn,) = seats_to_act(game)
    client.force_login(game.organiser)
    url = f"/organiser/games/{game.pk}/deadlines/"
    form = {
        "form": "settings",
        "turn_hours": "24",
        "winter_hours": "48",
        "time_zone": "Europe/Berlin",
        "skip_weekends": "",
        "reminders": "50%,2h",
        "missed_turns_alert": "3",
        "vacation_days": "14",
        "alert_organiser": "on",
    }
    assert client.post(url, form).status_code == 302
    assert clock(game, on_turn.faction).deadline == at(24)
    assert "2 Dec 2026, 10:00 (Europe/Berlin)" in client.get(url).content.decode()
    bad = client.post(url, {**form, "time_zone": "Mars/Olympus", "reminders": "soon"})
    assert bad.status_code == 400
    assert "Unknown time zone" in bad.content.decode() and "is not a reminder" in bad.content.decode()
    assert DeadlineSettings.objects.get(game=game).time_zone == "Europe/Berlin"


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # two real connections racing for the same deadline
def test_two_beats_at_once_give_one_default_order(request):
    import threading

    from django.db import connection

    request.getfixturevalue("anymail_outbox")
    with time_machine.travel(T0, tick=False):
        game = two_player_game(name="Race")
    results = []
    barrier = threading.Barrier(2)

    def beat():
        try:
            barrier.wait()
            results.append(len(tick(now=at(49)).defaults))
        finally:
            connection.close()

    with time_machine.travel(at(49), tick=False):
        threads = [threading.Thread(target=beat) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(results) == [0, 1]
    assert Event.objects.filter(game=game, type="DeadlinePassed").count() == 1


@pytest.mark.django_db
def test_h_winter_orders_a_missing_sealed_order_commits_nothing_when_the_deadline_passes(game):
    hours = 0.0
    while load_game(game).state.phase != "winter_orders":
        hours += 1
        seat = seats_to_act(game)[0]
        with time_machine.travel(at(hours), tick=False):
            submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    first, absent = seats_to_act(game)
    with time_machine.travel(at(hours + 1), tick=False):
        submit_order(game, first, CommitCoins(first.faction), load_game(game).seq)
    with time_machine.travel(at(hours + 72.5), tick=False):
        assert tick().defaults == [(game.pk, absent.faction)]
    revealed = Event.objects.get(game=game, type="WinterOrdersRevealed")
    assert revealed.payload["orders"][absent.faction]["coins"] == {}
    assert load_game(game).state.phase == "actions"  # revealed and scored at once, the next year began


@pytest.mark.django_db
def test_h_trade_an_offer_waits_until_the_rivals_deadline_and_is_then_declined(game):
    from games.engine import OfferTrade, legal_commands

    state = load_game(game).state
    (offering,) = seats_to_act(game)
    offer = next(c for c in legal_commands(state, offering.faction) if isinstance(c, OfferTrade))
    with time_machine.travel(at(1), tick=False):
        submit_order(game, offering, offer, load_game(game).seq)
    (rival,) = seats_to_act(game)
    assert rival.faction == offer.to and load_game(game).state.offers
    assert clock(game, rival.faction).deadline == at(1 + 48)
    with time_machine.travel(at(49.5), tick=False):
        tick()
    declined = Event.objects.get(game=game, type="OfferDeclined")
    passed = Event.objects.filter(game=game, type="PlayerPassed", payload__player=rival.faction).get()
    assert declined.seq < passed.seq and not load_game(game).state.offers


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # two real connections and their row locks
def test_deadline_an_order_at_the_second_the_beat_gives_the_default_gets_one_or_the_other(
    request, monkeypatch
):
    """The player orders at the very moment the beat task gives their default order: one of the two
    is taken, the other hears so (the player: the game moved on), and nobody gets a database error.
    The beat used to lock the seat's clock before the game, an order the game before the clock: each
    waited for the other (PostgreSQL's "deadlock detected" killed one of them)."""
    import games.services.deadline_tick as deadline_tick
    from games.services.orders import GameMovedOn

    request.getfixturevalue("anymail_outbox")
    with time_machine.travel(T0, tick=False):
        game = two_player_game(name="Photo finish")
    (player,) = seats_to_act(game)
    expected = load_game(game).seq
    beat_holds, let_go = paused_in_load_game(monkeypatch, deadline_tick)  # the beat holds its locks there
    outcomes: dict[str, object] = {}
    with time_machine.travel(at(48), tick=False):
        race(
            captured(outcomes, "beat", lambda: tick(now=at(48)).defaults),
            captured(outcomes, "player", lambda: submit_order(game, player, Pass(player.faction), expected)),
            beat_holds,
            let_go,
        )
    # The beat held its locks first: the default order is taken, the player's order is refused.
    assert outcomes["beat"] == [(game.pk, player.faction)], outcomes
    assert isinstance(outcomes["player"], GameMovedOn), outcomes
    passes = Event.objects.filter(game=game, type="OrderGiven", payload__player=player.faction)
    assert [e.payload["by"] for e in passes] == ["system"]
    assert Event.objects.filter(game=game, type="PlayerPassed", payload__player=player.faction).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # two real connections and their row locks
def test_deadline_settings_changed_while_an_order_ends_a_turn_apply_to_the_next_turn(request, monkeypatch):
    """The organiser saves 24-hour turns while the player on turn orders: the next player's new
    deadline follows the new settings, and the player who ordered keeps no deadline. Recomputing
    used to read the clocks without the game's lock: it gave the next turn the old 48 hours (the
    order had read the settings first) and wrote a deadline onto the cleared clock of the player
    who had just ordered."""
    import games.services.orders as orders
    from tests.browser_like_client import BrowserLikeClient

    request.getfixturevalue("anymail_outbox")
    organiser = User.objects.create_user("olga", "olga@example.com", "pw")
    with time_machine.travel(T0, tick=False):
        game = two_player_game(organiser=organiser, name="Moving goalposts")
    DeadlineSettings.objects.create(game=game)  # chosen at creation: 48 hours a turn
    (first,) = seats_to_act(game)
    expected = load_game(game).seq
    order_holds_the_game, let_go = paused_in_load_game(monkeypatch, orders)
    outcomes: dict[str, object] = {}

    def organiser_saves() -> int:
        client = BrowserLikeClient()
        client.force_login(organiser)
        form = {
            "form": "settings",
            "turn_hours": "24",
            "winter_hours": "72",
            "time_zone": "UTC",
            "reminders": "50%,2h",
            "missed_turns_alert": "3",
            "vacation_days": "14",
            "alert_organiser": "on",
        }
        return client.post(f"/organiser/games/{game.pk}/deadlines/", form).status_code

    with time_machine.travel(at(5), tick=False):
        # Until the order commits, recomputing the deadlines waits for the game's lock. (Before, it
        # waited for nothing and ran to its end: hence second_may_finish, for the test to fail there.)
        race(
            captured(outcomes, "order", lambda: submit_order(game, first, Pass(first.faction), expected).seq),
            captured(outcomes, "organiser", organiser_saves),
            order_holds_the_game,
            let_go,
            second_may_finish=True,
        )
    assert isinstance(outcomes["order"], int) and outcomes["organiser"] == 302, outcomes
    (second,) = seats_to_act(game)
    assert clock(game, second.faction).deadline == at(5 + 24)
    assert clock(game, first.faction).deadline is None
    with time_machine.travel(at(6), tick=False):
        assert tick().reminders == 0  # and the beat has nothing wrong to trip on


@pytest.mark.django_db
def test_deadline_one_game_that_fails_holds_up_no_other_games_deadlines_or_reminders(
    request, monkeypatch, caplog
):
    """The beat gives the oldest deadline first: a game whose default order fails (logged, and tried
    again next minute) used to stop every later game's default orders and every reminder, each
    minute anew. A clock with a deadline but no start (what a race once left) is no obligation."""
    import games.services.deadline_tick as deadline_tick

    request.getfixturevalue("anymail_outbox")
    with time_machine.travel(T0, tick=False):
        broken = two_player_game(name="Broken")
    with time_machine.travel(at(1), tick=False):
        late = two_player_game(name="Late")
    with time_machine.travel(at(30), tick=False):
        reminded = two_player_game(name="Reminded")  # half its 48 hours gone at at(54)
    (idle,) = [s for s in late.seats.all() if s not in seats_to_act(late)]
    SeatClock.objects.filter(game=late, faction=idle.faction).update(deadline=at(100))  # no due_since
    real_load_game = deadline_tick.load_game

    def load_game_failing_for_broken(game, *args, **kwargs):
        if game.pk == broken.pk:
            raise RuntimeError("a game the beat cannot load")
        return real_load_game(game, *args, **kwargs)

    monkeypatch.setattr(deadline_tick, "load_game", load_game_failing_for_broken)
    (broken_seat,) = seats_to_act(broken)
    (late_seat,) = seats_to_act(late)
    (reminded_seat,) = seats_to_act(reminded)
    with time_machine.travel(at(54), tick=False):
        report = tick()
    assert report.defaults == [(late.pk, late_seat.faction)]
    assert report.failed == [(broken.pk, broken_seat.faction)]
    assert f"default order for {broken_seat.faction} in game {broken.pk} failed" in caplog.text
    assert Outbox.objects.filter(game_id=reminded.pk, seat_id=reminded_seat.pk, kind="reminder-1").exists()
    assert not Event.objects.filter(game=broken, type="DeadlinePassed").exists()
    monkeypatch.setattr(deadline_tick, "load_game", real_load_game)
    with time_machine.travel(at(54.1), tick=False):
        assert tick().defaults == [(broken.pk, broken_seat.faction)]  # caught up the next minute


@pytest.mark.django_db
def test_deadline_a_substitute_taking_over_a_seat_on_turn_is_told_its_running_deadline(game):
    """The substitute gets none of the seat's turn email or reminders (they went to the absent
    player): the welcome says the seat owes an order and until when, in the seat's language."""
    (on_turn,) = seats_to_act(game)
    waiting = game.seats.exclude(pk=on_turn.pk).get()
    on_turn.language = "de"
    on_turn.save()
    fresh_mail()
    with time_machine.travel(at(40), tick=False):
        hand_over_seat(on_turn, "Sub", "sub@example.com")
        hand_over_seat(waiting, "Other", "other@example.com")
    (welcome,) = [m for m in sent() if m.to == ["sub@example.com"]]
    assert "ein Befehl fällig. Die Frist endet am 3.12.2026, 09:00 (UTC);" in welcome.body
    (other,) = [m for m in sent() if m.to == ["other@example.com"]]
    assert "deadline" not in other.body.lower()


@pytest.mark.django_db
def test_deadline_a_reminder_and_a_substitutes_welcome_tell_the_position_a_reply_orders_on(game):
    """Both carry a Reply-To that orders on the game now: they tell the holdings that order is
    decided on, as the turn email does, in the reader's language (H-SCREEN: the seat's own)."""
    (on_turn,) = seats_to_act(game)
    fresh_mail()
    with time_machine.travel(at(24), tick=False):
        tick()
    (reminder,) = sent()
    assert "Reminder" in reminder.subject and "You have " in reminder.body
    on_turn.language = "de"
    on_turn.save()
    fresh_mail()
    with time_machine.travel(at(40), tick=False):
        hand_over_seat(on_turn, "Sub", "sub@example.com")
    (welcome,) = [m for m in sent() if m.to == ["sub@example.com"]]
    assert "Du hast " in welcome.body and "hinter deinem" in welcome.body
