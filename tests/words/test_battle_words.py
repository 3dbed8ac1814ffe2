"""A battle told round by round, as players read it (S-COMBAT, S-FORT, H-HEROES): whose dice, the
faces, the hits, what the Fortifications absorbed, the losses and who fell, in English and German."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from games.engine.commands import Destination
from games.words.battle import ToldBattle
from games.words.narration import describe
from tests.engine.support import ScriptedDice, game, move, play_move


def fought(board: dict[str, dict[str, Any]], dest: Destination, *dice: int) -> dict[str, Any]:
    events, _ = play_move(game(board), move("C3" if "C3" in board else "E3", dest), ScriptedDice(*dice))
    (battle,) = [e.payload for e in events if e.type == "BattleFought"]
    return battle


def test_s_fort_each_round_names_the_roller_the_faces_hits_absorbed_and_losses() -> None:
    battle = fought(
        {
            "E3": {"owner": "athens", "phalanxes": 3},
            "G3": {"owner": "sparta", "phalanxes": 1, "fortification_hp": [1], "builders": 1},
        },
        Destination("G3", 3),
        2,  # Sparta: a miss
        6,
        5,
        1,  # Athens: 2 hits, the wall absorbs 1, 1 falls on Sparta's last phalanx
    )
    told = describe("BattleFought", battle, "athens", game=None)
    assert isinstance(told, ToldBattle)
    assert told.summary == (
        "Battle at G3: Athens attacked Sparta and Athens won (losses: attacker 0, defender 1)."
    )
    assert [r.text for r in told.rounds] == [
        "Round 1: Sparta rolled 2 — no hit.",
        "Round 2: Athens rolled 6, 5, 1 — 2 hits; the Fortifications absorbed 1; Sparta lost 1 phalanx.",
    ]
    assert [(d.face, d.hit) for d in told.rounds[1].dice] == [(6, True), (5, True), (1, False)]
    assert told.fallen == ("With its last phalanx Sparta lost 1 Builder.",)
    # One line for the JSON answer and a digest: the summary, the rounds and the fallen together.
    assert str(told).startswith(told.summary + " Round 1: Sparta rolled 2") and "1 Builder." in told


def test_s_combat_a_neutral_garrison_and_a_fallen_king_in_german() -> None:
    battle = fought(
        {"C3": {"owner": "athens", "phalanxes": 1, "king": True}, "E3": {"phalanxes": 2}},
        Destination("E3", 1, king=True),
        4,
        3,  # the garrison: 2 hits on Athens' single phalanx
    )
    with translation.override("de"):
        told = describe("BattleFought", battle, None, game=None)
    assert told.rounds[0].text == (
        "Runde 1: Die neutrale Besatzung würfelte 4, 3 — 2 Treffer; Athen verlor 1 Phalanx."
    )
    assert told.fallen == ("Der König von Athen ist gefallen.",)


def test_s_combat_losses_of_several_phalanxes_are_phalangen_in_german() -> None:
    """The German plural of Phalanx is Phalangen, in the battle's losses as everywhere else."""
    from games.words.battle import _losses

    with translation.override("de"):
        assert _losses("Athen", 1) == "Athen verlor 1 Phalanx"
        assert _losses("Die neutrale Besatzung", 3) == "Die neutrale Besatzung verlor 3 Phalangen"
