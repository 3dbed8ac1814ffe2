"""A new player finds the rulebook: the welcome email and the player page link to it, in the
reader's language. A walk found the rules reachable only through a rule code inside a refusal
("(Regel S-MOVE)"): no page of the game and no email linked to them (docs/rules.md)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from games.reading.links import link_token
from games.services.game_setup import PlayerSpec, create_game
from notifications.services import deliver_outbox

pytestmark = pytest.mark.django_db

WORDS = {"en": "The rules of the game", "de": "Die Spielregeln"}


@pytest.fixture
def mailbox(settings):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []
    return mail.outbox


def a_game(language: str):
    players = [
        PlayerSpec("Ana", "ana@example.com", "athens", language=language),
        PlayerSpec("Ben", "ben@example.com", "sparta", language="en"),
    ]
    return create_game(players, language="en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_welcome_links_to_the_rules_in_the_players_language(mailbox, client, language) -> None:
    a_game(language)
    deliver_outbox()
    (welcome,) = [m for m in mailbox if m.to == ["ana@example.com"] and m.tags[0] == "welcome"]
    url = settings.SITE_URL + f"/rules/{language}/"
    assert f"{WORDS[language]}: {url}" in welcome.body
    html, _ = welcome.alternatives[0]
    assert f'<a href="{url}">{WORDS[language]}</a>' in html
    page = client.get(url.removeprefix(settings.SITE_URL))
    assert page.status_code == 200 and page["Content-Language"] == language


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_player_page_links_to_the_rules_in_the_pages_language(client, language) -> None:
    game = a_game(language)
    ana = game.seats.get(faction="athens")
    page = client.get(reverse("games:play", args=[game.pk, link_token(ana)]), follow=True).content.decode()
    tabs = re.search(r'<nav class="page-tabs".*?</nav>', page, re.S).group(0)
    assert f'<a href="/rules/{language}/">{WORDS[language]}</a>' in tabs
