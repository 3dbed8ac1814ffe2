"""The history's filters stay while the player steps through the boards (docs/order-loop.md
"History and export"): every way the page offers to another board — an entry's number, First,
Previous, Next, Latest and the event form — keeps the year, the player and where the list starts.
A walk on a phone met First/Previous/Next/Latest that dropped the year and the player: a list
filtered to Sparta's lines came back as every player's after one step."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from games.reading.links import link_token
from games.services.game_setup import PlayerSpec, create_game
from tests.order_loop_support import play_until

pytestmark = pytest.mark.django_db

PREVIOUS = {"en": "Previous", "de": "Vorheriges"}


def a_game_in_its_second_round(language: str):
    players = [
        PlayerSpec("Ana", "ana@example.com", "athens", language=language),
        PlayerSpec("Ben", "ben@example.com", "sparta", language=language),
    ]
    game = create_game(players, name="Steps")
    play_until(game, "winter_orders")  # both players' orders of a year's action rounds
    return game


def history_url(seat) -> str:
    return reverse("games:play", args=[seat.game_id, link_token(seat)]) + "history/"


def board_links(page: str) -> dict[str, dict[str, list[str]]]:
    """The queries of the links to other boards: the replay steps by their words, entries by number."""
    steps = re.search(r'<nav class="replay-steps".*?</nav>', page, re.S).group(0)
    step_links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', steps)
    links = {unescape(text): unescape(href) for href, text in step_links}
    for href, number in re.findall(r'<li value="\d+"[^>]*><a href="([^"]+)"[^>]*>(\d+)</a>', page):
        links[number] = unescape(href)
    return {name: parse_qs(urlsplit(href).query) for name, href in links.items()}


def hidden_fields(page: str) -> dict[str, str]:
    form = re.search(r'<form method="get" class="replay">.*?</form>', page, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))


def listed_numbers(page: str) -> list[str]:
    return re.findall(r'<li value="(\d+)"', page)


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_step_to_another_board_keeps_the_year_the_player_and_the_start(client, language) -> None:
    game = a_game_in_its_second_round(language)
    athens = game.seats.get(faction="athens")
    url = history_url(athens)
    filtered = client.get(url, {"year": "431", "player": "sparta", "since": "all"}).content.decode()
    spartas = listed_numbers(filtered)
    everyone = listed_numbers(client.get(url, {"since": "all"}).content.decode())
    assert spartas and len(spartas) < len(everyone)  # the filter leaves lines out

    links = board_links(filtered)
    assert len(links) == 4 + len(spartas)  # the four steps and one link per listed line
    for query in links.values():
        assert query["year"] == ["431"] and query["player"] == ["sparta"] and query["since"] == ["all"]
        assert len(query["at"]) == 1
    assert hidden_fields(filtered) == {"year": "431", "player": "sparta", "since": "all"}

    # One step back: the list is still Sparta's of 431, and so are the next links.
    previous = links[PREVIOUS[language]]
    stepped = client.get(url, {key: values[0] for key, values in previous.items()}).content.decode()
    assert listed_numbers(stepped) == spartas
    assert all(q["player"] == ["sparta"] for q in board_links(stepped).values())


def test_the_default_start_adds_nothing_and_an_asked_start_is_kept(client) -> None:
    game = a_game_in_its_second_round("en")
    athens = game.seats.get(faction="athens")
    url = history_url(athens)

    default = client.get(url).content.decode()  # "since my last turn": nothing to keep
    assert all(set(q) == {"at"} for q in board_links(default).values())
    assert hidden_fields(default) == {}

    start = listed_numbers(client.get(url, {"since": "all"}).content.decode())[2]
    asked = client.get(url, {"since": start}).content.decode()
    assert listed_numbers(asked)[0] == start
    assert all(q["since"] == [start] for q in board_links(asked).values())
    assert hidden_fields(asked) == {"since": start}
