"""The organiser's game page tells what the organiser needs to watch a game (the organiser audit):
who owes an order, since when and until when, what happens at the deadline; at the end, who won."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from bench.orders import record_game
from games.models import Game, GameProgress
from tests.order_loop_support import two_player_game

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_game_page_names_who_owes_an_order_since_when_until_when_and_what_happens_then(client, organiser):
    game = two_player_game(organiser=organiser, name="Freitag")
    page = client.get(reverse("games:organiser-game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="de")
    html = page.content.decode()
    waiting = text_of(html[html.index('<table id="waiting"') : html.index("</table>")])
    assert "Wer am Zug ist" in waiting and "Schuldet einen Befehl seit" in waiting and "Frist" in waiting
    # The seat on turn (the seat order is drawn), since the game began, until its deadline.
    # A deadline as each language writes it: "5 Dec 2026, 19:17 (UTC)" / "5.12.2026, 19:17 (UTC)".
    when = r"(?:\d{1,2} [A-Z][a-z]{2} |\d{1,2}\.\d{1,2}\.)\d{4}, \d\d:\d\d \(UTC\)"
    assert re.search(rf"(Athen Ana|Sparta Ben) {when} {when} 0", waiting)
    assert "Verstreicht eine Frist, bekommt der Platz einen Standardbefehl" in html
    assert "Du bekommst eine E-Mail nach 3 versäumten Zügen in Folge." in html


def test_an_ended_game_says_once_that_it_ended_who_won_and_the_final_score(client, organiser):
    recording = record_game(bot_seed=3, players=2)  # a seeded bot plays it through submit_order
    Game.objects.filter(pk=recording.game_id).update(organiser=organiser)
    game = Game.objects.get(pk=recording.game_id)
    html = client.get(reverse("games:organiser-game", args=[game.pk])).content.decode()
    head = text_of(html[html.index("<h1>") : html.index("<h2>")])
    assert head.count("The game has ended.") == 1
    side = "(Athens|Sparta)"
    # The game's seed is drawn: one winner, or a shared victory in the plural.
    assert re.search(
        rf"(Winner: {side}|Winners: {side}, {side})\. Final score in VP: {side} \d+, {side} \d+\.", head
    )
    assert 'id="waiting"' not in html
    GameProgress.objects.filter(game=game).update(winners=["athens", "sparta"])
    shared = text_of(client.get(reverse("games:organiser-game", args=[game.pk])).content.decode())
    assert re.search(r"Winners: Athens, Sparta\. Final score in VP: ", shared)
