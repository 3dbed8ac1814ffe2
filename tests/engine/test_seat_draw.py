"""A gathered game's "random" factions, drawn from the seed and recorded in its opening (H-SETUP, S-FAC;
games/engine/seat_draw.py, docs/fairness.md)."""

from __future__ import annotations

import pytest

from games.engine import (
    FACTIONS_DRAWN,
    SEAT_DRAW_POSITION,
    GameRng,
    RuleViolation,
    draw_factions,
    fold,
    opening_recorded,
    seated_factions,
)

from .support import types


def test_h_setup_random_seats_draw_in_turn_from_the_sorted_factions_nobody_chose() -> None:
    event = draw_factions(["sparta", "athens"], 2, "a seed")

    rng = GameRng("a seed", SEAT_DRAW_POSITION)  # the draw done by hand, as a verifier does it
    left = ["corinth", "thebes"]
    first = left.pop(rng.randbelow(2, "faction"))
    second = left.pop(rng.randbelow(1, "faction"))
    assert event.type == FACTIONS_DRAWN == "FactionsDrawn"
    assert event.payload == {
        "chosen": ["athens", "sparta"],  # sorted: not who asked first
        "random_seats": 2,
        "pool": ["corinth", "thebes"],
        "drawn": [first, second],
        "position": -1,
        "draws": [[label, n, value] for label, n, value in rng.transcript],
    }
    assert seated_factions(event) == ["athens", "corinth", "sparta", "thebes"]


def test_h_setup_the_faction_draw_is_the_seeds_and_only_the_seeds() -> None:
    draws = {tuple(draw_factions([], 4, f"seed {n}").payload["drawn"]) for n in range(40)}
    assert draw_factions([], 4, "seed 3") == draw_factions([], 4, "seed 3")
    assert len(draws) > 10  # 24 orders of four factions: different seeds draw differently
    assert all(sorted(order) == ["athens", "corinth", "sparta", "thebes"] for order in draws)


@pytest.mark.parametrize(
    ("chosen", "random_seats"),
    [
        (["athens"], 0),  # no random seat: no draw to record
        (["athens", "sparta", "thebes"], 2),  # five seats
        ([], 1),  # one seat
        (["athens", "athens"], 1),
        (["rome"], 1),
        (["athens"], True),
    ],
)
def test_s_fac_a_draw_for_seats_that_are_no_table_is_refused(chosen: list[str], random_seats: object) -> None:
    with pytest.raises(RuleViolation) as caught:
        draw_factions(chosen, random_seats, "seed")  # type: ignore[arg-type]
    assert caught.value.rule == "S-FAC"


def test_s_fac_the_draw_and_a_new_game_refuse_a_table_in_the_same_words() -> None:
    with pytest.raises(RuleViolation) as drawing:
        draw_factions(["athens", "athens"], 1, "seed")
    with pytest.raises(RuleViolation) as starting:
        opening_recorded({"factions": ["athens", "athens"]}, "seed")
    assert (drawing.value.message_template, drawing.value.params) == (
        starting.value.message_template,
        starting.value.params,
    )
    assert (
        str(drawing.value)
        == "A game needs 2 to 4 different factions out of athens, sparta, corinth, thebes. (S-FAC)"
    )


def test_h_setup_the_draw_is_recorded_right_after_game_started_and_changes_no_state() -> None:
    drawn = draw_factions(["athens"], 1, "seed")
    factions = ["athens", *drawn.payload["drawn"]]

    opening = opening_recorded({"factions": factions}, "seed", factions_drawn=drawn)
    plain = opening_recorded({"factions": factions}, "seed")

    assert types(opening)[:2] == ["GameStarted", "FactionsDrawn"] and opening[1] is drawn
    assert [e for e in opening if e is not drawn] == plain  # the opening's own draws are unchanged
    assert fold(opening).to_dict() | {"events_applied": 0} == fold(plain).to_dict() | {"events_applied": 0}
