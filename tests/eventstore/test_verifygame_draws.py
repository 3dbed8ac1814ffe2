"""`manage.py verifygame` holds every batch's draws against the seed and its events, and refuses a
rules version newer than the engine's (H-RULES-VERSION, docs/fairness.md "Checking a game").

A forger with the database rewrites a die in a BattleFought, labels the game (or the batch) with a
rules version the replay cannot hold it to, and recomputes the hash chain: before, verifygame
printed NOT CHECKED and exited 0. The draws need no rules (tools/verify_export.py's checks, which
verifygame now runs itself), and a version newer than the engine's was decided by no server.
"""

from __future__ import annotations

import io
import json
import random

import pytest
from django.core.management import CommandError, call_command

from bench.simulate import SimulationReport, simulate_game
from games import engine
from games.eventstore.verification import verify_game
from games.models import Event, Game
from tests.conftest import tamper
from tests.eventstore.support import rechain

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def finished_game_id(django_db_setup, django_db_blocker) -> int:  # type: ignore[no-untyped-def]
    """A whole simulated two-player game, with battles (kept for the module: it takes seconds)."""
    with django_db_blocker.unblock():
        game = simulate_game(["athens", "sparta"], random.Random(7), SimulationReport())
        yield game.pk
        tamper("DELETE FROM games_event WHERE game_id = %s", [game.pk])
        game.delete()


@pytest.fixture
def game(finished_game_id) -> Game:
    """A fresh copy of the finished game's log, to forge (the module's game stays intact)."""
    source = Game.objects.get(pk=finished_game_id)
    copy = Game.objects.create(name="copy", seed=source.seed)
    fields = ("seq", "type", "payload", "actor", "schema_version", "created")
    rows = Event.objects.filter(game=source).order_by("seq").values(*fields)
    Event.objects.bulk_create([Event(game=copy, prev_hash="", hash="", **row) for row in rows])
    rechain(copy)
    return copy


def verifygame(game: Game) -> str:
    out = io.StringIO()
    call_command("verifygame", str(game.pk), stdout=out, stderr=out)
    return out.getvalue()


def rewrite(event: Event, payload: dict) -> None:
    tamper("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(payload), event.pk])


def relabel(game: Game, version: object, from_seq: int = 1) -> None:
    """The opening and every order from `from_seq` on name rules `version` (the chain is not redone)."""
    named = Event.objects.filter(game=game, seq__gte=from_seq, type__in=("GameStarted", engine.ORDER_GIVEN))
    for row in named:
        rewrite(row, {**row.payload, "rules_version": version})


def forge_a_die(game: Game) -> Event:
    """The first battle's first die turned into another value; the chain is not redone."""
    battle = Event.objects.filter(game=game, type="BattleFought").order_by("seq").first()
    payload = battle.payload
    die = payload["rounds"][0]["dice"][0]
    payload["rounds"][0]["dice"][0] = 6 if die != 6 else 5
    rewrite(battle, payload)
    return battle


def order_of(game: Game, event: Event) -> Event:
    orders = Event.objects.filter(game=game, type=engine.ORDER_GIVEN, seq__lt=event.seq)
    return orders.order_by("-seq").first()


def test_an_intact_game_passes_verifygame_with_its_draws_held_against_its_events(game):
    """Finding: verifygame passes a forged die. The intact log still passes every check."""
    report = verify_game(game)

    assert report.ok and report.draws is None and report.problem is None
    text = verifygame(game)  # no CommandError: exit 0
    assert "hash chain intact" in text and "draws re-derived from the seed" in text
    assert "BROKEN" not in text and "NOT CHECKED" not in text


def test_a_forged_die_in_a_game_labelled_with_older_rules_fails_verifygame(game):
    """Finding: verifygame passes a forged die. The whole game relabelled as decided by rules
    version 0, a die changed and the hash chain recomputed: the replay cannot hold old rules to
    the battle, but the die shown is not the batch's die draw, which needs no rules."""
    relabel(game, 0)
    battle = forge_a_die(game)
    rechain(game)

    with pytest.raises(CommandError, match=f"game {game.pk} seq {battle.seq}") as raised:
        verifygame(game)

    assert raised.value.returncode == 1
    report = verify_game(game)
    assert report.chain.ok and not report.ok and not report.not_checked
    assert report.problem.seq == battle.seq
    assert report.problem.reason == "the dice shown are not the batch's die draws"


@pytest.mark.parametrize("where", ["opening", "order"])
def test_a_rules_version_newer_than_the_engines_fails_verifygame(game, where):
    """Finding: verifygame passes a forged die. A batch (from an order on, or the whole game from
    its opening) naming a rules version newer than this engine's, with a die forged in it and the
    chain recomputed, was NOT CHECKED with exit 0; no server decided by those rules, so it fails."""
    battle = forge_a_die(game)
    newer = engine.RULES_VERSION + 1
    given = order_of(game, battle) if where == "order" else Event.objects.get(game=game, seq=1)
    relabel(game, newer, from_seq=given.seq)
    rechain(game)

    out = io.StringIO()
    with pytest.raises(CommandError, match=f"game {game.pk} seq {given.seq}") as raised:
        call_command("verifygame", str(game.pk), stdout=out, stderr=out)

    assert raised.value.returncode == 1
    said = f"names rules version {newer}, newer than this engine's rules version {engine.RULES_VERSION}"
    assert said in out.getvalue() and "NOT CHECKED" not in out.getvalue()
    assert not verify_game(game).not_checked


def test_a_newer_rules_version_fails_even_where_the_rules_give_the_same_events(game):
    """Finding: verifygame passes a forged die. Only the version changed (nothing else forged):
    this engine's rules replay the log alike, but a version newer than the engine's is no version
    any server decided by, so the log was rewritten."""
    newer = engine.RULES_VERSION + 1
    relabel(game, newer)
    rechain(game)

    out = io.StringIO()
    with pytest.raises(CommandError, match=f"game {game.pk} seq 1"):
        call_command("verifygame", str(game.pk), stdout=out, stderr=out)

    assert f"BROKEN at seq 1: the opening names rules version {newer}, newer than" in out.getvalue()


@pytest.mark.parametrize("named", ["2", True, -1])  # (a fraction cannot be hashed: hashing.NotCanonical)
def test_a_rules_version_no_rules_ever_had_fails_verifygame(game, named):
    """H-RULES-VERSION: a forger relabels the whole game with a version that is not a version at all
    (a text, true, a negative number) and recomputes the chain; read as "unknown", it was
    let off as NOT CHECKED. Logs from before versions name none (or 0); anything else fails at once."""
    relabel(game, named)
    rechain(game)

    out = io.StringIO()
    with pytest.raises(CommandError, match=f"game {game.pk} seq 1"):
        call_command("verifygame", str(game.pk), stdout=out, stderr=out)

    said = f"BROKEN at seq 1: the opening names rules version {named!r}, which is no rules version"
    assert said in out.getvalue()
    assert "NOT CHECKED" not in out.getvalue()
