"""Taking back the last order, and sealing a winter order again, as examples.

Rules: H-TAKEBACK (the last order of the game taken back while it drew and revealed nothing; a
sealed winter order sealed again until the reveal), H-RULES-VERSION (both from rules version 3 on).
Every order kind is here, allowed or refused with the reason the player reads.
"""

from __future__ import annotations

import json

import pytest

from games.engine import (
    ORDER_TAKEN_BACK,
    AcceptOffer,
    Bundle,
    ChooseTile,
    Command,
    CommitCoins,
    DeclineOffer,
    Destination,
    Event,
    Expand,
    Fortify,
    GameState,
    Move,
    NeutralTrade,
    OfferTrade,
    Oracle,
    Pass,
    Recruit,
    RecruitBuilder,
    Reform,
    RuleViolation,
    decide_recorded_with_state,
    decide_take_back,
    event_view,
    fold,
    fold_from,
    opening_recorded,
    why_it_would_stand,
)
from games.engine.winter import order_commitment

from .support import refused, state_of

BOARD = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "D3": {"tile": "tegea", "owner": "athens", "phalanxes": 2},
    "E3": {"tile": "delos"},  # neutral, linked to D3: a neutral trade
    "D5": {"tile": "elis", "owner": "sparta"},  # Sparta's, empty: taken without a battle
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    "F4": {"tile": "pylos", "owner": "sparta", "phalanxes": 2},
}


def game(**spec: object) -> GameState:
    """Athens on turn, with enough of everything for any order; Sparta next."""
    players = {
        "athens": {"ap": 6, "fp": 6, "blanks": 1, "coins_behind_screen": {"owl": 2}},
        "sparta": {"ap": 6, "fp": 6, "coins_behind_screen": {"turtle": 1}},
    }
    defaults: dict[str, object] = {"players": players, "board": BOARD, "trade_links": [["D3", "E3"]]}
    return state_of(**{**defaults, **spec})


def given(state: GameState, command: Command, by: str = "player") -> tuple[list[Event], GameState]:
    """The order's batch as stored (through JSON, as the log keeps it) and the state after it."""
    events, after = decide_recorded_with_state(state, command, "example", state.events_applied + 1, by)
    return [Event(e.type, json.loads(json.dumps(e.payload))) for e in events], after


def taken_back(state: GameState, command: Command) -> tuple[Event, GameState]:
    """`command` given on `state` and taken back at once by its player: the take-back and the state."""
    batch, after = given(state, command)
    event = decide_take_back(state, after, batch, state.events_applied + 1, command.player)
    stored = Event(event.type, json.loads(json.dumps(event.payload)))
    return event, fold_from(after.copy(), [stored])


def assert_as_before(before: GameState, back: GameState) -> None:
    """H-TAKEBACK: exactly the state before the order; only the count of events folded grew."""
    old, new = before.to_dict(), back.to_dict()
    assert new.pop("events_applied") > old.pop("events_applied")
    assert new == old


def stands(state: GameState, command: Command, player: str | None = None) -> str:
    """The order is given, and taking it back is refused (H-TAKEBACK) with the reason returned."""
    batch, after = given(state, command)
    with pytest.raises(RuleViolation) as caught:
        decide_take_back(state, after, batch, state.events_applied + 1, player or command.player)
    assert caught.value.rule == "H-TAKEBACK"
    return caught.value.message_template


ALLOWED = {
    "pass": Pass("athens"),
    "recruit": Recruit("athens", space="C3", phalanxes=2, blanks=1),
    "fortify": Fortify("athens", space="D3"),
    "reform": Reform("athens", government="tyranny"),
    "move_own": Move("athens", origin="C3", destinations=(Destination("D3", phalanxes=2),)),
    "move_empty_neutral_polis": Move("athens", origin="D3", destinations=(Destination("E3", phalanxes=1),)),
    "move_empty_rival_polis": Move("athens", origin="D3", destinations=(Destination("D5", phalanxes=1),)),
    "neutral_trade": NeutralTrade("athens"),
    "offer_trade": OfferTrade("athens", to="sparta", give=Bundle(coins=(("owl", 1),)), take=Bundle(ap=1)),
    "expand_from_the_discard_pile": Expand("athens", space="B3", source="discard"),
}


@pytest.mark.parametrize("kind", sorted(ALLOWED))
def test_h_takeback_an_order_that_drew_nothing_is_taken_back_to_the_state_before_it(kind: str) -> None:
    state = game(discard=["kos"])  # kos: no treasure, so founding it draws no coin
    event, back = taken_back(state, ALLOWED[kind])
    assert event.type == ORDER_TAKEN_BACK and event.payload["player"] == "athens"
    assert event.payload["order_seq"] == state.events_applied + 1
    assert_as_before(state, back)
    assert back.player_on_turn == "athens"


def test_h_takeback_corinths_builder_is_taken_back() -> None:
    state = state_of(
        players={"corinth": {"ap": 1}, "sparta": {}},
        board={"C7": {"owner": "corinth", "phalanxes": 4, "king": True}, "G3": {"owner": "sparta"}},
    )
    _, back = taken_back(state, RecruitBuilder("corinth"))
    assert_as_before(state, back)


