"""Events in plain words (docs/order-loop.md): every event type is told, hidden things stay hidden."""

from __future__ import annotations

from django.utils import translation

from games.engine import CommitCoins, Destination, Move, Recruit
from games.engine.fold import APPLIERS
from games.words.narration import TELLERS, describe
from games.words.orders import command_label


def test_every_engine_event_type_is_told_in_plain_words():
    assert sorted(set(APPLIERS) - set(TELLERS)) == []


def test_h_screen_income_shows_coins_only_to_their_owner():
    income = {"player": "athens", "year": 431, "ap": 1, "fp": 3, "coins": {"owl": 2}, "owed": 2}
    assert describe("IncomeReceived", income, "athens", game=None) == "You received 1 AP, 3 FP and 2 owls."
    told_to_sparta = describe("IncomeReceived", income, "sparta", game=None)
    assert told_to_sparta == "Athens received 1 AP, 3 FP and coins behind their screen."
    assert "owl" not in describe("IncomeReceived", income, None, game=None)


THEBES_INCOME = {
    "player": "thebes",
    "year": 429,
    "ap": 1,
    "fp": 1,
    "coins": {"owl": 1, "shield": 1},
    "owed": 2,
    "economy": {"coins": {"turtle": 1}, "owed": 1},
}


def test_s_inc_thebes_extra_coin_is_told_as_thebes_economy_not_as_its_polis_paying_more():
    """Finding: the narration told Thebes' bonus coin as part of what its Poleis paid (S-INC: a Polis
    pays its print). Now the Poleis' coins are told, then "Thebes' economy: +1 coin" apart."""
    own = describe("IncomeReceived", THEBES_INCOME, "thebes", game=None)
    assert own == "You received 1 AP, 1 FP and 1 owl, 1 shield. Thebes' economy: +1 turtle."
    hidden = {**THEBES_INCOME, "coins": "hidden", "economy": {"coins": "hidden", "owed": 1}}
    told = describe("IncomeReceived", hidden, "sparta", game=None)
    assert told == "Thebes received 1 AP, 1 FP and coins behind their screen. Thebes' economy: +1 coin."
    with translation.override("de"):
        german = describe("IncomeReceived", hidden, "sparta", game=None)
        assert german.endswith("Thebens Wirtschaft: +1 Münze.")
        assert describe("IncomeReceived", THEBES_INCOME, "thebes", game=None).endswith(
            "Thebens Wirtschaft: +1 Schildkröte."
        )


def test_h_missions_a_mints_card_claimed_under_version_2_is_told_as_the_card_it_counts_as():
    claimed = {
        "player": "athens",
        "card": "objective-mints-1",
        "counts_as": "objective-fortifications-1",
        "kind": "fortifications",
        "vp": 3,
        "progress": 3,
    }
    told = describe("MissionCardClaimed", claimed, None, game=None)
    assert told == "Athens scored the Mission Card Objective: 3 Fortifications: 3 VP."
    with translation.override("de"):
        assert "Ziel: 3 Festungsanlagen" in describe("MissionCardClaimed", claimed, None, game=None)
    old = {k: v for k, v in claimed.items() if k != "counts_as"} | {"kind": "mints"}  # a version 1 claim
    assert "Objective: 3 Mints" in describe("MissionCardClaimed", old, None, game=None)


def test_h_missions_a_hand_names_a_replaced_card_as_it_counts_now_in_both_languages():
    from games.words.trade import held_card_words

    assert held_card_words("objective-mints-1", 1) == "Objective: 3 Mints"
    now = held_card_words("objective-mints-1", 2)
    assert now == "Objective: 3 Fortifications (this card was Objective: 3 Mints until rules version 2)"
    with translation.override("de"):
        german = held_card_words("objective-mints-1", 2)
    assert (
        german == "Ziel: 3 Festungsanlagen (diese Karte war bis zur Regelversion 2 Ziel: 3 Münzprägestätten)"
    )


def test_h_winter_orders_sealed_order_shows_its_coins_only_to_its_owner():
    sealed = {"player": "sparta", "coins": {"turtle": 1}, "blanks": 0}
    assert (
        describe("WinterOrderSealed", sealed, "sparta", game=None)
        == "You sealed your winter order: 1 turtle and no Blanks."
    )
    nothing = {"player": "sparta", "coins": {}, "blanks": 0}
    with translation.override("de"):
        told = describe("WinterOrderSealed", nothing, "sparta", game=None)
    assert told.endswith("keine Münzen und keine Leermünzen.")
    assert (
        describe("WinterOrderSealed", sealed, "athens", game=None)
        == "Sparta submitted a sealed winter order."
    )


