"""`manage.py verifygame`: the hash chain catches an altered or missing event."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from tests.conftest import tamper


def verify(*games: int) -> str:
    """The hash chain alone: made-up events that no order could replay (see test_fairness_replay)."""
    out = io.StringIO()
    call_command("verifygame", *[str(g) for g in games], "--chain-only", stdout=out, stderr=out)
    return out.getvalue()


def test_an_intact_log_verifies(game, append):
    append(game, "GameStarted", "Moved", "Passed")

    assert "3 events, hash chain intact" in verify(game.pk)


def test_an_altered_payload_is_named_by_its_seq(game, append):
    append(game, "GameStarted", "Moved", "Passed", coins=1)
    tamper(
        "UPDATE games_event SET payload = %s WHERE game_id = %s AND seq = 2",
        [json.dumps({"coins": 9}), game.pk],
    )

    with pytest.raises(CommandError, match="seq 2") as raised:
        verify(game.pk)

    assert raised.value.returncode == 1


def test_an_altered_time_or_actor_is_caught_too(game, append):
    append(game, "GameStarted", "Moved", actor="athens")
    tamper("UPDATE games_event SET actor = 'sparta' WHERE game_id = %s AND seq = 1", [game.pk])

    with pytest.raises(CommandError, match="seq 1"):
        verify(game.pk)


def test_a_deleted_event_is_named_as_missing(game, append):
    append(game, "GameStarted", "Moved", "Passed")
    tamper("DELETE FROM games_event WHERE game_id = %s AND seq = 2", [game.pk])

    with pytest.raises(CommandError, match="seq 2"):
        verify(game.pk)


def test_an_unknown_game_is_an_error(db):
    with pytest.raises(CommandError, match="does not exist"):
        verify(424242)


def test_all_games_are_verified_and_the_broken_one_named(db, append):
    intact, broken = Game.objects.create(name="intact"), Game.objects.create(name="broken")
    append(intact, "GameStarted")
    append(broken, "GameStarted", "Moved")
    tamper("UPDATE games_event SET type = 'Forged' WHERE game_id = %s AND seq = 2", [broken.pk])

    with pytest.raises(CommandError, match=f"game {broken.pk} seq 2") as raised:
        call_command("verifygame", "--all", "--chain-only", stdout=io.StringIO(), stderr=io.StringIO())

    assert f"game {intact.pk}" not in str(raised.value)


def test_verifygame_needs_games_or_all(db):
    with pytest.raises(CommandError, match="--all"):
        call_command("verifygame")
