"""Deadline settings when a game is created (docs/long-games.md): the organiser's new-game form and
`manage.py creategame` take them, refuse nonsense in words a person understands (English and
German), and the first deadline already follows them."""

from __future__ import annotations

import zoneinfo

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games.models import DeadlineSettings, Game, SeatClock
from games.words.clock import deadline_after

pytestmark = pytest.mark.django_db
PLAYERS = "Ana <ana@example.com>:athens\nBen <ben@example.com>:sparta\n"
BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
CHOSEN = {
    "deadlines-turn_hours": "24",
    "deadlines-winter_hours": "36",
    "deadlines-time_zone": "Europe/Berlin",
    "deadlines-skip_weekends": "on",
    "deadlines-reminders": "25%,1h",
    "deadlines-missed_turns_alert": "2",
    "deadlines-vacation_days": "7",
    "deadlines-alert_organiser": "on",
}


def settings_row(game: Game) -> tuple:
    row = DeadlineSettings.objects.get(game=game)
    return (
        row.turn_hours,
        row.winter_hours,
        row.time_zone,
        row.skip_weekends,
        row.reminders,
        row.missed_turns_alert,
        row.vacation_days,
        row.alert_organiser,
    )


def assert_first_deadline_follows(
    game: Game, hours: int, zone: zoneinfo.ZoneInfo, skip_weekends: bool
) -> None:
    (clock,) = SeatClock.objects.filter(game=game, deadline__isnull=False)
    assert clock.deadline == deadline_after(clock.due_since, hours, zone, skip_weekends)


def test_the_new_game_form_shows_the_deadline_fields_with_their_defaults(client, organiser):
    for page in (reverse("games:organiser"), reverse("games:organiser-new")):
        html = client.get(page).content.decode()
        assert 'name="deadlines-turn_hours"' in html and 'value="48"' in html
        assert 'name="deadlines-time_zone"' in html and 'value="UTC"' in html
        assert 'name="deadlines-reminders"' in html and 'value="50%,2h"' in html
        assert 'name="deadlines-skip_weekends"' in html and 'name="deadlines-missed_turns_alert"' in html


def test_the_organiser_creates_a_game_with_its_deadlines(client, organiser):
    data = {"name": "Slow game", "language": "en", "players": PLAYERS, **CHOSEN}
    response = client.post(reverse("games:organiser-new"), data)
    game = Game.objects.get(name="Slow game")
    assert response.status_code == 302
    assert settings_row(game) == (24, 36, "Europe/Berlin", True, "25%,1h", 2, 7, True)
    assert_first_deadline_follows(game, 24, BERLIN, skip_weekends=True)
    page = client.get(reverse("games:organiser-deadlines", args=[game.pk])).content.decode()
    assert "(Europe/Berlin)" in page  # each seat's deadline, in the organiser's zone


def test_a_post_without_deadline_fields_keeps_the_defaults(client, organiser):
    data = {"name": "Plain game", "language": "en", "players": PLAYERS}
    assert client.post(reverse("games:organiser-new"), data).status_code == 302
    game = Game.objects.get(name="Plain game")
    assert not DeadlineSettings.objects.filter(game=game).exists()  # the defaults: 48 h, UTC
    assert_first_deadline_follows(game, 48, zoneinfo.ZoneInfo("UTC"), skip_weekends=False)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            [
                "Unknown time zone; write e.g. Europe/Berlin or UTC.",
                "&quot;soon&quot; is not a reminder: write e.g. &quot;50%&quot; or &quot;2h&quot;.",
                "Ensure this value is greater than or equal to 1.",
                "Ensure this value is less than or equal to 60.",
            ],
        ),
        (
            "de",
            [
                "Unbekannte Zeitzone; schreib z. B. Europe/Berlin oder UTC.",
                "„soon“ ist keine Erinnerung: schreib z. B. „50%“ oder „2h“.",
                "Dieser Wert muss größer oder gleich 1 sein.",
                "Dieser Wert muss kleiner oder gleich 60 sein.",
            ],
        ),
    ],
)
def test_wrong_deadline_settings_are_refused_in_words_and_create_nothing(
    client, organiser, language, expected
):
    wrong = {
        "deadlines-time_zone": "Berlin",
        "deadlines-reminders": "soon",
        "deadlines-turn_hours": "0",
        "deadlines-vacation_days": "90",
    }
    data = {"name": "Bad", "language": language, "players": PLAYERS, **CHOSEN, **wrong}
    response = client.post(reverse("games:organiser-new"), data, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    html = response.content.decode()
    for message in expected:
        assert message in html
    assert not Game.objects.exists()


def test_creategame_takes_the_deadline_settings(capsys):
    call_command(
        "creategame",
        "--player=Ana <ana@example.com>:athens",
        "--player=Ben <ben@example.com>:sparta",
        "--turn-hours=24",
        "--winter-hours=36",
        "--time-zone=Europe/Berlin",
        "--skip-weekends",
        "--reminders=25%,1h",
        "--missed-turns=2",
        "--vacation-days=7",
        "--no-organiser-alerts",
    )
    game = Game.objects.get()
    assert settings_row(game) == (24, 36, "Europe/Berlin", True, "25%,1h", 2, 7, False)
    assert_first_deadline_follows(game, 24, BERLIN, skip_weekends=True)


def test_creategame_without_deadline_options_keeps_the_defaults():
    call_command(
        "creategame", "--player=Ana <ana@example.com>:athens", "--player=Ben <ben@example.com>:sparta"
    )
    game = Game.objects.get()
    assert settings_row(game) == (48, 72, "UTC", False, "50%,2h", 3, 14, True)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            [
                "--time-zone: Unknown time zone",
                '--reminders: "soon" is not a reminder',
                "--turn-hours: Ensure",
            ],
        ),
        (
            "de",
            [
                "--time-zone: Unbekannte Zeitzone",
                "--reminders: „soon“ ist keine Erinnerung",
                "--turn-hours: Dieser Wert muss größer oder gleich 1 sein.",
            ],
        ),
    ],
)
def test_creategame_refuses_wrong_deadline_settings_in_the_games_language(language, expected):
    with pytest.raises(CommandError) as refused:
        call_command(
            "creategame",
            "--player=Ana <ana@example.com>:athens",
            "--player=Ben <ben@example.com>:sparta",
            f"--language={language}",
            "--time-zone=Mars/Olympus",
            "--reminders=soon",
            "--turn-hours=0",
        )
    for message in expected:
        assert message in str(refused.value)
    assert not Game.objects.exists()
