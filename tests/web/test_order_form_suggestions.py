"""Each order form suggests only the values of its own kind's legal orders (H-ACTIONS): the board
marks the spaces a form suggests, so a space where one may Expand must not be offered to Recruit.
"""

from __future__ import annotations

import pytest

from games.engine import legal_commands
from games.engine.commands import Move
from games.reading.situation import load_game
from games.web.forms.kinds import order_forms
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


def first_turn() -> tuple[dict, list]:
    game = two_player_game()
    faction = seats_to_act(game)[0].faction
    state = load_game(game).state
    legal = legal_commands(state, faction)
    return order_forms(state, faction, legal), legal


def spaces(legal: list, kind: str, attribute: str = "space") -> list[str]:
    return sorted({getattr(c, attribute) for c in legal if c.kind == kind and getattr(c, attribute, None)})


def test_h_actions_recruit_fortify_and_expand_each_suggest_their_own_legal_spaces() -> None:
    forms, legal = first_turn()
    for kind in ("recruit", "fortify", "expand"):
        lists = dict(forms[kind].datalists)
        assert lists.get(f"dl-{kind}-space", []) == spaces(legal, kind), kind
    # The first turn's Recruit is in the Native Polis only, not on the empty spaces one may Expand to.
    assert not set(spaces(legal, "recruit")) & set(spaces(legal, "expand"))
    links = dict(forms["expand"].datalists).get("dl-expand-link_from", [])
    assert links == spaces(legal, "expand", "link_from")


def test_s_move_suggests_only_the_moves_origins_and_destinations() -> None:
    forms, legal = first_turn()
    moves = [c for c in legal if isinstance(c, Move)]
    lists = dict(forms["move"].datalists)
    assert lists.get("dl-move-origin", []) == sorted({c.origin for c in moves})
    assert lists.get("dl-move-to1", []) == sorted({d.space for c in moves for d in c.destinations})


def test_s_move_lists_for_each_origin_the_poleis_its_legal_moves_reach() -> None:
    forms, legal = first_turn()
    moves = [c for c in legal if isinstance(c, Move)]
    assert moves  # the first turn has Moves to list
    lists = dict(forms["move"].datalists)
    for origin in {c.origin for c in moves}:
        reach = sorted({d.space for c in moves if c.origin == origin for d in c.destinations})
        assert lists[f"dl-move-from-{origin}"] == reach, origin
    assert {k for k in lists if k.startswith("dl-move-from-")} == {f"dl-move-from-{c.origin}" for c in moves}
