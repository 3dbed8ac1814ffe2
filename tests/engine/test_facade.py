"""The facade as examples: illegal orders change nothing (H-ORDER and the rule they break), legal_commands
offers only legal orders, and the scenario format refuses impossible positions."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import (
    COMMAND_TYPES,
    ChooseTile,
    Command,
    CommitCoins,
    Destination,
    Expand,
    Fortify,
    GameRng,
    Move,
    Pass,
    Recruit,
    RuleViolation,
    ScenarioError,
    command_from_dict,
    decide,
    fold,
    legal_commands,
    new_game,
    scenario,
)
from games.engine.simulation import players_to_act, random_legal_command

from .support import play, refused, state_of

BOARD = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "E5": {"tile": "elis", "phalanxes": 2},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
}
PLAYERS = {"athens": {"ap": 1, "fp": 1}, "sparta": {"ap": 1, "fp": 1}}

ILLEGAL: list[tuple[str, Command, str]] = [
    ("wrong player", Pass("sparta"), "H-YEAR"),
    ("unknown player", Pass("thebes"), "H-ORDER"),
    ("wrong phase", CommitCoins("athens"), "H-WINTER-ORDERS"),
    ("no choice waiting", ChooseTile("athens", keep="elis"), "S-EXP-CHOICE"),
    ("expand not adjacent", Expand("athens", space="F6"), "S-EXP"),
    ("expand onto a Polis", Expand("athens", space="C3"), "S-EXP"),
    ("unknown tile source", Expand("athens", space="D4", source="hand"), "H-ORDER"),
    ("empty discard pile", Expand("athens", space="D4", source="discard"), "S-EXP"),
    ("link not adjacent", Expand("athens", space="D4", link_from="G3"), "H-EXP-LINK"),
    ("recruit without AP", Recruit("athens", space="C3", phalanxes=2), "H-ACTIONS"),
    ("recruit malformed", Recruit("athens", space="C3", phalanxes=0), "H-ORDER"),
    ("fortify without AP", Fortify("athens", space="C3"), "H-ACTIONS"),
    ("fortify a rival", Fortify("athens", space="G3"), "H-ACTIONS"),
    ("move without enough FP", Move("athens", origin="C3", destinations=(Destination("E5", 4),)), "S-MOVE"),
    (
        "too many destinations",
        Move("athens", origin="C3", destinations=tuple(Destination(s, 1) for s in ("E5", "G3", "D4", "B2"))),
        "H-ORDER",
    ),
    ("move to an empty space", Move("athens", origin="C3", destinations=(Destination("D4", 1),)), "S-MOVE"),
]


@pytest.mark.parametrize(("why", "command", "rule"), ILLEGAL, ids=[i[0] for i in ILLEGAL])
def test_h_order_an_illegal_order_is_refused_and_changes_nothing(
    why: str, command: Command, rule: str
) -> None:
    state = state_of(players=PLAYERS, board=BOARD, discard=[])
    error = refused(state, command, rule)
    assert error.message  # a message fit to show the player


def test_h_order_not_enough_fp_for_both_upgrades_changes_nothing() -> None:
    state = state_of(players=PLAYERS, board=BOARD, on_turn="sparta")  # Sparta pays 1 FP for a Choice
    refused(state, Expand("sparta", space="F4", second_source="deck", link_from="G3"), "S-EXP-CHOICE")


def test_h_order_an_order_to_an_ended_game_is_refused() -> None:
    state = state_of(players=PLAYERS, board=BOARD, phase="ended")
    refused(state, Pass("athens"), "H-END")


def test_h_order_decide_refuses_what_is_not_an_order() -> None:
    with pytest.raises(RuleViolation):
        decide(state_of(), {"kind": "pass", "player": "athens"}, GameRng("s", 0))  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(3))
def test_legal_commands_are_all_legal(seed: int) -> None:
    """Every order legal_commands offers is accepted, at every step of a random game."""
    import random

    bot = random.Random(seed)
    events = new_game(
        {"factions": ["athens", "sparta", "corinth", "thebes"][: 2 + seed % 3]}, f"legal-{seed}"
    )
    state = fold(events)
    for _ in range(50):
        waiting = players_to_act(state)
        if not waiting:
            break
        for player in waiting:
            options = legal_commands(state, player)
            assert options, f"{player} must act but has no legal order"
            for option in options:
                decide(state, option, GameRng("probe", 0))  # raises if any is illegal
        player = bot.choice(waiting)
        _, state = play(state, random_legal_command(state, player, bot))
    others = [f for f in state.seat_order if f not in players_to_act(state)]
    assert all(legal_commands(state, f) == [] for f in others)


def test_legal_commands_on_an_action_turn_always_include_pass() -> None:
    state = state_of(players={"athens": {}, "sparta": {}}, board=BOARD)
    assert legal_commands(state, "athens")[0] == Pass("athens") and legal_commands(state, "sparta") == []


def test_legal_commands_in_a_scoring_winter_include_committing_nothing() -> None:
    state = state_of(players=["athens", "sparta"], year=430, phase="winter_orders")
    assert CommitCoins("athens") in legal_commands(state, "athens")


@pytest.mark.parametrize(
    ("spec", "complaint"),
    [
        ({"players": ["athens"]}, "players"),
        ({"players": ["athens", "rome"]}, "unknown faction"),
        ({"board": {"Z1": {}}}, "not a space"),
        ({"board": {"C3": {"owner": "thebes"}}}, "not a player"),
        ({"board": {"C3": {"tile": "atlantis"}}}, "unknown tile"),
        ({"board": {"C3": {"fortification_hp": [4]}}}, "fortification_hp"),
        ({"board": {"C3": {"phalanxes": -1}}}, "phalanxes"),
        ({"board": {"C3": {"king": True}}}, "heroes need an owner"),
        ({"board": {"C3": {"owner": "athens", "phalanxes": 61}}}, "H-PIECES"),
        ({"players": {"athens": {"coins_behind_screen": {"owl": 13}}, "sparta": {}}}, "H-BAG"),
        ({"players": {"athens": {"wealth": 1}, "sparta": {}}}, "unknown field"),
        ({"deck": ["elis", "elis"]}, "two places"),
        ({"phase": "dancing"}, "phase"),
        ({"year": 500}, "year"),
        ({"phase": "choice"}, "pending_choice"),
        ({"weather": "fine"}, "unknown field"),
    ],
)
def test_scenario_refuses_impossible_positions(spec: dict[str, Any], complaint: str) -> None:
    with pytest.raises(ScenarioError, match=complaint):
        scenario(spec)


def test_scenario_defaults_keep_pieces_and_coins_conserved() -> None:
    state = scenario(
        {
            "players": {"athens": {"coins_behind_screen": {"owl": 2}}, "sparta": {}},
            "board": {"C3": {"owner": "athens", "phalanxes": 7}, "E5": {"unminted_coins": {"owl": 1}}},
            "discard": ["pylos"],
        }
    )
    assert state.players["athens"].phalanx_supply == 53 and state.players["sparta"].phalanx_supply == 60
    assert state.bag["owl"] == 12 - 3 and len(state.deck) == 36 - 2  # E5 took the first free deck tile
    assert state.board["E5"].tile_id == "aegina" and state.board["C3"].tile_id == "athens"


def test_scenario_of_a_states_own_dict_gives_the_same_state() -> None:
    from games.engine.simulation import play_random_game

    events, _ = play_random_game(["athens", "sparta", "thebes"], "paste", bot_seed=5, check=False)
    for cut in (1, len(events) // 3, len(events) // 2, len(events)):
        state = fold(events[:cut])
        assert scenario(state.to_dict()).to_dict() == state.to_dict()


def test_h_order_random_garbage_is_refused_cleanly_and_changes_nothing() -> None:
    """Orders built from random pieces either pass or raise RuleViolation — never another error."""
    import random

    bot = random.Random(11)
    values: list[Any] = [None, True, 0, -1, 2, 99, 2.5, "", "C3", "D4", "E5", "G3", "Z0", "deck"]
    values += ["discard", "athens", "owl", [], ["E5"], ["elis", "pylos"], {}, {"owl": 1}]
    values += [[{"space": "E5", "phalanxes": 1}], [{"space": "G3", "phalanxes": 4, "king": True}]]
    fields = ["space", "source", "second_source", "link_from", "keep", "discard_order", "origin"]
    fields += ["destinations", "battle_order", "phalanxes", "coins", "blanks"]
    events = new_game({"factions": ["athens", "sparta"]}, "garbage")
    states = [fold(events), state_of(players=PLAYERS, board=BOARD, discard=["pylos"])]
    # ... and positions from a whole game: every phase a player can be asked in, and the end.
    from games.engine.simulation import play_random_game

    played, _ = play_random_game(["athens", "sparta", "corinth"], "garbage", bot_seed=2, check=False)
    prefixes = (fold(played[:cut]) for cut in range(2, len(played) + 1, 3))
    states += [s for s in prefixes if s.phase in ("actions", "choice", "winter_orders")] + [fold(played)]
    assert {s.phase for s in states} >= {"actions", "winter_orders", "ended"}
    for _ in range(800):
        raw: dict[str, Any] = {"kind": bot.choice([*sorted(COMMAND_TYPES), "x"])}
        raw["player"] = bot.choice(["athens", "sparta", "thebes", 5])
        for name in bot.sample(fields, bot.randint(0, 4)):
            raw[name] = bot.choice(values)
        state = bot.choice(states)
        before = state.to_dict()
        try:
            decide(state, command_from_dict(raw), GameRng("garbage", 1))
        except RuleViolation as error:
            assert error.rule and error.message
        assert state.to_dict() == before
