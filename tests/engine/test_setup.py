"""Setting up a game, as examples: S-FAC, S-TIME, H-BOARD, H-SETUP, H-TILES, H-NEUTRAL, H-BAG, H-PIECES."""

from __future__ import annotations

import json

import pytest

from games.engine import RuleViolation, data, fold, new_game
from games.engine.board import SPACES, distance, neighbours

from .support import only, types

FOUR = ["athens", "sparta", "corinth", "thebes"]


def test_s_fac_four_factions_with_their_leaders_and_colours() -> None:
    assert {(f.name, f.leader, f.colour) for f in data.FACTIONS.values()} == {
        ("Athens", "Athene", "blue"),
        ("Sparta", "Leonidas", "black"),
        ("Corinth", "Sisyphos", "terracotta"),
        ("Thebes", "Phix", "cream"),
    }


@pytest.mark.parametrize(
    "factions",
    [["athens"], ["athens", "athens"], ["athens", "rome"], [*FOUR, "athens"], "athens,sparta", None],
)
def test_s_fac_a_game_needs_two_to_four_different_factions(factions: object) -> None:
    with pytest.raises(RuleViolation) as caught:
        new_game({"factions": factions}, "seed")
    assert caught.value.rule == "S-FAC"


def test_h_board_is_nine_by_nine_with_eight_neighbours_and_chebyshev_distance() -> None:
    assert len(SPACES) == 81 and SPACES[0] == "A1" and SPACES[-1] == "I9"
    assert len(neighbours("E5")) == 8 and len(neighbours("A1")) == 3
    assert distance("A1", "I9") == 8 and distance("C3", "D4") == 1


def test_h_setup_each_faction_starts_with_native_four_phalanxes_king_two_ap_two_fp() -> None:
    started = fold(new_game({"factions": FOUR}, "seed")[:1])
    for faction, space in {"athens": "C3", "sparta": "G3", "corinth": "C7", "thebes": "G7"}.items():
        native = started.board[space]
        assert (native.owner, native.tile_id, native.phalanxes, native.king) == (faction, faction, 4, True)
        player = started.players[faction]
        assert (player.ap, player.fp) == (2, 2)
    assert started.board["C3"].navigators == 1  # H-HEROES: Athens starts with a Navigator


def test_h_setup_only_the_factions_in_play_have_a_native_polis() -> None:
    started = fold(new_game({"factions": ["thebes", "sparta"]}, "seed")[:1])
    owners = {p.owner for p in started.board.values()}
    assert owners == {"thebes", "sparta", None}
    assert "C3" not in started.board and "C7" not in started.board


def test_h_setup_five_neutral_poleis_dealt_from_the_deck_onto_fixed_spaces() -> None:
    started = fold(new_game({"factions": FOUR}, "seed")[:1])
    neutral = {s: p for s, p in started.board.items() if p.owner is None}
    assert sorted(neutral) == sorted(["E3", "C5", "E5", "G5", "E7"])
    assert len(started.deck) == 36 - 5
    assert not {p.tile_id for p in neutral.values()} & set(started.deck)


def test_h_setup_seat_order_is_drawn_from_the_seed() -> None:
    orders = {tuple(new_game({"factions": FOUR}, f"seed-{i}")[0].payload["seat_order"]) for i in range(12)}
    assert len(orders) > 1 and all(sorted(o) == sorted(FOUR) for o in orders)
    again = [e.to_dict() for e in new_game({"factions": FOUR}, "seed-3")]
    assert json.dumps(again) == json.dumps([e.to_dict() for e in new_game({"factions": FOUR}, "seed-3")])


def test_h_setup_the_first_event_publishes_only_the_seed_hash() -> None:
    started = new_game({"factions": FOUR}, "my secret seed")[0]
    assert "my secret seed" not in json.dumps(started.to_dict())
    assert len(started.payload["seed_hash"]) == 64


def test_h_setup_the_game_opens_with_the_first_players_turn_in_431() -> None:
    state = fold(new_game({"factions": FOUR}, "seed"))
    assert (state.year, state.phase, state.action_round, state.turn_index) == (431, "actions", 1, 0)
    assert state.player_on_turn == state.seat_order[0]


def test_h_tiles_thirty_six_deck_tiles_and_four_natives_in_one_data_module() -> None:
    assert len(data.DECK_TILES) == 36 == len(set(data.DECK_TILES))
    natives = {t.native_of: t for t in data.TILES.values() if t.native_of}
    assert sorted(natives) == sorted(FOUR)
    assert all(t.mint in (None, *data.COIN_DESIGNS) for t in data.TILES.values())


def test_h_tiles_natives_differ_as_the_factions_do() -> None:
    athens, sparta, corinth, thebes = (data.TILES[f] for f in FOUR)
    assert athens.fp > max(athens.ap, athens.coins)  # FP-heavy
    assert sparta.ap > max(sparta.fp, sparta.coins)  # AP-heavy
    assert corinth.coins > max(corinth.ap, corinth.fp) and thebes.coins > max(thebes.ap, thebes.fp)
    assert sparta.mint is None
    assert len({athens.mint, corinth.mint, thebes.mint}) == 3 and None not in {
        athens.mint,
        corinth.mint,
        thebes.mint,
    }


def test_h_neutral_setup_poleis_carry_their_printed_garrison_and_treasure_from_the_bag() -> None:
    first = new_game({"factions": FOUR}, "seed")[0]
    state = fold([first])
    for neutral in first.payload["neutrals"]:
        tile = data.TILES[neutral["tile"]]
        polis = state.board[neutral["space"]]
        assert polis.phalanxes == tile.garrison
        assert sum(polis.unminted_coins.values()) == tile.treasure
    on_poleis = sum(sum(p.unminted_coins.values()) for p in state.board.values())
    assert sum(state.bag.values()) == 48 - on_poleis


def test_h_bag_starts_with_twelve_coins_of_each_of_four_designs() -> None:
    first = new_game({"factions": FOUR}, "seed")[0]
    assert first.payload["bag"] == {"owl": 12, "pegasus": 12, "shield": 12, "turtle": 12}


def test_h_pieces_each_faction_has_sixty_phalanxes_four_on_the_board() -> None:
    state = fold(new_game({"factions": FOUR}, "seed")[:1])
    assert all(p.phalanx_supply == 56 for p in state.players.values())


def test_s_time_the_game_runs_eleven_years_from_431_to_421() -> None:
    from games.engine.simulation import play_random_game

    events, state = play_random_game(["athens", "sparta"], "eleven years", 7)
    years = [e.payload["year"] for e in events if e.type == "YearBegan"]
    assert years == list(range(431, 420, -1))
    assert types(events)[-1] == "GameEnded" and state.phase == "ended"
    ended = only(events, "GameEnded")
    top = max(state.players[f].vp for f in state.seat_order)
    assert all(state.players[w].vp == top for w in ended.payload["winners"])  # most VP wins
