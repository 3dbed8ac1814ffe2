"""`manage.py simulate`: bots play whole games through decide, the event store and fold."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.engine import simulation as engine_simulation
from games.eventstore.log_reading import load_engine_events
from games.eventstore.verification import verify_chain
from games.models import Event, Game

pytestmark = pytest.mark.django_db


def _run(**options: int) -> str:
    out = StringIO()
    call_command("simulate", stdout=out, **options)
    return out.getvalue()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_plays_whole_games_to_the_end_and_prints_figures(players: int) -> None:
    output = _run(games=2, players=players, seed=players)

    assert "games: 2" in output
    assert "events/s:" in output
    assert "winners:" in output
    games = list(Game.objects.all())
    assert len(games) == 2
    for game in games:
        events = load_engine_events(game)
        assert events[0].type == "GameStarted"
        assert events[-1].type == "GameEnded"
        assert Event.objects.filter(game=game).count() == len(events)
        assert verify_chain(game).ok


def test_simulate_names_the_first_invariant_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(previous, state):  # type: ignore[no-untyped-def]
        return ["H-PIECES: athens has 61 pieces"] if state.events_applied > 3 else []

    monkeypatch.setattr(engine_simulation, "check_invariants", broken)

    with pytest.raises(CommandError, match=r"invariant violation: game \d+ seq 4 .*H-PIECES"):
        _run(games=1, players=2, seed=1)
