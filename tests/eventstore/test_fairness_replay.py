"""`manage.py verifygame` replays every order from the seed (H-END, provably fair randomness).

Each kind of tampering is named by its seq: an altered payload, a deleted event, two swapped
events, and one die changed with the whole hash chain recomputed, which only the replay catches.
"""

from __future__ import annotations

import io
import json
import random

import pytest
from django.core.management import CommandError, call_command

from bench.simulate import SimulationReport, simulate_game
from games.eventstore.verification import verify_chain, verify_game
from games.models import Event, Game
from tests.conftest import tamper
from tests.eventstore.support import rechain

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def finished_game_ids(django_db_setup, django_db_blocker) -> list[int]:  # type: ignore[no-untyped-def]
    """Two whole simulated games (kept for the module: playing one takes a few seconds)."""
    with django_db_blocker.unblock():
        bot = random.Random(7)
        games = [
            simulate_game(f, bot, SimulationReport()) for f in (["athens", "sparta"], ["corinth", "thebes"])
        ]
        yield [g.pk for g in games]
        for game in games:
            tamper("DELETE FROM games_event WHERE game_id = %s", [game.pk])
            game.delete()


def verify(game: Game) -> str:
    out = io.StringIO()
    call_command("verifygame", str(game.pk), stdout=out, stderr=out)
    return out.getvalue()


def first(game: Game, event_type: str) -> Event:
    return Event.objects.filter(game=game, type=event_type).order_by("seq").first()


def test_h_end_a_whole_simulated_game_replays_from_its_seed(finished_game_ids):
    for game in Game.objects.filter(pk__in=finished_game_ids):
        report = verify_game(game)
        assert report.ok, report.problem
        assert report.replay.orders == Event.objects.filter(game=game, type="OrderGiven").count() > 10
        assert report.replay.draws > 0
        assert "orders and" in verify(game) and "draws re-derived from the seed" in verify(game)


def test_h_end_every_batch_opens_with_its_order_at_the_rng_position(finished_game_ids):
    game = Game.objects.get(pk=finished_game_ids[0])
    for given in Event.objects.filter(game=game, type="OrderGiven"):
        drawn = (
            Event.objects.filter(game=game, seq__gt=given.seq, type="RandomnessDrawn").order_by("seq").first()
        )
        assert drawn.payload["position"] == given.seq
        assert given.payload["by"] == "bot" and given.payload["command"]["player"] == given.payload["player"]
    opening = Event.objects.filter(game=game, type="RandomnessDrawn").order_by("seq").first()
    assert opening.payload["position"] == 0
    assert Event.objects.filter(game=game).order_by("-seq").first().type == "GameEnded"


@pytest.fixture
def game(finished_game_ids) -> Game:
    """A fresh copy of a finished game's log, to tamper with (the module's games stay intact)."""
    source = Game.objects.get(pk=finished_game_ids[0])
    copy = Game.objects.create(name="copy", seed=source.seed)
    rows = list(Event.objects.filter(game=source).order_by("seq"))
    Event.objects.bulk_create(
        [
            Event(
                game=copy,
                seq=r.seq,
                type=r.type,
                payload=r.payload,
                actor=r.actor,
                schema_version=r.schema_version,
                created=r.created,
                prev_hash="",
                hash="",
            )
            for r in rows
        ]
    )
    rechain(copy)
    assert verify_game(copy).ok
    return copy


def test_h_end_an_altered_payload_is_named(game):
    moved = first(game, "UnitsMoved")
    payload = {**moved.payload, "fp_paid": moved.payload["fp_paid"] + 1}
    tamper("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(payload), moved.pk])

    with pytest.raises(CommandError, match=f"seq {moved.seq}") as raised:
        verify(game)
    assert raised.value.returncode == 1


def test_h_end_an_altered_payload_with_the_chain_recomputed_is_caught_by_the_replay(game):
    moved = first(game, "UnitsMoved")
    payload = {**moved.payload, "fp_paid": moved.payload["fp_paid"] + 1}
    tamper("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(payload), moved.pk])
    rechain(game, moved.seq)

    assert verify_chain(game).ok
    assert verify_game(game).problem.seq == moved.seq


def test_h_end_a_deleted_event_is_named(game):
    income = first(game, "IncomeReceived")
    tamper("DELETE FROM games_event WHERE id = %s", [income.pk])

    assert verify_game(game).problem.reason == f"event {income.seq} is missing"
    with pytest.raises(CommandError, match=f"seq {income.seq}"):
        verify(game)


def test_h_end_two_swapped_events_are_named(game):
    a = first(game, "TurnBegan")
    b = Event.objects.get(game=game, seq=a.seq + 1)
    tamper(
        "UPDATE games_event SET type = %s, payload = %s WHERE id = %s", [b.type, json.dumps(b.payload), a.pk]
    )
    tamper(
        "UPDATE games_event SET type = %s, payload = %s WHERE id = %s", [a.type, json.dumps(a.payload), b.pk]
    )

    assert verify_game(game).problem.seq == a.seq
    rechain(game, a.seq)
    assert verify_chain(game).ok
    assert verify_game(game).problem.seq == a.seq


def test_h_end_one_die_changed_with_the_chain_recomputed_is_caught_by_the_seed(game):
    battle = first(game, "BattleFought")
    rounds = battle.payload["rounds"]
    die = rounds[0]["dice"][0]
    rounds[0]["dice"][0] = 6 if die != 6 else 5
    tamper("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(battle.payload), battle.pk])
    rechain(game, battle.seq)

    assert verify_chain(game).ok
    report = verify_game(game)
    assert report.problem.seq == battle.seq
    assert "BattleFought" in report.problem.reason
    with pytest.raises(CommandError, match=f"seq {battle.seq}"):
        verify(game)


def test_h_end_a_wrong_seed_is_refused(game):
    Game.objects.filter(pk=game.pk).update(seed="not the seed")
    game.refresh_from_db()

    assert verify_game(game).problem.seq == 1
    assert "seed_hash" in verify_game(game).problem.reason


def test_h_end_table_events_between_orders_and_system_orders_replay(db):
    from games.engine import Pass
    from games.reading.situation import load_game
    from games.services.messages import send_message
    from games.services.orders import submit_order
    from tests.order_loop_support import seats_to_act, two_player_game

    game = two_player_game()
    (seat,) = seats_to_act(game)
    submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    send_message(seat, game.seats.exclude(pk=seat.pk).get().faction, "a word between orders")
    (seat,) = seats_to_act(game)
    submit_order(game, seat, Pass(seat.faction), load_game(game).seq, by="system")

    report = verify_game(game)
    assert report.ok, report.problem
    assert report.replay.orders == 2
    last = Event.objects.filter(game=game, type="OrderGiven").order_by("-seq").first()
    assert last.payload["by"] == "system"
