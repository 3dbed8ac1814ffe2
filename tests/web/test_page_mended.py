"""Mended on the player's and the organiser's pages: the organiser sees the board picture (H-BOARD)
as the players do, and every page links a favicon that is served."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from tests.order_loop_support import two_player_game


@pytest.mark.django_db
def test_h_board_the_organisers_game_page_shows_the_board_picture_in_both_languages(client, organiser):
    game = two_player_game(organiser=organiser, name="Freitag")
    for language in ("en", "de"):
        html = client.get(reverse("games:organiser-game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)
        page = html.content.decode()
        picture = page[page.index('<section id="board"') :].split("</section>")[0]
        assert '<svg xmlns="http://www.w3.org/2000/svg"' in picture and 'class="board-picture"' in picture
        assert f'lang="{language}"' in picture and picture.count('class="polis') >= 2  # two Native Poleis
        assert '<table class="board"' not in page.split("<details")[0]  # the table only on demand


@pytest.mark.django_db
def test_every_page_links_a_favicon_that_is_served(client):
    page = client.get(reverse("home")).content.decode()
    assert '<link rel="icon" href="/static/games/favicon.svg" type="image/svg+xml">' in page
    icon = finders.find("games/favicon.svg")
    assert icon and Path(icon).read_text(encoding="utf-8").startswith("<svg")
