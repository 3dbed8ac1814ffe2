"""The player's page and history page carry the log's head in their footer (docs/fairness.md,
"Witnessed heads"): "Log N·<the first 16 hex digits of the pin of event N>…", N the last event."""

from __future__ import annotations

import pytest

from games.engine import Pass
from games.models import Event
from games.reading.export import chain_pin
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.orders import submit_order
from tests.browser_like_client import BrowserLikeClient, seat_page
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


def footer_of(html: str) -> str:
    return html[html.index('<footer class="log-head">') :]


def test_each_player_page_tells_the_head_of_the_log_as_it_was_made() -> None:
    game = two_player_game()
    seat = seats_to_act(game)[0]
    client = BrowserLikeClient()
    page = seat_page(client, game.pk, link_token(seat))
    for made in range(2):
        seq = load_game(game).seq
        short = f"{seq}·{chain_pin(game.seed, Event.objects.get(game=game, seq=seq).hash)[:16]}…"
        for path in (page, page + "history/"):
            html = client.get(path).content.decode()
            assert short in footer_of(html), (path, made)
        if not made:
            submit_order(game, seat, Pass(seat.faction), seq)  # the head moves on, and the pages with it
