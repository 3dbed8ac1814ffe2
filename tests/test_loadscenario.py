"""`manage.py loadscenario`: a game that opens from a scenario position and is played on from there."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.engine import Recruit
from games.models import Game
from games.reading.links import resolve_link
from games.reading.situation import load_game
from games.services.orders import submit_order

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "scenarios" / "siege-of-megara.json"


def _load(*args: str) -> str:
    out = StringIO()
    call_command("loadscenario", *args, stdout=out)
    return out.getvalue()


def test_loadscenario_opens_a_game_at_the_scenario_position_and_prints_links() -> None:
    output = _load(
        str(EXAMPLE), "--player", "Ana <ana@example.com>:athens", "--player", "Ben <ben@example.com>:sparta"
    )

    game = Game.objects.get()
    state = load_game(game).state
    assert state.year == 429
    assert state.board["D4"].fortification_hp == [3, 3]
    assert state.players["athens"].coins_behind_screen == {"owl": 2}
    assert [e.type for e in game.events.all()] == ["ScenarioLoaded"]
    # Under way at once, so deadlines, vacations and digests apply to it as to any game.
    assert game.status == Game.Status.ACTIVE
    assert game.summary.status == Game.Status.ACTIVE
    links = [word for word in output.split() if f"/play/{game.pk}/" in word]
    seats = {resolve_link(link.rstrip("/").rsplit("/", 1)[1], game.pk) for link in links}
    assert seats == set(game.seats.all())


def test_a_scenario_game_is_played_on_through_submit_order() -> None:
    _load(str(EXAMPLE))
    game = Game.objects.get()
    athens = game.seats.get(faction="athens")

    result = submit_order(game, athens, Recruit("athens", space="C3", phalanxes=2), expected_seq=1)

    assert result.state.board["C3"].phalanxes == 8
    assert result.state.player_on_turn == "sparta"


def test_loadscenario_refuses_an_impossible_scenario_and_creates_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"players": ["athens", "sparta"], "year": 300}))

    with pytest.raises(CommandError, match="not a possible position"):
        _load(str(bad))
    assert not Game.objects.exists()


def test_loadscenario_refuses_players_that_do_not_match_the_scenario() -> None:
    with pytest.raises(CommandError, match="each faction of the scenario"):
        _load(
            str(EXAMPLE), "--player", "Ana <ana@example.com>:athens", "--player", "Cy <cy@example.com>:thebes"
        )
    assert not Game.objects.exists()


def test_loadscenario_reports_every_bad_player_at_once() -> None:
    """As creategame and the new-game form do; before, it stopped at the first bad --player."""
    with pytest.raises(CommandError) as refused:
        _load(str(EXAMPLE), "--player", "Ana <ana@example.com>:rome", "--player", "Ben <nope>:sparta")
    assert str(refused.value).splitlines() == [
        '--player "Ana <ana@example.com>:rome": Unknown faction rome; choose from Athens, Sparta, Corinth,'
        " Thebes.",
        '--player "Ben <nope>:sparta": nope is not an email address.',
    ]
    assert not Game.objects.exists()
