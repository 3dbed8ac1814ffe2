"""Projectors: read models updated in the appending transaction, and rebuilt from the log alone."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict

from games.eventstore import projections
from games.eventstore.projections import Projector, projector, rebuild_projections
from games.models import Event, Game, GameSummary
from tests.conftest import T0


def summaries() -> list[dict]:
    return [model_to_dict(row) | {"updated": row.updated} for row in GameSummary.objects.order_by("game_id")]


def statuses() -> list[tuple[int, str]]:
    return list(Game.objects.order_by("pk").values_list("pk", "status"))


def test_the_summary_follows_each_append(game, append):
    append(game, "GameStarted", at=0)
    assert (game.summary.status, game.summary.last_seq, game.summary.updated) == ("active", 1, T0)

    append(game, "Moved", "Passed", at=5)
    summary = GameSummary.objects.get(game=game)
    assert (summary.status, summary.last_seq) == ("active", 3)
    assert summary.updated == Event.objects.get(game=game, seq=3).created

    append(game, "GameEnded", at=9)
    assert GameSummary.objects.get(game=game).status == Game.Status.ENDED
    assert Game.objects.get(pk=game.pk).status == Game.Status.ENDED


def test_a_log_without_a_start_is_summarised_as_new(game, append):
    append(game, "Noted")

    assert GameSummary.objects.get(game=game).status == Game.Status.NEW


def test_rebuildprojections_gives_identical_rows(db, append):
    games = [Game.objects.create(name=f"g{i}") for i in range(4)]
    append(games[0], "GameStarted", "Moved", at=1)
    append(games[0], "Passed", at=2)
    append(games[1], "GameStarted", at=3)
    append(games[1], "GameEnded", at=4)
    append(games[2], "Noted", at=5)  # games[3] has no events and no summary
    before, before_status = summaries(), statuses()

    GameSummary.objects.filter(game=games[0]).update(status="ended", last_seq=99)
    GameSummary.objects.filter(game=games[2]).delete()
    Game.objects.filter(pk=games[1].pk).update(status=Game.Status.NEW)
    call_command("rebuildprojections", stdout=open("/dev/null", "w"))  # noqa: SIM115

    assert summaries() == before
    assert statuses() == before_status
    assert len(before) == 3


def test_rebuild_replays_in_batches_with_the_same_result(db, append):
    game = Game.objects.create(name="long")
    for minute in range(7):
        append(game, "Moved", at=minute)
    before = summaries()

    report = rebuild_projections(batch_size=3)

    assert summaries() == before
    assert (report.games, report.events) == (1, 7)


def test_a_registered_projector_sees_new_events_and_the_rebuild(game, append, monkeypatch):
    seen: list[tuple[int, list[int]]] = []
    resets: list[str] = []
    monkeypatch.setattr(projections, "PROJECTORS", list(projections.PROJECTORS))

    @projector(reset=lambda: resets.append("reset"))
    def record(game: Game, events) -> None:
        seen.append((game.pk, [event.seq for event in events]))

    append(game, "GameStarted", "Moved")
    append(game, "Passed")
    assert seen == [(game.pk, [1, 2]), (game.pk, [3])]

    seen.clear()
    rebuild_projections()
    assert seen == [(game.pk, [1, 2, 3])]
    assert resets == ["reset"]
    assert isinstance(projections.PROJECTORS[-1], Projector)


def test_a_projector_registered_twice_runs_once(game, append, monkeypatch):
    calls = []
    monkeypatch.setattr(projections, "PROJECTORS", list(projections.PROJECTORS))

    def count(game: Game, events) -> None:
        calls.append(len(events))

    projector()(count)
    projector()(count)
    append(game, "GameStarted")

    assert calls == [1]


@pytest.mark.parametrize("module", ["games.projectors.summary"])
def test_projector_modules_are_loaded_at_start_up(module):
    assert any(p.name.startswith(module) for p in projections.PROJECTORS)