def test_h_takeback_a_tile_choice_from_the_discard_pile_is_taken_back() -> None:
    batch, choosing = given(game(discard=["kos", "thera"]), Expand("athens", "B3", "discard", "discard"))
    _, back = taken_back(choosing, ChooseTile("athens", keep="thera"))
    assert_as_before(choosing, back)
    assert back.phase == "choice" and back.pending_choice is not None


def test_h_takeback_the_last_action_of_a_year_is_taken_back_across_the_winter() -> None:
    # 431's winter is not scored and 430 pays no income: the year turns without a draw.
    state = game(action_round=3, on_turn="sparta")
    batch, after = given(state, Pass("sparta"))
    assert after.year == 430 and [e for e in batch if e.type == "YearBegan"]
    _, back = taken_back(state, Pass("sparta"))
    assert_as_before(state, back)
    assert (back.year, back.action_round, back.player_on_turn) == (431, 3, "sparta")


def test_h_takeback_a_battle_stands_dice_were_rolled() -> None:
    attack = Move("athens", origin="D3", destinations=(Destination("F4", phalanxes=2),))
    assert stands(game(), attack) == "Dice were rolled: the order stands."


def test_h_takeback_an_expansion_from_the_deck_stands_a_tile_was_drawn() -> None:
    reason = stands(game(deck=["kos", "thera"]), Expand("athens", space="B3"))
    assert reason == "A tile was drawn from the deck: the order stands."


def test_h_takeback_a_tile_with_treasure_from_the_discard_pile_stands_coins_were_drawn() -> None:
    reason = stands(game(discard=["delos"]), Expand("athens", space="B3", source="discard"))
    assert reason == "Coins were drawn from the bag: the order stands."


def test_h_takeback_an_oracle_stands_a_card_was_drawn() -> None:
    assert stands(game(), Oracle("athens", coin="owl")) == "A Mission Card was drawn: the order stands."


def test_h_takeback_an_answer_to_a_trade_offer_stands() -> None:
    offer = OfferTrade("athens", to="sparta", give=Bundle(ap=1), take=Bundle(fp=1))
    _, made = given(game(), offer)
    for answer in (AcceptOffer("sparta", offer=1), DeclineOffer("sparta", offer=1)):
        assert stands(made, answer) == "An answer to a trade offer stands: the other side has it."


def test_h_takeback_a_sealed_winter_order_is_sealed_again_instead() -> None:
    winter = game(phase="winter_orders", year=430)
    reason = stands(winter, CommitCoins("athens", coins=(("owl", 1),)))
    assert reason == "A sealed winter order is not taken back: seal it again until the reveal."


def test_h_takeback_an_order_that_claims_a_mission_card_stands() -> None:
    # The third Fortification meets the objective card, claimed (shown) at the end of the turn.
    board = {**BOARD, "D3": {**BOARD["D3"], "fortification_hp": [3, 3]}}
    players = {"athens": {"ap": 6, "mission_cards": ["objective-fortifications-1"]}, "sparta": {}}
    reason = stands(game(players=players, board=board), Fortify("athens", space="D3"))
    assert reason == "A Mission Card was revealed: the order stands."


def test_h_takeback_only_by_the_player_who_gave_the_last_order() -> None:
    assert stands(game(), Pass("athens"), player="sparta") == (
        "The game has moved on: only the last order of the game can be taken back."
    )


def test_h_takeback_a_default_order_after_a_deadline_stands() -> None:
    state = game()
    batch, after = given(state, Pass("athens"), by="system")
    with pytest.raises(RuleViolation, match="on your behalf"):
        decide_take_back(state, after, batch, state.events_applied + 1, "athens")


def test_h_takeback_once_only() -> None:
    state = game()
    batch, after = given(state, Pass("athens"))
    event = decide_take_back(state, after, batch, state.events_applied + 1, "athens")
    with pytest.raises(RuleViolation, match="taken back already"):
        decide_take_back(state, fold_from(after.copy(), [event]), [*batch, event], 1, "athens")


def test_h_takeback_not_under_rules_version_2() -> None:
    state = game(rules_version=2)
    events, after = decide_recorded_with_state(state, Pass("athens"), "example", 1, rules_version=2)
    with pytest.raises(RuleViolation, match="without take-backs"):
        decide_take_back(state, after, events, 1, "athens")


def test_h_takeback_the_fields_put_back_are_shown_to_nobody() -> None:
    event, _ = taken_back(game(), Recruit("athens", space="C3", phalanxes=1))
    for viewer in ("athens", "sparta", None):
        shown = event_view(event, viewer)["payload"]
        assert "restore" not in shown and shown["kind"] == "recruit" and shown["player"] == "athens"


# --- a sealed winter order, sealed again -----------------------------------------------------------


