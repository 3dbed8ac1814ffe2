"""H-SCREEN before the hand-over: a signed-in stranger who offers to take over a seat the lobby lists
(docs/front-door.md "Open games and the lobby") learns nothing hidden before the organiser seats
them: not the seat's screen nor its Mission Cards, not a rival's, not the seed, not any player's
link, reply address or unsubscribe link, on any page they can reach, nor in any email they get.

tests/reading/test_leaks.py checks what seated players and the organiser read; this walks every
address a would-be substitute can open, with and without guessing ids, before and after offering.
"""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from games.models import Seat
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import create_game
from games.services.substitute_seekers import seek_substitute
from games.words.names import coins_text
from notifications.services import deliver_outbox
from tests.browser_like_client import BrowserLikeClient, seat_page
from tests.inbox.support import inbound_settings  # noqa: F401  (the fixture: reply addresses on)
from tests.order_loop_support import ANA, BEN

pytestmark = pytest.mark.django_db

KEYS = re.compile(r"/play/\d+/([^/\s\"'<>]+)/|/mail/unsubscribe/([^/\s\"'<>]+)/|(orders\+[^@\s\"'<>]+@)")


def secrets_of(game) -> dict[str, str]:
    """Each hidden thing of the game, as its own player's pages and emails show it: the coins
    behind each screen, each Mission Card id, the seed, and every key sent to a player."""
    found = {"the seed": game.seed}
    for faction, player in load_game(game).state.players.items():
        found[f"{faction}'s screen"] = coins_text(player.coins_behind_screen)
        for card in player.mission_cards:
            found[f"{faction}'s card {card}"] = card
    deliver_outbox()
    for message in mail.outbox:
        text = (
            message.body + "".join(part for part, _type in message.alternatives) + " ".join(message.reply_to)
        )
        for groups in KEYS.findall(text):
            key = next(g for g in groups if g)
            found[f"a key mailed to {message.to[0]}: {key}"] = key
    for seat in game.seats.all():
        found[f"{seat.faction}'s link"] = link_token(seat)
    return found


def assert_holds_none(text: str, secrets: dict[str, str], where: str) -> None:
    plain = html.unescape(text)
    for what, secret in secrets.items():
        pattern = rf"(?<![\w-]){re.escape(secret)}(?![\w-])"
        assert not re.search(pattern, plain, re.IGNORECASE), f"{where} shows {what}: {secret}"


def test_h_screen_a_would_be_substitute_reaches_nothing_hidden_on_any_path_before_being_seated():
    """Keeps out a stranger who offers for a seat just to read its screen, its cards, a rival's, the
    seed, or a player's link before the organiser decides (or without ever being chosen)."""
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    game = create_game([ANA, BEN], organiser=olga, name="Long game")
    ben = Seat.objects.get(game=game, faction="sparta")
    secrets = secrets_of(game)
    # The secrets are what the seat's own page shows: a walk that cannot see them proves nothing.
    own = BrowserLikeClient()
    own_page = own.get(seat_page(own, game.pk, link_token(ben))).content.decode()
    shown = [what for what in secrets if what.startswith("sparta's") and what != "sparta's link"]
    assert len(shown) >= 2 and all(secrets[what] in html.unescape(own_page) for what in shown), shown

    wanted = seek_substitute(ben)
    zoe = get_user_model().objects.create_user("zoe", email="zoe@example.com")
    mail.outbox = []
    stranger = BrowserLikeClient()
    stranger.force_login(zoe)
    seat_paths = [f"/play/{game.pk}/{seat.pk}/" for seat in game.seats.all()]
    paths = [
        "/lobby/",
        f"/lobby/seats/{wanted.pk}/",
        *seat_paths,
        *(path + rest for path in seat_paths for rest in ("history/", "export.json", "move-cost?to=E5")),
        *(f"/your-seats/{seat.pk}/" for seat in game.seats.all()),
        f"/games/{game.pk}/export.json",
        f"/api/games/{game.pk}/state",
        f"/organiser/games/{game.pk}/",
        f"/organiser/games/{game.pk}/history/",
        f"/organiser/games/{game.pk}/deadlines/",
        f"/organiser/games/{game.pk}/substitutes/",
        "/organiser/",
        f"/players/{zoe.pk}/",
        f"/players/{olga.pk}/",
        "/log-heads/",
    ]
    for stage in ("before offering", "after offering"):
        for path in paths:
            answer = stranger.get(path)
            assert answer.status_code < 500, (stage, path)
            assert_holds_none(answer.content.decode(), secrets, f"{path} {stage}")
            assert_holds_none(str(answer.headers), secrets, f"{path}'s headers {stage}")
        if stage == "before offering":
            offered = stranger.post(f"/lobby/seats/{wanted.pk}/", {"name": "Zoe"})
            assert "is with its organiser" in offered.content.decode()
            assert_holds_none(offered.content.decode(), secrets, "the answer to the offer")
    deliver_outbox()
    for message in mail.outbox:
        if "zoe@example.com" in message.to:
            text = message.subject + message.body + "".join(p for p, _t in message.alternatives)
            assert_holds_none(text, secrets, f"the email {message.subject!r} to Zoe")
