"""What a player meets once a game has ended (H-END). Its page: the result said once, the messages to
read, no form that can do nothing more (a message, a vacation, the emails' rhythm for turns that no
longer come), and still the way to stop the game's emails. A stale order by the JSON API is told the
game ended, not to re-order; a new link asked for says once that it ended. Pages through the test
client, the JSON API, emails as sent; in English and German.
"""

from __future__ import annotations

import json
import re

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from games.engine import Pass
from games.mail.outbox import preference
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.orders import GameEnded, submit_order
from games.words.names import faction_name
from notifications.services import deliver_outbox
from tests.inbox.support import inbound_settings  # noqa: F401  (the fixture: reply addresses on)
from tests.order_loop_support import link_in
from tests.web.support import (
    ask_for_a_new_link,
    emails_so_far_sent,
    events,
)

pytestmark = pytest.mark.django_db


def status_line(html: str) -> str:
    (line,) = re.findall(r'id="status"[^>]*><p>(.*?)</p>', html, re.S)  # its first line
    return re.sub(r"<[^>]+>", "", line).strip()


@pytest.mark.parametrize(
    ("language", "expected", "closed"),
    [
        (
            "en",
            "421 BC, the game has ended. Winners?: {winners}. Final score in VP: {score}.",
            "messages are closed",
        ),
        (
            "de",
            "421 v. Chr., die Partie ist beendet. Sieg: {winners}. Endstand in VP: {score}.",
            "Nachrichten sind geschlossen",
        ),
    ],
)
def test_h_end_the_ended_games_page_says_the_end_once_and_offers_no_form_that_can_do_nothing(
    client,
    ended_game,
    language,
    expected,
    closed,
):
    game, seat = ended_game
    seat.language = language
    seat.save()
    html = client.get(reverse("games:play", args=[game.pk, link_token(seat)])).content.decode()
    state = load_game(game).state  # the simulation's winner varies with the game's secret seed
    with translation.override(language):
        winners = ", ".join(faction_name(f) for f in state.winners)
        ranked = sorted(state.players, key=lambda f: -state.players[f].vp)
        score = ", ".join(f"{faction_name(f)} {state.players[f].vp}" for f in ranked)
    status = status_line(html)
    assert re.fullmatch(expected.replace(".", r"\.").format(winners=winners, score=score), status), status
    assert status.count("ended") + status.count("beendet") == 1  # not "… has ended. The game has ended."
    assert closed in html
    for action in ("message/", "vacation/", "preferences/"):
        assert f'action="{action}"' not in html
    assert 'id="emails"' in html  # the game's emails may still be stopped
    assert "redeemed in your sealed winter order" not in html  # no card is played any more
    assert "Winterkarten löst du" not in html


def test_h_end_the_emails_of_an_ended_game_are_stopped_and_restarted_from_its_page(client, ended_game):
    game, seat = ended_game
    before = events(game)
    page = client.get(reverse("games:play", args=[game.pk, link_token(seat)])).content.decode()
    (action,) = re.findall(r'<form method="post" action="([^"]+)" id="emails">', page)
    stopped = client.post(action).content.decode()
    assert preference(seat).unsubscribed
    assert "You get no more emails about this game." in stopped
    assert "The game goes on" not in stopped and "default order" not in stopped  # it has ended
    page = client.get(reverse("games:play", args=[game.pk, link_token(seat)])).content.decode()
    assert "You get no more emails about this game." in page and "Send me emails again" in page
    client.post(action, {"subscribe": "1"})
    assert not preference(seat).unsubscribed
    assert events(game) == before


def test_h_end_a_stale_api_order_to_an_ended_game_is_told_the_game_ended_with_its_own_code(
    client,
    ended_game,
):
    game, seat = ended_game
    seat.language = "de"
    seat.save()
    before = events(game)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {link_token(seat)}"}
    url = reverse("games:api-orders", args=[game.pk])
    stale = json.dumps({"expected_seq": 3, "command": {"kind": "pass"}})
    response = client.post(url, stale, content_type="application/json", **auth)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "ended"
    assert (
        error["message"]
        == "Die Partie ist beendet: Sie nimmt keine Befehle mehr an, und es wurde nichts geändert."
    )
    on_the_end = json.dumps({"expected_seq": before, "command": {"kind": "pass"}})  # the last seq: no race
    response = client.post(url, on_the_end, content_type="application/json", **auth)
    assert (response.status_code, response.json()["error"]["rule"]) == (400, "H-END")
    assert events(game) == before


def test_h_end_every_way_in_is_told_the_game_ended_by_the_order_path_itself(ended_game):
    """The order path, not each caller, tells a stale order that the game ended (GameEnded, a
    GameMovedOn): the shell's submitorder says so too, not "look again and re-order"."""
    game, seat = ended_game
    before = events(game)
    with pytest.raises(GameEnded) as refused:
        submit_order(game, seat, Pass("athens"), 3)
    assert (
        str(refused.value.message) == "The game has ended: it takes no more orders, and nothing was changed."
    )
    with pytest.raises(CommandError, match="The game has ended: it takes no more orders"):
        call_command("submitorder", str(game.pk), "athens", '{"kind": "pass"}', "--expected-seq", "3")
    assert events(game) == before


@pytest.mark.parametrize(
    ("language", "ended"),
    [
        ("en", "The game has ended; the link shows how it ended and its whole history."),
        ("de", "Die Partie ist beendet; der Link zeigt, wie sie ausging, und ihren ganzen Verlauf."),
    ],
)
def test_h_end_the_new_link_of_an_ended_game_says_once_that_it_ended(
    client,
    ended_game,
    language,
    ended,
):
    game, seat = ended_game
    seat.language = language
    seat.save()
    emails_so_far_sent()
    ask_for_a_new_link(client, seat.email)
    deliver_outbox()
    (email,) = [m for m in mail.outbox if m.to == [seat.email]]  # its subject in the seat's language
    text = " ".join(email.body.split())  # the paragraphs as one line, whatever their wrapping
    assert ended in text
    assert text.count("The game has ended") + text.count("Die Partie ist beendet") == 1
    assert email.reply_to == []  # an ended game takes no orders by reply
    assert client.get(link_in(email)).status_code == 200
