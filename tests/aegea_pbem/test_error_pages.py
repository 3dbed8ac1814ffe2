"""Django's own error answers (aegea_pbem/errors.py): translated pages, and JSON under /api/."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.reading.links import link_token
from games.reading.situation import load_game
from tests.browser_like_client import BrowserLikeClient
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


def test_an_unknown_page_says_so_in_the_browsers_language(client):
    english = client.get("/no/such/page/")
    assert english.status_code == 404
    assert "There is no such page." in english.content.decode()
    german = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 404
    assert '<html lang="de">' in german.content.decode()
    assert "Diese Seite gibt es nicht." in german.content.decode()


def test_the_api_answers_its_own_errors_as_json(client, settings):
    missing = client.get("/api/games/1/nothing")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    game = two_player_game()
    seat = seats_to_act(game)[0]
    too_big = b'{"expected_seq": 1, "command": {"kind": "pass", "x": "' + b"a" * 3_000_000 + b'"}}'
    response = client.post(
        reverse("games:api-orders", args=[game.pk]),
        too_big,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {link_token(seat)}",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "bad_request",
        "message": "Die Anfrage konnte nicht gelesen werden. Es wurde nichts geändert.",
    }


def test_a_stale_form_refused_by_the_csrf_check_says_what_to_do_and_changes_nothing():
    game = two_player_game()
    seat = seats_to_act(game)[0]
    seq = load_game(game).seq
    browser = BrowserLikeClient(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="de")
    url = reverse("games:play", args=[game.pk, link_token(seat)])
    browser.get(url)
    refused = browser.post(url, {"kind": "pass", "expected_seq": seq})  # the form's token left out
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "Dieses Formular ist abgelaufen" in page and "Es wurde nichts geändert." in page
    assert load_game(game).seq == seq


def test_a_server_error_is_told_plainly_in_the_browsers_language_and_as_json_under_the_api(monkeypatch):
    game = two_player_game()
    seat = seats_to_act(game)[0]

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("games.web.views.play.player_screen", broken)
    monkeypatch.setattr("games.web.views.api.player_screen", broken)
    browser = BrowserLikeClient(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="de")
    page = browser.get(reverse("games:play", args=[game.pk, link_token(seat)]))
    assert page.status_code == 500
    assert "Bei uns ist etwas schiefgegangen." in page.content.decode()
    state = browser.get(
        reverse("games:api-state", args=[game.pk]), HTTP_AUTHORIZATION=f"Bearer {link_token(seat)}"
    )
    assert state.status_code == 500
    assert json.loads(state.content)["error"]["code"] == "server_error"
