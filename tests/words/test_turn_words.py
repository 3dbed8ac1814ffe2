"""What a turn did, in the words a player reads: the government's bonus told apart from the income
(H-GOV), a Navigator hired with a Recruit (H-HEROES), the Mission Card a sealed winter order redeems
(H-MISSIONS, H-WINTER-ORDERS) and why a card scored 0 VP (S-BLANK, H-MISSIONS)."""

from __future__ import annotations

from django.utils import translation

from games.words.narration import describe

INCOME = {
    "player": "athens",
    "ap": 3,
    "fp": 2,
    "coins": {"owl": 2},
    "government": "tyranny",
    "bonus": {"ap": 1, "fp": 0, "blanks": 0},
}


def test_h_gov_income_tells_the_governments_bonus_apart() -> None:
    assert describe("IncomeReceived", INCOME, "athens", game=None) == (
        "You received 3 AP, 2 FP and 2 owls. +1 AP for Tyranny."
    )
    democracy = {**INCOME, "government": "democracy", "bonus": {"ap": 0, "fp": 0, "blanks": 1}}
    told = describe("IncomeReceived", democracy, "sparta", game=None)
    assert told == "Athens received 3 AP, 2 FP and coins behind their screen. +1 Blank for Democracy."
    with translation.override("de"):
        assert describe("IncomeReceived", INCOME, "athens", game=None).endswith("+1 AP für die Tyrannis.")
    old = {k: v for k, v in INCOME.items() if k not in ("bonus", "government")}  # before the bonus
    assert describe("IncomeReceived", old, "athens", game=None) == "You received 3 AP, 2 FP and 2 owls."


def test_h_heroes_a_recruit_that_hires_a_navigator_says_so() -> None:
    both = {"player": "athens", "space": "C3", "phalanxes": 2, "navigators": 1, "ap": 4, "blanks": 0}
    assert describe("PhalanxesRecruited", both, None, game=None) == (
        "Athens recruited 2 phalanxes in C3. Athens hired 1 Navigator in C3."
    )
    alone = {**both, "phalanxes": 0}
    assert describe("PhalanxesRecruited", alone, None, game=None) == "Athens hired 1 Navigator in C3."
    with translation.override("de"):
        assert describe("PhalanxesRecruited", alone, None, game=None) == (
            "Athen hat 1 Navigator in C3 angeheuert."
        )


SEALED = {
    "player": "thebes",
    "coins": {"owl": 1},
    "blanks": 0,
    "mission_card": "combo-1",
    "card_coins": {"owl": 1, "shield": 1},
    "card_blanks": 1,
    "salt": "ab",
    "commitment": "cd",
}


def test_h_missions_the_sealed_confirmation_names_the_card_redeemed_to_its_sealer_only() -> None:
    told = describe("WinterOrderSealed", SEALED, "thebes", game=None)
    assert told == (
        "You sealed your winter order: 1 owl and no Blanks."
        " Mission Card redeemed: Combo, with 1 owl, 1 shield, 1 Blank."
    )
    # H-WINTER-ORDERS: another player reads that an order was sealed, not its card.
    told_others = describe("WinterOrderSealed", SEALED, "athens", game=None)
    assert told_others == "Thebes submitted a sealed winter order."


def test_h_missions_a_card_that_scores_0_vp_says_why() -> None:
    multiplier = {"player": "thebes", "card": "coin-multiplier-1", "kind": "coin_multiplier", "vp": 0}
    assert describe("MissionCardRedeemed", {**multiplier, "coins": {}, "blanks": 0}, None, game=None) == (
        "Thebes scored the Mission Card Coin multiplier: 0 VP."
        " Its worth is in the Coin ranking: the committed coins counted double."
    )
    extra = {"player": "sparta", "card": "extra-scoring-1", "kind": "extra_scoring", "vp": 0}
    assert describe("MissionCardRedeemed", {**extra, "coins": {}, "blanks": 0}, None, game=None).endswith(
        "It pays the Poleis ranking's VP once more, and Sparta scored none there."
    )
    second = {"player": "athens", "card": "second-coin-scoring-1", "kind": "second_coin_scoring", "vp": 0}
    with translation.override("de"):
        told = describe("MissionCardRedeemed", {**second, "coins": {}, "blanks": 0}, None, game=None)
    assert told.endswith("Ihr Wert ist die zweite Münz-Wertung, die folgt.")
    scored = {"player": "thebes", "card": "combo-1", "kind": "combo", "vp": 3, "coins": {}, "blanks": 1}
    assert describe("MissionCardRedeemed", scored, None, game=None).endswith(": 3 VP.")
