"""The board picture in the emails: the PNG of the seat's own view at the email's seq."""

from __future__ import annotations

import re
import struct
from datetime import UTC, datetime, timedelta
from email.mime.base import MIMEBase
from io import BytesIO
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core import mail
from PIL import Image

from games.board import board_size, render_board_png
from games.engine import Bundle, Destination, Move, OfferTrade, player_view
from games.mail.board_picture import (
    BOARD_KINDS,
    board_cid,
    board_context,
    board_image,
    inline_parts,
    shows_board,
)
from games.models import Event
from games.reading.situation import load_game
from games.services.deadline_tick import tick
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from notifications.models import Outbox
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401
from tests.order_loop_support import seats_to_act

SCENARIO = {
    "players": {
        "athens": {"fp": 3, "coins_behind_screen": {"owl": 3}},
        "sparta": {"coins_behind_screen": {"turtle": 2}},
    },
    "board": {
        "C3": {"owner": "athens", "phalanxes": 4, "king": True, "navigators": 1},
        "D4": {"tile": "megara", "owner": "athens", "phalanxes": 2, "fortification_hp": [3, 2]},
        "G3": {"owner": "sparta", "phalanxes": 6, "king": True},
        "E5": {"tile": "delos", "phalanxes": 1, "unminted_coins": {"turtle": 2}},
    },
    "trade_links": [["C3", "D4"]],
}


@pytest.mark.django_db
def test_h_screen_the_email_picture_is_the_seats_own_view_at_that_seq() -> None:
    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    game = create_game(players, scenario=SCENARIO)
    seat = game.seats.get(faction="sparta")
    loaded = load_game(game)
    image = board_image(game.pk, loaded.seq, seat.pk, "de")
    assert image is not None
    assert image["Content-ID"] == f"<{board_cid(game.pk, loaded.seq, seat.pk)}>"
    assert image["Content-Disposition"].startswith("inline")
    assert image.get_content_type() == "image/png"
    png = image.get_payload(decode=True)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == board_size(player_view(loaded.state, "sparta"))
    assert Image.open(BytesIO(png)).size == board_size(player_view(loaded.state, "sparta"))
    assert png == render_board_png(player_view(loaded.state, "sparta"), "de")  # Sparta's view, not the state


@pytest.mark.django_db
def test_a_seat_of_another_game_gets_no_picture() -> None:
    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    game = create_game(players, scenario=SCENARIO)
    other = create_game(players, scenario=SCENARIO)
    assert board_image(game.pk, 1, other.seats.first().pk, "en") is None


PLAYERS = [
    PlayerSpec("Ana", "ana@example.com", "athens"),
    PlayerSpec("Ben", "ben@example.com", "sparta", "de"),
]


