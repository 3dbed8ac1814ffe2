"""The record around every order and the draws (H-END: provably fair), sealed-order commitments
(H-WINTER-ORDERS) and the one redaction of the log (H-SCREEN), in the engine alone."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from collections.abc import Callable

from games.engine import (
    RULES_VERSION,
    Event,
    GameRng,
    Pass,
    decide_recorded,
    decide_recorded_with_state,
    event_view,
    fold,
    fold_from,
    new_game,
    opening_recorded,
)
from games.engine.commands import Command, CommitCoins
from games.engine.simulation import players_to_act, random_legal_command
from games.engine.state import GameState
from games.engine.winter import order_commitment

SEED = "a fixed seed for the record tests"


def test_h_end_every_draw_is_written_down_with_its_bound_and_value():
    rng = GameRng(SEED, 42)
    dice = rng.dice(3)
    rng.choice(["a", "b", "c"], "tile")
    assert [(label, n) for label, n, _ in rng.transcript] == [("die", 6)] * 3 + [("tile", 3)]
    assert [value + 1 for _, _, value in rng.transcript[:3]] == dice


def test_h_end_a_draw_is_recomputable_from_the_seed_with_hmac_sha256():
    rng = GameRng(SEED, 7)
    value = rng.randbelow(1000)
    counter = 0
    while True:
        digest = hmac.new(SEED.encode(), f"7:{counter}".encode(), hashlib.sha256).digest()
        u = int.from_bytes(digest[:8], "big")
        counter += 1
        if u < (1 << 64) - ((1 << 64) % 1000):
            break
    assert value == u % 1000


def test_h_end_the_opening_ends_with_its_draws_at_position_0():
    opening = opening_recorded({"factions": ["athens", "sparta"]}, SEED)
    assert opening[:-1] == new_game({"factions": ["athens", "sparta"]}, SEED)
    drawn = opening[-1]
    assert drawn.type == "RandomnessDrawn" and drawn.payload["position"] == 0
    assert {label for label, _n, _v in drawn.payload["draws"]} >= {"seat", "tile", "coin", "card"}
    assert fold(opening).to_dict() | {"events_applied": 0} == fold(opening[:-1]).to_dict() | {
        "events_applied": 0
    }


def test_h_end_an_order_is_recorded_first_and_its_draws_last():
    opening = opening_recorded({"factions": ["athens", "sparta"]}, SEED)
    state = fold(opening)
    batch = decide_recorded(state, Pass(state.player_on_turn), SEED, position=len(opening) + 1)
    assert batch[0] == Event(
        "OrderGiven",
        {
            "player": state.player_on_turn,
            "command": {"kind": "pass", "player": state.player_on_turn},
            "by": "player",
            "rules_version": RULES_VERSION,  # H-RULES-VERSION: the rules that decide it
        },
    )
    assert batch[-1].type == "RandomnessDrawn" and batch[-1].payload["position"] == len(opening) + 1
    before = state.to_dict()
    after = fold_from(state.copy(), batch).to_dict()
    assert before["players"] != after["players"] or before["turn_index"] != after["turn_index"]


Order = Callable[[GameState, Command, int], tuple[list[Event], GameState]]


def _played(factions: list[str], bot_seed: int, order: Order) -> tuple[GameState, int]:
    """A whole engine-only game by a seeded bot, each order given through `order(state, command,
    head seq) -> (batch, state after)`: the state at the end and the number of orders."""
    bot = random.Random(bot_seed)
    events = opening_recorded({"factions": factions}, SEED)
    state, seq, orders = fold(events), len(events), 0
    while waiting := players_to_act(state):
        command = random_legal_command(state, bot.choice(waiting), bot)
        batch, state = order(state, command, seq)
        seq, orders = seq + len(batch), orders + 1
    return state, orders


def test_h_end_the_state_decided_with_a_batch_is_the_batch_folded_onto_the_state_before():
    """The service takes the state after an order from decide, which folds as it decides, instead
    of folding the batch again: over whole games (4 and 2 players, to their end, where "GameEnded"
    reveals the seed) it must be exactly what folding the stored batch gives."""

    def order(state: GameState, command: Command, seq: int) -> tuple[list[Event], GameState]:
        before = state.to_dict()
        batch, after = decide_recorded_with_state(state, command, SEED, position=seq + 1)
        assert state.to_dict() == before  # the state decided on is left as it was
        assert batch == decide_recorded(state, command, SEED, position=seq + 1)
        assert after.to_dict() == fold_from(state.copy(), batch).to_dict()
        return batch, after

    for factions, bot_seed in ((["athens", "sparta", "corinth", "thebes"], 11), (["athens", "sparta"], 5)):
        end, orders = _played(factions, bot_seed, order)
        assert end.phase == "ended" and end.revealed_seed == SEED and orders > 50


def test_h_end_a_copy_the_caller_gives_up_is_folded_onto_with_the_same_outcome():
    """The service hands decide a second copy of the state from its cache (`scratch`) instead of
    letting it copy the state: the batch and the state after must be exactly those without it."""
    onto_scratch = []

    def order(state: GameState, command: Command, seq: int) -> tuple[list[Event], GameState]:
        before, scratch = state.to_dict(), state.copy()
        batch, after = decide_recorded_with_state(state, command, SEED, position=seq + 1)
        given, after_given = decide_recorded_with_state(
            state, command, SEED, position=seq + 1, scratch=scratch
        )
        assert given == batch and after_given.to_dict() == after.to_dict()
        assert state.to_dict() == before  # the state decided on is left as it was
        onto_scratch.append(after_given is scratch)  # not at the end: "GameEnded" folds the stored batch
        return batch, after

    end, orders = _played(["athens", "sparta", "corinth"], 8, order)
    assert end.phase == "ended" and sum(onto_scratch) == orders - 1


def _to_winter(seed: str) -> tuple[GameState, int]:
    """Bots play an engine-only game up to the first sealed winter orders."""
    bot = random.Random(3)
    events = opening_recorded({"factions": ["athens", "sparta"]}, seed)
    state = fold(events)
    seq = len(events)
    while state.phase != "winter_orders":
        faction = bot.choice(players_to_act(state))
        batch = decide_recorded(state, random_legal_command(state, faction, bot), seed, position=seq + 1)
        fold_from(state, batch)
        seq += len(batch)
    return state, seq


def test_h_winter_orders_a_sealed_order_carries_a_salted_commitment_and_the_reveal_its_salt():
    state, seq = _to_winter(SEED)
    first, second = state.seat_order
    sealed_batch = decide_recorded(state, CommitCoins(first), SEED, position=seq + 1)
    (sealed,) = [e for e in sealed_batch if e.type == "WinterOrderSealed"]
    salt = sealed.payload["salt"]
    assert len(salt) == 32
    salt_draws = [v for label, _n, v in sealed_batch[-1].payload["draws"] if label == "salt"]
    assert salt == "".join(f"{v:016x}" for v in salt_draws)
    order = {k: sealed.payload[k] for k in ("coins", "blanks", "mission_card", "card_coins", "card_blanks")}
    text = json.dumps(
        {"order": order, "salt": salt}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert (
        sealed.payload["commitment"]
        == hashlib.sha256(text.encode()).hexdigest()
        == order_commitment(order, salt)
    )

    fold_from(state, sealed_batch)
    seq += len(sealed_batch)
    reveal_batch = decide_recorded(state, CommitCoins(second), SEED, position=seq + 1)
    (revealed,) = [e for e in reveal_batch if e.type == "WinterOrdersRevealed"]
    assert revealed.payload["salts"][first] == salt
    assert order_commitment(revealed.payload["orders"][first], salt) == sealed.payload["commitment"]


def test_h_winter_orders_others_see_only_the_commitment_until_the_end():
    sealed = Event(
        "WinterOrderSealed",
        {"player": "athens", "coins": {"owl": 2}, "blanks": 0, "salt": "ab" * 16, "commitment": "c0"},
    )
    assert event_view(sealed, "sparta")["payload"] == {
        "player": "athens",
        "order": "submitted",
        "commitment": "c0",
    }
    assert event_view(sealed, None)["payload"]["order"] == "submitted"
    assert event_view(sealed, "athens")["payload"]["salt"] == "ab" * 16
    assert event_view(sealed, "sparta", game_over=True)["payload"]["coins"] == {"owl": 2}


def test_h_screen_an_order_shows_others_only_its_kind():
    given = Event(
        "OrderGiven",
        {
            "player": "athens",
            "command": {"kind": "oracle", "player": "athens", "coin": "owl"},
            "by": "player",
            "rules_version": RULES_VERSION,  # H-RULES-VERSION: the rules that decide it
        },
    )
    assert event_view(given, "sparta")["payload"]["command"] == {"kind": "oracle", "player": "athens"}
    assert event_view(given, "athens")["payload"]["command"]["coin"] == "owl"
    assert event_view(given, None, game_over=True)["payload"]["command"]["coin"] == "owl"


def test_h_screen_the_draws_are_hidden_from_everyone_until_the_end():
    drawn = Event("RandomnessDrawn", {"position": 9, "draws": [["coin", 40, 3]]})
    for viewer in ("athens", "sparta", None):
        assert event_view(drawn, viewer)["payload"] == {"position": 9, "draws": "hidden"}
    assert event_view(drawn, "sparta", game_over=True)["payload"]["draws"] == [["coin", 40, 3]]


def test_h_screen_a_private_message_shows_nothing_to_a_third_player():
    message = Event("MessageSent", {"player": "athens", "to": ["sparta"], "text": "meet at E3"})
    assert event_view(message, "sparta")["payload"]["text"] == "meet at E3"
    shown = event_view(message, "corinth")["payload"]
    assert shown["private"] and "E3" not in json.dumps(shown) and shown["player"] == "hidden"


def test_h_screen_a_scenarios_screens_are_seen_as_each_player_may():
    opening = opening_recorded({"factions": ["athens", "sparta"]}, SEED)
    state = fold(opening)
    state.players["athens"].coins_behind_screen = {"owl": 3}
    loaded = Event("ScenarioLoaded", {"state": state.to_dict()})
    assert (
        event_view(loaded, "sparta")["payload"]["state"]["players"]["athens"]["coins_behind_screen"]
        == "hidden"
    )
    assert event_view(loaded, "athens")["payload"]["state"]["players"]["athens"]["coins_behind_screen"] == {
        "owl": 3
    }
