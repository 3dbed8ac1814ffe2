"""The Choice decided after the first tile, by email reply lines in English and German (H-CHOICE-STEP,
S-EXP-CHOICE; docs/email-orders.md): "expand D4 choice later", "second deck", "keep TILE"."""

from __future__ import annotations

import pytest

from games.engine import command_from_dict, legal_commands
from games.reading.situation import load_game
from games.services.inbox.order_syntax import parse_order
from games.services.orders import submit_order
from games.words.names import tile_name
from games.words.position import choice_reply
from tests.order_loop_support import seats_to_act, two_player_game

LINES = {
    "en": ("expand {space} choice later", "second deck", "keep {tile}"),
    "de": ("ausbreiten {space} auswahl später", "zweites stapel", "behalte {tile}"),
}


def given(game, seat, line: str) -> None:
    loaded = load_game(game)
    submit_order(game, seat, command_from_dict(parse_order(line, seat.faction)), loaded.seq)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de"])
def test_h_choice_step_by_email_see_the_first_tile_pay_for_a_second_and_keep_one(language) -> None:
    from django.utils import translation

    game = two_player_game()
    seat = seats_to_act(game)[0]
    state = load_game(game).state
    space = next(c.space for c in legal_commands(state, seat.faction) if c.kind == "expand")
    expand, second, keep = LINES[language]
    given(game, seat, expand.format(space=space))
    state = load_game(game).state
    assert len(state.pending_choice.tiles) == 1
    with translation.override(language):
        assert tile_name(state.pending_choice.tiles[0]) in choice_reply(state, seat.faction)
    fp = state.players[seat.faction].fp
    given(game, seat, second)
    state = load_game(game).state
    first, drawn = state.pending_choice.tiles
    assert state.players[seat.faction].fp <= fp
    with translation.override(language):
        given(game, seat, keep.format(tile=tile_name(drawn)))
    assert load_game(game).state.board[space].tile_id == drawn
