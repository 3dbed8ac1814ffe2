"""The organiser's pages, second audit: one address per seat (new game and hand-over), every bad
player line at once together with the deadline fields' errors, the deadlines page showing who owes
an order as the game page does (each seat in one row), the games list as a table that a phone can
show as cards, and German that says "Partie" as the rest of the product does. English and German
each."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from bench.orders import record_game
from games.models import Event, Game
from games.reading.situation import load_game
from games.services.game_setup import GameSetupError, PlayerSpec, create_game
from tests.order_loop_support import ANA, BEN, two_player_game

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def field_html(html: str, field_id: str) -> str:
    """The field's own block (games/_field.html): its label, input, help text and errors."""
    start = html.rindex('<div class="field', 0, html.index(f'id="{field_id}"'))
    end = html.find('<div class="field', start + 1)
    return html[start : end if end != -1 else len(html)]


def errors_of(html: str, field_id: str) -> list[str]:
    block = field_html(html, field_id)
    return [html_lib.unescape(text_of(item)).strip() for item in re.findall(r"<li>(.*?)</li>", block, re.S)]


# --- one address per seat ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "ANA@example.com is given for two seats; each player needs their own address."),
        ("de", "ANA@example.com ist für zwei Plätze angegeben; jede Person braucht ihre eigene Adresse."),
    ],
)
def test_a_new_game_with_one_address_for_two_seats_is_refused_next_to_the_players(
    client,
    organiser,
    language,
    expected,
):
    players = "Ana <ana@example.com>:athens\nBen <ANA@example.com>:sparta\n"  # a typo, in another case
    data = {"name": "", "language": language, "players": players}
    response = client.post(reverse("games:organiser-new"), data, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    html = response.content.decode()
    assert errors_of(html, "id_players") == [expected]
    assert html.count('class="errorlist') == 1  # no other field is blamed
    assert not Game.objects.exists()


def test_the_service_refuses_one_address_for_two_seats_too():
    with pytest.raises(GameSetupError, match="each player needs their own address"):
        create_game([ANA, PlayerSpec("Bo", "Ana@Example.com", "sparta")])
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "ana@example.com is already another seat's address; each player needs their own address."),
        (
            "de",
            "ana@example.com ist schon die Adresse eines anderen Platzes;"
            " jede Person braucht ihre eigene Adresse.",
        ),
    ],
)
def test_a_hand_over_to_another_seats_address_is_refused_next_to_the_email_field(
    client,
    organiser,
    language,
    expected,
):
    game = two_player_game(organiser=organiser)
    ben = game.seats.get(faction="sparta")
    response = client.post(
        reverse("games:organiser-deadlines", args=[game.pk]),
        {"form": "handover", "seat": ben.pk, "name": "Sub", "email": "ana@example.com"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert errors_of(html, "id_email") == [expected]
    ben.refresh_from_db()
    assert ben.email == "ben@example.com"
    assert not Event.objects.filter(game=game, type="SeatHandedOver").exists()
    # The seat's own address stays fine: a hand-over to the same player (docs/long-games.md).
    response = client.post(
        reverse("games:organiser-deadlines", args=[game.pk]),
        {"form": "handover", "seat": ben.pk, "name": "Benedikt", "email": "BEN@example.com"},
    )
    assert response.status_code == 302


# --- every bad line at once, with the deadline fields' errors ------------------------------------

# Five players (too many), four of them wrong, each in its own way.
BAD_PLAYERS = [
    "Ana ana@example.com:athens",
    "Ben <ben@example.com>:rome",
    "Cleo <nope>:corinth",
    "Cleo <cleo@example.com>:sparta",
    "Dion <cleo@example.com>:thebes",
]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            [
                'Line 1: Put the email address in angle brackets: "Name <email>:faction", not Ana'
                " ana@example.com:athens.",
                "Line 2: Unknown faction rome; choose from Athens, Sparta, Corinth, Thebes.",
                "Line 3: nope is not an email address.",
                "cleo@example.com is given for two seats; each player needs their own address.",
            ],
        ),
        (
            "de",
            [
                "Zeile 1: Setz die E-Mail-Adresse in spitze Klammern:",
                "Zeile 2: Unbekannte Fraktion rome; wähle aus Athen, Sparta, Korinth, Theben.",
                "Zeile 3: nope ist keine E-Mail-Adresse.",
                "cleo@example.com ist für zwei Plätze angegeben; jede Person braucht ihre eigene Adresse.",
            ],
        ),
    ],
)
def test_every_bad_player_line_is_reported_at_once_with_the_deadline_errors(
    client,
    organiser,
    language,
    expected,
):
    data = {
        "name": "",
        "language": language,
        "players": "".join(f"{line}\n" for line in BAD_PLAYERS),
        "deadlines-turn_hours": "0",
        "deadlines-winter_hours": "48",
        "deadlines-time_zone": "Mars/Olympus",
        "deadlines-reminders": "50%",
        "deadlines-missed_turns_alert": "3",
        "deadlines-vacation_days": "14",
    }
    response = client.post(reverse("games:organiser-new"), data, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    html = response.content.decode()
    errors = errors_of(html, "id_players")
    # Five lines are too many as well; every other line's fault is named by its number.
    too_many = "A game has 2 to 4 players." if language == "en" else "Eine Partie hat 2 bis 4 Spieler."
    assert len(errors) == 5 and too_many in errors
    for start in expected:
        assert any(error.startswith(start) for error in errors), (start, errors)
    assert errors_of(html, "id_deadlines-turn_hours")
    assert errors_of(html, "id_deadlines-time_zone")
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            [
                '--player "Ana ana@example.com:athens": Put the email address in angle brackets:',
                '--player "Ben <ben@example.com>:rome": Unknown faction rome; choose from Athens, Sparta,',
                '--player "Cleo <nope>:corinth": nope is not an email address.',
                "--player: A game has 2 to 4 players.",
                "--player: cleo@example.com is given for two seats; each player needs their own address.",
                "--turn-hours: Ensure this value is greater than or equal to 1.",
                "--time-zone: Unknown time zone",
            ],
        ),
        (
            "de",
            [
                '--player "Ana ana@example.com:athens": Setz die E-Mail-Adresse in spitze Klammern:',
                '--player "Ben <ben@example.com>:rome": Unbekannte Fraktion rome',
                '--player "Cleo <nope>:corinth": nope ist keine E-Mail-Adresse.',
                "--player: Eine Partie hat 2 bis 4 Spieler.",
                "--player: cleo@example.com ist für zwei Plätze angegeben; jede Person braucht ihre eigene",
                "--turn-hours: Dieser Wert muss größer oder gleich 1 sein.",
                "--time-zone: Unbekannte Zeitzone",
            ],
        ),
    ],
)
def test_creategame_reports_every_bad_player_at_once_with_the_deadline_errors(language, expected):
    """As the new-game form does; before, the command stopped at the first bad --player."""
    players = [f"--player={line}" for line in BAD_PLAYERS]
    with pytest.raises(CommandError) as refused:
        call_command(
            "creategame", *players, f"--language={language}", "--turn-hours=0", "--time-zone=Mars/Olympus"
        )
    lines = str(refused.value).splitlines()
    assert len(lines) == len(expected), lines
    for start in expected:
        assert any(line.startswith(start) for line in lines), (start, lines)
    assert not Game.objects.exists()


