"""The Polis panel's facts (H-TILES, H-MINT, H-NEUTRAL, S-FORT, H-HEROES), read from a player's view."""

from __future__ import annotations

from django.utils import translation

from games.board.polis_facts import polis_facts
from games.engine.data import TILES


def test_h_tiles_s_fort_a_held_polis_tells_its_print_units_and_damaged_fortifications():
    polis = {"tile_id": "sparta", "owner": "sparta", "phalanxes": 4, "king": True, "fortification_hp": [3, 1]}
    tile = TILES["sparta"]
    with translation.override("en"):
        facts = dict(polis_facts("G3", polis)["lines"])
    assert tile.coins == 1 and facts["Prints"] == f"{tile.ap} AP, {tile.fp} FP, 1 coin"  # one coin: singular
    assert facts["Held by"] == "Sparta"
    assert facts["Units"] == "4 phalanxes, the King"
    assert facts["Fortifications"] == "3 of 3 HP, 1 of 3 HP"
    with translation.override("de"):
        facts = dict(polis_facts("G3", polis)["lines"])
    assert (
        facts["Festungsanlagen"] == "3 von 3 HP, 1 von 3 HP"
        and facts["Einheiten"] == "4 Phalangen, der König"
        and facts["Aufdruck"] == f"{tile.ap} AP, {tile.fp} FP, 1 Münze"
    )


def test_h_neutral_a_neutral_polis_tells_its_garrison_and_unminted_coins():
    polis = {"tile_id": "megara", "phalanxes": 0, "unminted_coins": {"turtle": 1}}
    with translation.override("en"):
        facts = dict(polis_facts("D4", polis)["lines"])
    assert facts["Held by"] == "neutral" and facts["Garrison"] == "0 phalanxes"
    assert facts["Unminted coins"].startswith("1 ×")
    assert facts["Fortifications"] == "none"