def test_s_loot_treasure_taken_is_told_only_to_the_conqueror():
    conquered = {"player": "sparta", "space": "E3", "loot": {"owl": 1}, "kings_killed": []}
    assert (
        describe("PolisConquered", conquered, "sparta", game=None)
        == "You conquered E3 and took its treasure: 1 owl."
    )
    assert describe("PolisConquered", conquered, "athens", game=None) == "Sparta conquered E3."


def test_h_heroes_a_fallen_king_and_the_killers_vp_are_told():
    battle = {
        "attacker": "athens",
        "defender": "sparta",
        "space": "G3",
        "winner": "defender",
        "attacker_losses": 4,
        "defender_losses": 1,
        "kings_killed": [{"faction": "athens", "killer": "sparta", "vp": 2}],
    }
    assert describe("BattleFought", battle, None, game=None) == (
        "Battle at G3: Athens attacked Sparta and Sparta won (losses: attacker 4, defender 1). "
        "The King of Athens fell; Sparta gains 2 VP."
    )


def test_orders_are_labelled_in_plain_words():
    move = Move("athens", origin="C3", destinations=(Destination("E3", phalanxes=2, king=True),))
    assert command_label(move) == "Move from C3 to E3 (2 phalanxes, the King)"
    assert command_label(Recruit("sparta", space="G3", phalanxes=1)) == "Recruit 1 phalanx in G3"


def test_h_missions_cards_are_named_only_to_their_holder():
    dealt = {"player": "thebes", "cards": ["monopoly-owl", "flush", "combo"]}
    assert describe("MissionCardsDealt", dealt, "thebes", game=None) == (
        "You were dealt the Mission Cards monopoly-owl, flush, combo."
    )
    assert describe("MissionCardsDealt", dealt, "sparta", game=None) == "Thebes was dealt 3 Mission Cards."
    drawn = {"player": "thebes", "card": "flush", "coin": "owl"}
    assert "flush" in describe("MissionCardDrawn", drawn, "thebes", game=None)
    told = describe("MissionCardDrawn", drawn, "athens", game=None)
    assert told == "Thebes consulted the Oracle and drew a Mission Card."


def test_h_trade_offer_terms_stay_with_the_two_sides():
    offer = {"player": "athens", "to": "sparta", "offer": 4, "give": {"coins": {"owl": 2}}, "take": {"fp": 1}}
    told = describe("OfferMade", offer, "corinth", game=None)
    assert told == "Athens made Sparta a trade offer (no. 4)."
    assert "owl" not in told


def test_an_event_whose_payload_outgrew_its_words_is_still_told():
    assert describe("PlayerPassed", {"who": "athens"}, None, game=None) == "PlayerPassed happened."


def test_h_missions_cards_are_told_by_name_in_the_readers_language() -> None:
    from django.utils import translation

    dealt = {"player": "thebes", "cards": ["combo-1", "monopoly-ap-2"]}
    scored = {"player": "thebes", "card": "objective-poleis-1", "kind": "poleis", "vp": 3}
    order = CommitCoins("thebes", coins=(("owl", 1),), mission_cards=("combo-1",), card_blanks=3)
    with translation.override("en"):
        assert describe("MissionCardsDealt", dealt, "thebes", game=None) == (
            "You were dealt the Mission Cards Combo, Monopoly of AP."
        )
        assert describe("MissionCardClaimed", scored, "athens", game=None) == (
            "Thebes scored the Mission Card Objective: 6 Poleis: 3 VP."
        )
        assert ", redeeming Combo with 3 Blanks" in command_label(order)
    with translation.override("de"):
        assert describe("MissionCardsDealt", dealt, "thebes", game=None) == (
            "Du hast die Auftragskarten Münzkombo, Monopol auf AP erhalten."
        )
        assert "Ziel: 6 Poleis" in describe("MissionCardClaimed", scored, "athens", game=None)
        assert "Münzkombo" in command_label(order) and "combo-1" not in command_label(order)


