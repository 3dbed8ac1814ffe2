"""The random bot and the invariant checker behind `manage.py simulate`.

Invariants: H-PIECES, H-BAG, S-FORT, H-CONTROL, and VP never decrease.
"""

from __future__ import annotations

import random

from games.engine import fold, legal_commands, new_game
from games.engine.simulation import check_invariants, players_to_act, random_legal_command

from .support import state_of

BOARD = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    "E5": {"tile": "delos", "phalanxes": 1, "unminted_coins": {"owl": 2}},
}


def healthy():
    return state_of(players={"athens": {"coins_behind_screen": {"turtle": 1}}, "sparta": {}}, board=BOARD)


def test_h_pieces_a_well_formed_state_breaks_no_invariant() -> None:
    state = healthy()
    assert check_invariants(None, state) == [] and check_invariants(state, state) == []


def test_h_pieces_a_lost_or_invented_phalanx_is_reported() -> None:
    state = healthy()
    state.board["C3"].phalanxes += 1
    assert any(p.startswith("H-PIECES") for p in check_invariants(None, state))


def test_h_bag_a_lost_or_invented_coin_is_reported() -> None:
    state = healthy()
    state.players["athens"].coins_behind_screen["owl"] = 1
    assert any(p.startswith("H-BAG") and "owl" in p for p in check_invariants(None, state))


def test_s_fort_fortification_hp_outside_one_to_three_is_reported() -> None:
    state = healthy()
    state.board["C3"].fortification_hp = [3, 0]
    assert any(p.startswith("S-FORT") for p in check_invariants(None, state))


def test_h_control_heroes_on_a_neutral_polis_or_alone_are_reported() -> None:
    state = healthy()
    state.board["E5"].navigators = 1
    assert any("neutral" in p for p in check_invariants(None, state))
    state = healthy()
    state.board["E5"].owner, state.board["E5"].phalanxes, state.board["E5"].king = "athens", 0, True
    state.board["C3"].king = False
    state.players["athens"].phalanx_supply += 1  # keep the pieces right: only the hero rule breaks
    assert any("without a phalanx" in p for p in check_invariants(None, state))


def test_h_control_a_king_on_two_poleis_is_reported() -> None:
    state = healthy()
    state.board["E5"].owner, state.board["E5"].king = "athens", True
    state.players["athens"].phalanx_supply -= 1
    assert any("King" in p for p in check_invariants(None, state))


def test_invariants_vp_never_decrease() -> None:
    before = healthy()
    after = healthy()
    before.players["sparta"].vp = 5
    after.players["sparta"].vp = 4
    assert any(p.startswith("VP of sparta") for p in check_invariants(before, after))


def test_the_bot_picks_only_legal_orders_and_only_when_asked() -> None:
    state = fold(new_game({"factions": ["athens", "sparta", "corinth"]}, "bot"))
    bot = random.Random(1)
    (on_turn,) = players_to_act(state)
    assert random_legal_command(state, on_turn, bot) in legal_commands(state, on_turn)
    idle = next(f for f in state.seat_order if f != on_turn)
    assert random_legal_command(state, idle, bot) is None


def test_play_random_game_hands_every_batch_to_its_hook_in_order() -> None:
    from games.engine import fold_from
    from games.engine.record import ORDER_GIVEN, RANDOMNESS_DRAWN
    from games.engine.simulation import play_random_game

    batches = []
    events, state = play_random_game(
        ["athens", "sparta"],
        "hook",
        random.Random(3),
        recorded=True,
        on_batch=lambda player, command, batch, seq: batches.append((player, command, list(batch), seq)),
    )
    assert [e for _, _, batch, _ in batches for e in batch] == events
    assert [seq for *_, seq in batches] == [
        1 + sum(len(b) for _, _, b, _ in batches[:i]) for i in range(len(batches))
    ]
    assert batches[0][:2] == (None, None) and batches[0][2][-1].type == RANDOMNESS_DRAWN
    for player, command, batch, _ in batches[1:]:
        assert command.player == player and batch[0].type == ORDER_GIVEN
    assert state.phase == "ended" and fold_from(fold([]), events).to_dict() == state.to_dict()


def test_play_random_game_names_the_seq_of_the_event_that_broke_an_invariant(monkeypatch) -> None:
    import pytest

    from games.engine import simulation

    monkeypatch.setattr(
        simulation, "check_invariants", lambda before, after: ["broken"] * (after.events_applied == 3)
    )
    with pytest.raises(simulation.InvariantBroken) as caught:
        simulation.play_random_game(["athens", "sparta"], "broken", 1)
    assert caught.value.seq == 3 and caught.value.event_type