def board_part(message) -> tuple[str, bytes]:
    """The cid the HTML body shows and the PNG attached under it (exactly one)."""
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    (cid,) = re.findall(r'<img src="cid:([^"]+)"', html)
    (image,) = [a for a in message.attachments if isinstance(a, MIMEBase)]
    assert image["Content-ID"] == f"<{cid}>"
    assert message.mixed_subtype == "related"
    assert "multipart/related" in message.message().as_string()
    return cid, image.get_payload(decode=True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_h_screen_every_email_shows_the_board_its_reader_may_see() -> None:
    game = create_game(PLAYERS, scenario=SCENARIO)
    state = load_game(game).state
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        seat = game.seats.get(email=message.to[0])
        cid, png = board_part(message)
        assert cid.startswith(f"board-{game.pk}-") and cid.endswith(f"-{seat.pk}@aegeapolis")
        assert png == render_board_png(player_view(state, seat.faction), seat.language)

    mail.outbox.clear()
    athens = game.seats.get(faction="athens")
    move = Move("athens", "C3", (Destination("E5", phalanxes=4),))
    submit_order(game, athens, move, load_game(game).seq)
    after = load_game(game).state
    (turn,) = [m for m in mail.outbox if m.to == ["ben@example.com"]]
    _, png = board_part(turn)
    assert png == render_board_png(player_view(after, "sparta"), "de")  # the board after the move


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_tapping_the_emails_picture_opens_the_board_on_the_readers_game_page(client) -> None:
    """On a phone the picture's words are small: it links to the board of the reader's own page,
    which zooms; its alt text, the link's name, says so in the reader's language."""
    create_game(PLAYERS, scenario=SCENARIO)
    alt = {
        "ana@example.com": "The board: open it larger in the game",
        "ben@example.com": "Das Brett: im Spiel größer öffnen",
    }
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        html, _ = message.alternatives[0]
        cid, _ = board_part(message)
        pattern = rf'<a href="([^"#]+)#board"><img src="cid:{re.escape(cid)}" alt="([^"]+)"'
        ((link, said),) = re.findall(pattern, html)
        assert said == alt[message.to[0]]
        assert f'<a href="{link}"' in html  # the email's own "Open the game" link
        page = client.get(urlsplit(link).path)
        assert page.status_code == 200
        assert b'<section id="board"' in page.content and b"<svg" in page.content


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_an_email_goes_without_its_picture_when_the_picture_cannot_be_drawn(monkeypatch) -> None:

    def broken(*args, **kwargs):
        raise OSError("no cairo here")

    monkeypatch.setattr("games.mail.board_picture.render_board_png", broken)
    create_game(PLAYERS, scenario=SCENARIO)
    assert len(mail.outbox) == 2
    assert all(not m.attachments for m in mail.outbox)
    assert Outbox.objects.filter(status=Outbox.Status.SENT).count() == 2


def test_only_the_emails_that_show_the_board_carry_it() -> None:
    notice = SimpleNamespace(kind="notice", game_id=1, seq=1, seat_id=1, language="en", pk=1)
    assert inline_parts(notice, lambda seq: pytest.fail("a notice reads no state for a picture")) == ()
    assert {"welcome", "turn", "ended", "offer", "reminder", "missed", "update"} == BOARD_KINDS
    assert shows_board("reminder-2") and shows_board("missed") and shows_board("offer")
    for kind in ("message", "reply", "digest", "vacation", "absent"):
        assert not shows_board(kind) and board_context(1, 1, 1, kind) == {}, kind
    assert board_context(1, 5, 2, "update") == {"board_cid": board_cid(1, 5, 2)}


def sent_as(kind: str, to: str) -> list:
    return [m for m in mail.outbox if m.tags == [kind] and m.to == [to]]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_h_trade_the_offer_email_shows_the_rival_the_board_they_may_see() -> None:
    game = create_game(PLAYERS, scenario={**SCENARIO, "on_turn": "athens"})
    athens = game.seats.get(faction="athens")
    offer = OfferTrade("athens", to="sparta", give=Bundle(fp=1), take=Bundle(coins=(("turtle", 1),)))
    mail.outbox.clear()
    submit_order(game, athens, offer, load_game(game).seq)
    after = load_game(game)
    (message,) = sent_as("offer", "ben@example.com")
    cid, png = board_part(message)
    assert cid == board_cid(game.pk, after.seq, game.seats.get(faction="sparta").pk)
    assert png == render_board_png(player_view(after.state, "sparta"), "de")  # Sparta's view, in German


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_the_deadline_passed_notice_shows_the_board_at_the_missed_deadline() -> None:
    start = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False):
        game = create_game(PLAYERS)  # a game that began with GameStarted: its deadlines run
    (absent,) = seats_to_act(game)
    mail.outbox.clear()
    with time_machine.travel(start + timedelta(hours=48.5), tick=False):
        assert tick().defaults == [(game.pk, absent.faction)]
    passed = Event.objects.get(game=game, type="DeadlinePassed")
    (notice,) = sent_as("missed", absent.email)
    cid, png = board_part(notice)
    assert cid == board_cid(game.pk, passed.seq, absent.pk)
    state = load_game(game, up_to_seq=passed.seq).state
    assert png == render_board_png(player_view(state, absent.faction), absent.language)
    # The notice itself is unchanged, in the absent player's language (the seat order is drawn,
    # so the absent player is Ana, in English, or Ben, in German).
    said = {
        "en": "the server gave the default order for you",
        "de": "hat der Server den Standardbefehl für dich",
    }
    assert said[absent.language] in notice.body


@pytest.mark.django_db
def test_a_board_drawn_once_is_not_drawn_again_for_the_next_email_of_the_same_picture(monkeypatch) -> None:
    """A winter's emails to every player show one public board (H-SCREEN): the second seat's
    picture is the first one's, drawn and encoded once."""
    import cairosvg

    from games.board.png import forget_pictures

    game = create_game(PLAYERS, scenario=SCENARIO)
    seq = load_game(game).seq
    athens, sparta = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    forget_pictures()
    drawn: list[int] = []
    real = cairosvg.svg2png

    def counting(**kwargs):
        drawn.append(1)
        return real(**kwargs)

    monkeypatch.setattr(cairosvg, "svg2png", counting)
    first = board_image(game.pk, seq, athens.pk, "en")
    assert drawn  # the parts of the picture, from nothing
    before = len(drawn)
    second = board_image(game.pk, seq, sparta.pk, "en")
    assert len(drawn) == before
    assert second.get_payload() == first.get_payload()
    assert second.get_payload(decode=True) == render_board_png(
        player_view(load_game(game).state, "sparta"), "en"
    )
    board_image(game.pk, seq, athens.pk, "de")  # another language, another picture
    assert len(drawn) > before