def winter(**spec: object) -> GameState:
    players = {
        "athens": {"coins_behind_screen": {"owl": 2, "turtle": 1}},
        "sparta": {"coins_behind_screen": {"turtle": 1}},
        "thebes": {},
    }
    return state_of(players=players, board=BOARD, phase="winter_orders", year=430, **spec)


def test_h_takeback_a_sealed_winter_order_is_sealed_again_and_the_last_one_counts() -> None:
    first, sealed = given(winter(), CommitCoins("athens", coins=(("owl", 2),)))
    old = next(e for e in first if e.type == "WinterOrderSealed").payload
    again, resealed = given(sealed, CommitCoins("athens", coins=(("turtle", 1),)))
    new = next(e for e in again if e.type == "WinterOrderSealed").payload
    assert new["supersedes"] == old["commitment"] != new["commitment"]
    assert resealed.winter_orders["athens"]["coins"] == {"turtle": 1}
    assert new["commitment"] == order_commitment(
        {"coins": {"turtle": 1}, "blanks": 0, "mission_card": None, "card_coins": {}, "card_blanks": 0},
        new["salt"],
    )
    _, on = given(resealed, CommitCoins("sparta"))
    batch, _ = given(on, CommitCoins("thebes"))
    revealed = next(e for e in batch if e.type == "WinterOrdersRevealed").payload
    assert revealed["orders"]["athens"]["coins"] == {"turtle": 1}  # only the last seal counted


def test_h_takeback_others_see_that_an_order_was_sealed_again_never_what() -> None:
    _, sealed = given(winter(), CommitCoins("athens", coins=(("owl", 2),)))
    again, _ = given(sealed, CommitCoins("athens", coins=(("turtle", 1),)))
    event = next(e for e in again if e.type == "WinterOrderSealed")
    shown = event_view(event, "sparta")["payload"]
    assert set(shown) == {"player", "order", "commitment", "supersedes"}
    assert "turtle" not in json.dumps(event_view(again[0], "sparta"))


def test_h_takeback_no_second_seal_under_rules_version_2() -> None:
    state = winter(rules_version=2, winter_orders={"athens": {"coins": {}, "blanks": 0}})
    refused(state, CommitCoins("athens"), "H-WINTER-ORDERS")


def test_h_takeback_no_second_seal_after_the_reveal() -> None:
    _, sealed = given(winter(), CommitCoins("athens"))
    _, on = given(sealed, CommitCoins("sparta"))
    _, revealed = given(on, CommitCoins("thebes"))
    assert revealed.phase != "winter_orders"
    with pytest.raises(RuleViolation):
        given(revealed, CommitCoins("athens"))


def test_h_takeback_the_fold_of_a_log_with_a_taken_back_batch_is_the_state_before_it() -> None:
    opening = opening_recorded({"factions": ["athens", "sparta", "thebes"]}, "fold-example")
    before = fold(opening)
    player = before.player_on_turn
    assert player is not None
    batch, after = given(before, Recruit(player, space=_native(before, player)))
    back = decide_take_back(before, after, batch, len(opening) + 1, player)
    assert_as_before(fold(opening), fold([*opening, *batch, back]))


def _native(state: GameState, faction: str) -> str:
    return next(s for s, p in state.board.items() if p.owner == faction and p.king)


def warned(state: GameState, command: Command) -> str | None:
    """What a preview says before the order (its batch decided with a seed that is not the game's)."""
    events, _ = decide_recorded_with_state(state, command, "a preview's seed", state.events_applied + 1)
    warning = why_it_would_stand(events)
    return None if warning is None else warning.message_template


def test_h_takeback_a_preview_warns_before_an_order_that_will_stand_and_agrees_with_the_refusal() -> None:
    """Said before the tap that cannot be undone: each order that draws or reveals is warned about
    in the future tense, for the same reason its take-back would be refused; an order that can be
    taken back, and a sealed winter order (sealed again instead), are not."""
    attack = Move("athens", origin="D3", destinations=(Destination("F4", phalanxes=2),))
    cases = [
        (game(), attack, "Once given, it cannot be taken back: dice are rolled."),
        (game(deck=["kos", "thera"]), Expand("athens", space="B3"), "a tile is drawn from the deck."),
        (
            game(discard=["delos"]),
            Expand("athens", space="B3", source="discard"),
            "coins are drawn from the bag.",
        ),
        (game(), Oracle("athens", coin="owl"), "a Mission Card is drawn."),
    ]
    for state, command, warning in cases:
        assert (warned(state, command) or "").endswith(warning), command
        assert stands(state, command)  # and, once given, its take-back is refused
    offer = OfferTrade("athens", to="sparta", give=Bundle(ap=1), take=Bundle(fp=1))
    _, made = given(game(), offer)
    assert warned(made, AcceptOffer("sparta", offer=1)) == (
        "Once given, it cannot be taken back: the other side has your answer."
    )
    for kind, command in ALLOWED.items():
        assert warned(game(discard=["kos"]), command) is None, kind
    assert warned(game(phase="winter_orders", year=430), CommitCoins("athens", coins=(("owl", 1),))) is None