def test_s_reinf_one_phalanx_is_told_in_the_singular_in_both_languages() -> None:
    from django.utils import translation

    one = {"player": "sparta", "space": "G3", "phalanxes": 1}
    two = {"player": "sparta", "space": "G3", "phalanxes": 2}
    with translation.override("en"):
        assert describe("PhalanxesRecruited", one, "athens", game=None) == "Sparta recruited 1 phalanx in G3."
        assert (
            describe("PhalanxesRecruited", two, "athens", game=None) == "Sparta recruited 2 phalanxes in G3."
        )
        assert describe("PhalanxesReinforced", one, "athens", game=None) == (
            "Sparta received 1 phalanx as reinforcement in G3."
        )
        assert describe(
            "MissionCardsDealt", {"player": "sparta", "cards": ["combo-1"]}, "athens", game=None
        ) == ("Sparta was dealt 1 Mission Card.")
    with translation.override("de"):
        assert (
            describe("PhalanxesRecruited", one, "athens", game=None)
            == "Sparta hat 1 Phalanx in G3 rekrutiert."
        )
        assert (
            describe("PhalanxesRecruited", two, "athens", game=None)
            == "Sparta hat 2 Phalangen in G3 rekrutiert."
        )


def test_h_end_a_shared_victory_names_its_winners_in_the_plural() -> None:
    assert (
        describe("GameEnded", {"winners": ["athens"]}, None, game=None) == "The game ended. Winner: Athens."
    )
    shared = describe("GameEnded", {"winners": ["athens", "sparta"]}, None, game=None)
    assert shared == "The game ended. Winners: Athens, Sparta."


def test_h_end_the_end_email_names_a_shared_victory_in_the_plural() -> None:
    from django.template.loader import render_to_string
    from django.utils import translation

    context = {"player_name": "Ana", "game_name": "Cup", "link": "https://x.example/"}
    shared = render_to_string(
        "emails/ended.txt", {**context, "winners_line": "Athens, Sparta", "winners_count": 2}
    )
    assert "AEGEAPOLIS Cup has ended. Winners: Athens, Sparta." in shared
    alone = render_to_string("emails/ended.txt", {**context, "winners_line": "Athens", "winners_count": 1})
    assert "AEGEAPOLIS Cup has ended. Winner: Athens." in alone
    with translation.override("de"):
        german = render_to_string(
            "emails/ended.txt", {**context, "winners_line": "Athen, Sparta", "winners_count": 2}
        )
    assert "AEGEAPOLIS Cup ist beendet. Sieg: Athen, Sparta." in german


def test_h_setup_the_factions_drawn_for_random_seats_are_told_to_everyone_in_their_language() -> None:
    drawn = {"chosen": ["athens"], "random_seats": 2, "pool": ["corinth", "sparta", "thebes"]}
    drawn |= {"drawn": ["thebes", "corinth"], "position": -1, "draws": [["faction", 3, 2], ["faction", 2, 0]]}
    with translation.override("en"):
        assert describe("FactionsDrawn", drawn, None, game=None) == (
            "Drawn at random for the seats that asked for a random faction: Thebes, Corinth."
        )
    with translation.override("de"):
        assert describe("FactionsDrawn", drawn, "sparta", game=None) == (
            "Zufällig gezogen für die Plätze, die eine zufällige Fraktion wollten: Theben, Korinth."
        )


def test_every_line_told_answers_whether_it_is_a_battle_or_a_scoring_without_a_failed_lookup():
    """A page's and an email's happenings ask each line for its rounds and its scoring (the
    _happenings templates): every line describe gives is a Told that has both, so that Django's
    lookup finds them instead of trying a key, dir() and an index first (games/words/told.py)."""
    from django.template import Context, Template

    from games.words.told import Told
    from games.words.winter_words import ToldScoring

    income = {"player": "athens", "year": 431, "ap": 1, "fp": 3, "coins": {"owl": 2}, "owed": 2}
    plain = describe("IncomeReceived", income, "athens", game=None)
    unknown = describe("SomethingNew", {}, "athens", game=None)
    ranked = {"ranking": "poleis", "vp": {"athens": 3, "sparta": 1}}
    scoring = describe("RankingScored", ranked, "sparta", game=None)
    assert isinstance(scoring, ToldScoring) and scoring.scoring and scoring.rounds == ()
    for line in (plain, unknown):
        assert isinstance(line, Told) and line.scoring is False and line.rounds == ()
    assert unknown == "SomethingNew happened."
    looked_up = Template("{% for line in lines %}{{ line.scoring }}/{{ line.rounds|length }} {% endfor %}")
    assert looked_up.render(Context({"lines": [plain, scoring]})) == "False/0 True/0 "
