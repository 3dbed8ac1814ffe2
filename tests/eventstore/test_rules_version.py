"""H-RULES-VERSION: a game recorded under older rules is reported NOT CHECKED, a forged one FAILED.

The opening and every "OrderGiven" name the rules version that decided them. The replay
(games/eventstore/replay.py, the engine only: no database) re-decides every order with this engine's rules;
where a batch of another version (or of none: an old log) comes out differently, that may be the
rules' change, so it is not reported as tampering, while the seed and the fold still must hold;
`manage.py verifygame` and the admin's Verify action say so too.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse

from games import engine
from games.engine import Pass, winter
from games.engine.simulation import play_random_game
from games.eventstore.replay import LoggedEvent, ReplayReport, replay
from games.eventstore.replay_report import main
from games.eventstore.verification import verify_game
from games.models import Event, Game
from games.reading.situation import load_game
from games.services.orders import submit_order
from tests.conftest import tamper
from tests.eventstore.support import rechain
from tests.order_loop_support import seats_to_act, two_player_game
from tests.rules_version_support import game_across_a_change, logged

SEED = "7" * 64


def recorded_game(version: int = engine.RULES_VERSION) -> list[LoggedEvent]:
    """A whole two-player game as the service records it, under rules `version` (this engine's)."""
    events, _ = play_random_game(
        ["athens", "sparta"], SEED, bot_seed=3, check=False, recorded=True, rules_version=version
    )
    return logged(events)


def older_rules_game(monkeypatch: pytest.MonkeyPatch) -> list[LoggedEvent]:
    """A game decided by rules that meant something else, as S-RANK did before version 1: here the
    Poleis ranking leaves out every player holding fewer than 3 Poleis; otherwise the rules of version 1,
    the oldest this engine decides. Its log says version 0."""
    current = winter.ranking_values

    def older(state: engine.GameState) -> dict[str, dict[str, int]]:
        values = current(state)
        return {**values, "poleis": {f: n for f, n in values["poleis"].items() if n >= 3}}

    with monkeypatch.context() as patched:
        patched.setattr(winter, "ranking_values", older)
        log = recorded_game(1)
    return under_version(log, 0)


def under_version(log: list[LoggedEvent], version: int | None, from_seq: int = 1) -> list[LoggedEvent]:
    """The log with its opening and its orders from `from_seq` on naming `version` (None: no version,
    as logs from before versions were recorded)."""
    for event in log:
        if event.seq >= from_seq and event.type in ("GameStarted", engine.ORDER_GIVEN):
            event.payload.pop("rules_version")
            if version is not None:
                event.payload["rules_version"] = version
    return log


def first(log: list[LoggedEvent], event_type: str, after: int = 0) -> LoggedEvent:
    return next(e for e in log if e.type == event_type and e.seq > after)


def poleis_ranking(log: list[LoggedEvent], after: int = 0) -> LoggedEvent:
    return next(
        e for e in log if e.seq > after and e.type == "RankingScored" and e.payload["ranking"] == "poleis"
    )


def run_main(log: list[LoggedEvent], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`python -m games.eventstore.replay EXPORT.json` on an export of `log`
    (only the fields the replay reads)."""
    document: dict[str, Any] = {
        "game": {"seed": SEED},
        "events": [{"seq": e.seq, "type": e.type, "payload": e.payload, "redacted": False} for e in log],
    }
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document))
    status = main([str(path)])
    return status, capsys.readouterr().out


def test_h_rules_version_the_opening_and_every_order_name_the_rules_that_decided_them():
    log = recorded_game()
    named = [e for e in log if e.type in ("GameStarted", engine.ORDER_GIVEN)]
    assert len(named) > 10
    assert {e.payload["rules_version"] for e in named} == {engine.RULES_VERSION}
    loaded = engine.scenario_loaded({"players": {"athens": {}, "sparta": {}}}, "ab")
    assert loaded.payload["rules_version"] == engine.RULES_VERSION
    assert engine.rules_version_of(loaded.payload) == engine.RULES_VERSION
    assert engine.rules_version_of({}) is None  # a log from before versions: unknown


def test_h_rules_version_a_game_of_older_rules_is_not_checked_rather_than_tampered(
    monkeypatch, tmp_path, capsys
):
    log = older_rules_game(monkeypatch)
    differs = poleis_ranking(log)

    report = replay(log, SEED)

    assert report.not_checked and not report.failed and not report.ok
    assert report.problem.seq == differs.seq and report.problem.rules_version == 0
    assert report.orders > 0  # the orders before it were re-decided and matched
    status, out = run_main(log, tmp_path, capsys)
    assert status == 0
    assert "FAILED" not in out
    assert f"NOT CHECKED: the rules' decisions from seq {differs.seq} on" in out
    assert (
        f"recorded under rules version 0; this engine implements rules version {engine.RULES_VERSION}" in out
    )


def test_h_rules_version_a_log_without_versions_is_of_unknown_rules(monkeypatch, tmp_path, capsys):
    log = under_version(older_rules_game(monkeypatch), None)

    report = replay(log, SEED)

    assert report.not_checked and report.problem.rules_version is None
    status, out = run_main(log, tmp_path, capsys)
    assert status == 0 and "recorded under an unknown rules version" in out
    # An old log that today's rules decide alike is fully checked, and says under what it was recorded.
    same = under_version(recorded_game(1), None)
    assert replay(same, SEED).ok
    status, out = run_main(same, tmp_path, capsys)
    assert status == 0 and out.startswith("OK: the rules, replayed from the seed, give exactly this log")
    assert "recorded under an unknown rules version" in out and "rules version 1 gives the same" in out


def test_h_rules_version_a_tampered_game_of_the_current_rules_is_still_caught(tmp_path, capsys):
    log = recorded_game()
    forged = poleis_ranking(log)
    winner = next(iter(forged.payload["vp"]))
    forged.payload["vp"][winner] += 1

    report = replay(log, SEED)

    assert report.failed and not report.not_checked
    assert report.problem.seq == forged.seq
    status, out = run_main(log, tmp_path, capsys)
    assert status == 1 and out.startswith(f"FAILED at seq {forged.seq}: RankingScored")


def test_h_rules_version_older_rules_excuse_no_wrong_seed_and_no_log_that_does_not_fold(monkeypatch):
    log = older_rules_game(monkeypatch)
    assert replay(log, "another seed").failed
    assert "seed_hash" in replay(log, "another seed").problem.reason

    broken = older_rules_game(monkeypatch)
    year = first(broken, "YearBegan", after=poleis_ranking(broken).seq)
    del year.payload["year"]  # no rules version makes this event fold

    report = replay(broken, SEED)

    assert report.failed and report.problem.seq == year.seq
    assert report.problem.reason.startswith("the log does not fold here")


def test_h_rules_version_a_game_across_a_rules_change_is_checked_batch_by_batch():
    """A game begun under older rules goes on under this engine's from the change on. A part played
    under rules the engine no longer decides (0) is not checked where it differs; the rest is."""
    log, change = game_across_a_change(before=1)
    under_version(log, 0, from_seq=1)  # the opening and every order before `change` under version 0...
    under_version(log, engine.RULES_VERSION, from_seq=change)  # ...and from `change` on, this version
    old, new = poleis_ranking(log), poleis_ranking(log, after=change)
    assert old.seq < change < new.seq

    whole = replay(log, SEED)
    assert whole.ok and whole.rules_versions == (0, engine.RULES_VERSION)

    new.payload["vp"][next(iter(new.payload["vp"]))] += 1
    assert replay(log, SEED).failed  # a batch of this engine's rules is checked in full
    old.payload["vp"][next(iter(old.payload["vp"]))] += 1
    report: ReplayReport = replay(log, SEED)
    assert report.not_checked and report.problem.seq == old.seq


@pytest.mark.parametrize("claimed", [0, None])
def test_h_rules_version_a_batch_claiming_older_rules_than_the_orders_before_it_fails(
    claimed, tmp_path, capsys
):
    """A game goes on under newer rules, never older ones: a forged batch relabelled with an older
    version (or none) in a game of this version is a forgery, not a difference of other rules."""
    log = recorded_game()
    forged = poleis_ranking(log)
    forged.payload["vp"][next(iter(forged.payload["vp"]))] += 1
    given = [e for e in log if e.type == engine.ORDER_GIVEN and e.seq < forged.seq][-1]
    under_version(log, claimed, from_seq=given.seq)  # that batch and every one after it

    report = replay(log, SEED)

    assert report.failed and not report.not_checked
    assert report.problem.seq == given.seq
    reason = report.problem.reason
    assert (
        f"after rules version {engine.RULES_VERSION}: a game goes on under newer rules, never older" in reason
    )
    status, out = run_main(log, tmp_path, capsys)
    assert status == 1 and out.startswith(f"FAILED at seq {given.seq}: the order names")


def played_game() -> Game:
    """A two-player game in the database with two orders given."""
    game = two_player_game()
    for _ in range(2):
        (seat,) = seats_to_act(game)
        submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    return game


def relabel(game: Game, version: int | None) -> None:
    """Rewrite the game's log as if recorded under `version` (before version 1: its opening dealt the
    Mission Cards from the deck of the time, version 1's), hash chain and all."""
    for row in Event.objects.filter(game=game, type__in=("GameStarted", engine.ORDER_GIVEN)):
        payload = {k: v for k, v in row.payload.items() if k != "rules_version"}
        if row.type == "GameStarted":
            setup = {"factions": payload["seat_order"]}
            opening = engine.opening_recorded(setup, game.seed, version if version else 1)[0]
            payload["mission_hands"] = opening.payload["mission_hands"]
        if version is not None:
            payload["rules_version"] = version
        tamper("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(payload), row.pk])
    rechain(game)


def decided_otherwise(game: Game) -> Event:
    """Change an event of the last order's batch, as other rules might have decided it."""
    given = Event.objects.filter(game=game, type=engine.ORDER_GIVEN).order_by("-seq").first()
    event = Event.objects.get(game=game, seq=given.seq + 1)
    payload = {**event.payload, "decided_by": "other rules"}
    tamper("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(payload), event.pk])
    rechain(game)
    return event


@pytest.mark.django_db
def test_h_rules_version_verifygame_reports_a_game_of_older_rules_not_checked_not_broken():
    game = played_game()
    relabel(game, 0)
    event = decided_otherwise(game)
    out = io.StringIO()

    call_command("verifygame", str(game.pk), stdout=out, stderr=out)  # no CommandError: exit 0

    text = out.getvalue()
    assert "BROKEN" not in text
    assert "hash chain intact, seed matches, every event folds" in text
    assert f"NOT CHECKED: the rules' decisions from seq {event.seq} on" in text
    assert (
        f"recorded under rules version 0; this engine implements rules version {engine.RULES_VERSION}" in text
    )
    verification = verify_game(game)
    assert verification.not_checked and verification.problem is None and not verification.ok


@pytest.mark.django_db
def test_h_rules_version_verifygame_still_names_a_forged_game_of_the_current_rules():
    game = played_game()
    assert verify_game(game).ok
    event = decided_otherwise(game)

    with pytest.raises(CommandError, match=f"seq {event.seq}") as raised:
        call_command("verifygame", str(game.pk), stdout=io.StringIO(), stderr=io.StringIO())

    assert raised.value.returncode == 1
    assert not verify_game(game).not_checked


@pytest.mark.django_db
def test_h_rules_version_the_admin_warns_in_english_and_german(client):
    client.force_login(User.objects.create_superuser("op", "op@example.com", "pw"))
    game = played_game()
    relabel(game, None)
    event = decided_otherwise(game)
    url = reverse("admin:games_game_changelist")
    form = {"action": "verify", "_selected_action": [game.pk]}

    english = client.post(url, form, follow=True, headers={"accept-language": "en"}).text
    german = client.post(url, form, follow=True, headers={"accept-language": "de"}).text

    assert f"NOT CHECKED against the rules from seq {event.seq} on" in english
    assert "recorded under rules version unknown" in english and "BROKEN" not in english
    assert f"NICHT gegen die Regeln GEPRÜFT ab Nr. {event.seq}" in german
    assert "Regelversion unbekannt" in german