def test_creategame_names_an_unknown_language_with_the_players_problems():
    with pytest.raises(CommandError) as refused:
        call_command("creategame", "--player=Ana <ana@example.com>:athens", "--language=fr")
    assert str(refused.value).splitlines() == [
        "--player: A game has 2 to 4 players.",
        "--language: Unknown language fr.",
    ]
    assert not Game.objects.exists()


# --- the deadlines page shows who owes an order, as the game page does ---------------------------


def seat_rows_of(html: str) -> list[str]:
    """The text of each table row above the settings: every table the deadlines page shows of the seats."""
    top = html[html.index("<h1>") : html.index("<h2>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", top, re.S)
    return [html_lib.unescape(text_of(row)).strip() for row in rows if "<td>" in row]


def test_the_deadlines_page_shows_each_seat_once_the_one_owing_an_order_with_since_and_until_when(
    client,
    organiser,
):
    """Before, the seat owing an order had two rows: one under "Who must act", one in the seats' table."""
    for _attempt in range(30):  # the seat order is drawn: a game where it is not the seats' creation order
        game = two_player_game(organiser=organiser, name="Freitag")
        if load_game(game).state.seat_order == ["sparta", "athens"]:
            break
    # A deadline as each language writes it: "5 Dec 2026, 19:17 (UTC)" / "5.12.2026, 19:17 (UTC)".
    when = r"(?:\d{1,2} [A-Z][a-z]{2} |\d{1,2}\.\d{1,2}\.)\d{4}, \d\d:\d\d \(UTC\)"
    for language, header, note in (
        ("en", "Owes an order since", "When a deadline passes, the seat gets a default order"),
        ("de", "Schuldet einen Befehl seit", "Verstreicht eine Frist, bekommt der Platz"),
    ):
        html = client.get(
            reverse("games:organiser-deadlines", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        rows = seat_rows_of(html)
        assert len(rows) == 2, rows
        # In the seat order drawn at the start (H-SETUP), as "Who must act", not as created.
        assert "Ben <ben" in rows[0] and "Ana <ana" in rows[1], rows
        (owing,) = [row for row in rows if re.search(rf"{when} {when}", row)]
        (other,) = [row for row in rows if row != owing]
        seat = r"((Athens|Athen) Ana <ana|Sparta Ben <ben)@example\.com>"
        assert re.fullmatch(rf"{seat} {when} {when} 0", owing)
        assert re.fullmatch(rf"{seat} – – 0", other)
        assert header in text_of(html) and note in html
        game_page = client.get(
            reverse("games:organiser-game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        # The game page's "Who must act" says the same, from the same clock.
        waiting = text_of(game_page[game_page.index('<table id="waiting"') :].split("</table>")[0])
        assert owing.replace(re.search(r" <[^>]+>", owing)[0], "") in waiting


def test_the_deadlines_page_of_an_ended_game_says_who_won_and_owes_nothing(client, organiser):
    recording = record_game(bot_seed=3, players=2)
    Game.objects.filter(pk=recording.game_id).update(organiser=organiser)
    html = client.get(reverse("games:organiser-deadlines", args=[recording.game_id])).content.decode()
    assert 'id="waiting"' not in html
    assert re.search(r"The game has ended\. Winners?: .+ Final score in VP: ", text_of(html))


# --- the games list, and German words ------------------------------------------------------------


def test_the_games_list_is_a_table_whose_cells_name_their_column(client, organiser):
    create_game([ANA, BEN], organiser=organiser, name="Freitag")
    html = client.get(reverse("games:organiser"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    table = html[html.index('<table class="games-list"') : html.index("</table>")]
    headers = [text_of(h).strip() for h in re.findall(r'<th scope="col">(.*?)</th>', table)]
    assert headers == ["Partie", "Spieler", "Jahr", "Phase", "Muss handeln", "VP", "Status"]
    labels = re.findall(r'<td[^>]* data-label="([^"]+)"', table)
    assert labels == headers
    assert "431 v. Chr." in table


def test_german_organiser_pages_say_partie_not_spiel(client, organiser):
    game = two_player_game(organiser=organiser)
    for url in (reverse("games:organiser"), reverse("games:organiser-deadlines", args=[game.pk])):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert not re.search(r"\bSpiele?s?\b", text_of(html)), url
    listing = client.get(reverse("games:organiser"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Fristen (die Voreinstellungen passen für die meisten Partien)" in listing
