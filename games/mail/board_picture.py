"""The board picture in the emails: a PNG attached inline, shown by the HTML body via cid:.

The picture is drawn when the email is sent, from the game's log up to the email's own seq, so
the outbox row stays small and the picture is exactly the board the email speaks of. The board's
public view is drawn (engine.board_view, the board of every player_view), never the raw state
(H-SCREEN).
"""

from __future__ import annotations

import base64
import functools
import logging
from collections.abc import Callable
from email import encoders
from email.mime.base import MIMEBase
from email.mime.image import MIMEImage
from typing import Any

from aegea_pbem.sql_cursor import kept_cursor
from games.board import render_board_png
from games.engine import GameState, board_view
from games.models import Game, Seat
from games.reading.situation import load_game

log = logging.getLogger(__name__)

# The emails whose HTML shows the board (templates/emails/_board.html): welcome, turn and end; a
# rival's trade offer (H-TRADE: what is offered is easier to judge on the board); and the notices
# about a position the player must act on or has just missed: a reminder ("reminder-N"), the
# default order after a deadline passed, and the update after another player's turn. Not
# messages, digests, replies to email orders (their seq is no event's) nor the organiser's alerts.
BOARD_KINDS = frozenset({"welcome", "turn", "ended", "offer", "reminder", "missed", "update"})


def shows_board(kind: str) -> bool:
    """Whether an email of this outbox kind carries the board picture ("reminder-2" is a reminder)."""
    return kind.split("-", 1)[0] in BOARD_KINDS


def board_cid(game_id: int, seq: int, seat_id: int) -> str:
    """The Content-ID of one email's board picture (without the angle brackets)."""
    return f"board-{game_id}-{seq}-{seat_id}@aegeapolis"


def board_context(game_id: int, seq: int, seat_id: int, kind: str) -> dict[str, str]:
    """What an email's template needs to show the board (`board_cid`), for the kinds that show it;
    inline_parts attaches the picture under that cid when the email is sent."""
    return {"board_cid": board_cid(game_id, seq, seat_id)} if shows_board(kind) else {}


def board_image(
    game_id: int, seq: int, seat_id: int, language: str, state: GameState | None = None
) -> MIMEImage | None:
    """The board as the seat saw it at `seq`, as an inline PNG part; None if the seat is gone.
    `state`: the game's state at `seq`, when the caller has it (turns.late_parts: the same email's
    position read it), else loaded here."""
    if not _seat_in_game(seat_id, game_id):
        return None
    if state is None:
        state = load_game(Game(pk=game_id), up_to_seq=seq).state
    png = render_board_png(board_view(state), language)  # the board is public: what every seat sees
    image = MIMEImage(b"", "png", _encoder=encoders.encode_noop)  # its payload: the base64 below
    image.set_payload(_base64(png))
    image["Content-Transfer-Encoding"] = "base64"
    image.add_header("Content-ID", f"<{board_cid(game_id, seq, seat_id)}>")
    image.add_header("Content-Disposition", "inline", filename="board.png")
    return image


def _seat_in_game(seat_id: int, game_id: int) -> bool:
    # Plain SQL on the kept cursor: the ORM compiled this EXISTS for every email (~3% of a worker's time).
    with kept_cursor() as cursor:
        cursor.execute(_SEAT_IN_GAME, [seat_id, game_id])
        return cursor.fetchone() is not None


_SEAT_IN_GAME = f"SELECT 1 FROM {Seat._meta.db_table} WHERE id = %s AND game_id = %s"


# Most pictures go in more than one email (a winter's to every player, a turn's and its update):
# the PNG comes back from the picture cache as the same bytes, encoded once (~2 ms of 70 KB).
@functools.lru_cache(maxsize=64)
def _base64(png: bytes) -> str:
    """`png` in base64, in lines of 76 characters as email.encoders writes them (RFC 2045)."""
    text = base64.b64encode(png).decode("ascii")
    return "".join(text[i : i + 76] + "\n" for i in range(0, len(text), 76))


def inline_parts(row: Any, state_at: Callable[[int], GameState]) -> tuple[MIMEBase, ...]:
    """The board picture for one outbox row, for the kinds that show it (turns.late_parts tells
    it with the rest of the email; `state_at` gives the game's state at a seq).

    Drawing the picture must never stop the email: without it the email still goes, its
    HTML then shows the image's alt text.
    """
    if not shows_board(row.kind):
        return ()
    try:
        image = board_image(row.game_id, row.seq, row.seat_id, row.language, state_at(row.seq))
    except Exception:  # any failure to draw (cairo missing, a broken state) only drops the picture
        log.exception("outbox %s: the board picture could not be drawn", row.pk)
        return ()
    return (image,) if image is not None else ()
