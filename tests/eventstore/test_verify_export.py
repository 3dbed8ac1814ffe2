"""tools/verify_export.py, the stand-alone verifier (docs/fairness.md): standard library only (H-END).

It runs under `python -S` (no site-packages at all) on a real export of a finished simulated
game and passes; tampered copies, even with the hash chain recomputed, fail naming the event.
"""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from bench.simulate import SimulationReport, simulate_game
from games import engine
from games.models import Event, Game, Seat
from games.reading.links import link_token
from tests.conftest import tamper

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "verify_export.py"
sys.path.insert(0, str(SCRIPT.parent))
import verify_export  # noqa: E402  (the script itself, for rechaining tampered copies)


@pytest.fixture(scope="module")
def export(django_db_setup, django_db_blocker, tmp_path_factory) -> dict:  # type: ignore[no-untyped-def]
    """The operator's export of a finished simulated 3-player game."""
    with django_db_blocker.unblock():
        game = simulate_game(["athens", "sparta", "thebes"], random.Random(11), SimulationReport())
        path = tmp_path_factory.mktemp("export") / "game.json"
        call_command("exportgame", str(game.pk), output=str(path), stderr=io.StringIO())
        yield json.loads(path.read_text())
        tamper("DELETE FROM games_event WHERE game_id = %s", [game.pk])
        game.delete()


def run(document: dict, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document))
    command = [sys.executable, "-S", str(SCRIPT), str(path), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def rechain(document: dict) -> dict:
    """Recompute every hash after a change, as a forger with the export in hand would."""
    prev = "0" * 64
    for event in document["events"]:
        event["prev_hash"] = prev
        event["hash"] = prev = verify_export.event_hash(document["game"]["id"], event)
    return document


def first(document: dict, event_type: str) -> dict:
    return next(e for e in document["events"] if e["type"] == event_type)


def test_h_end_the_stand_alone_verifier_passes_a_finished_games_export(export, tmp_path):
    result = run(export, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "hash chain intact" in result.stdout and "0 redacted" in result.stdout
    assert "draws re-derived and matched" in result.stdout
    assert "sealed winter orders match their commitments" in result.stdout
    assert "0 sealed" not in result.stdout


def test_h_end_an_altered_payload_breaks_the_chain(export, tmp_path):
    forged = copy.deepcopy(export)
    moved = first(forged, "UnitsMoved")
    moved["payload"]["fp_paid"] += 1
    result = run(forged, tmp_path)
    assert result.returncode == 1 and f"seq {moved['seq']}: hash does not match" in result.stdout


def test_h_end_a_changed_die_with_the_chain_recomputed_fails_the_draws(export, tmp_path):
    forged = copy.deepcopy(export)
    battle = first(forged, "BattleFought")
    die = battle["payload"]["rounds"][0]["dice"][0]
    battle["payload"]["rounds"][0]["dice"][0] = 6 if die != 6 else 5
    result = run(rechain(forged), tmp_path)
    assert result.returncode == 1
    assert f"seq {battle['seq']}: the dice shown are not the batch's die draws" in result.stdout


def test_h_end_a_changed_draw_fails_the_seed_re_derivation(export, tmp_path):
    forged = copy.deepcopy(export)
    record = next(e for e in forged["events"] if e["type"] == "RandomnessDrawn" and e["payload"]["draws"])
    label, n, value = record["payload"]["draws"][0]
    record["payload"]["draws"][0] = [label, n, (value + 1) % n]
    result = run(rechain(forged), tmp_path)
    assert result.returncode == 1 and f"seq {record['seq']}: draw 0" in result.stdout


def test_h_winter_orders_a_revealed_order_changed_after_sealing_fails_its_commitment(export, tmp_path):
    forged = copy.deepcopy(export)
    reveal = first(forged, "WinterOrdersRevealed")
    faction = next(iter(reveal["payload"]["salts"]))
    reveal["payload"]["orders"][faction]["blanks"] += 1
    result = run(rechain(forged), tmp_path)
    assert result.returncode == 1
    assert f"seq {reveal['seq']}: {faction}'s revealed order differs" in result.stdout


def test_h_end_a_wrong_seed_is_refused(export, tmp_path):
    result = run(export, tmp_path, "--seed", "guess")
    assert result.returncode == 1 and "seed_hash" in result.stdout


@pytest.mark.django_db
def test_h_screen_a_players_export_before_the_end_verifies_its_chain_without_the_draws(client, tmp_path):
    from tests.order_loop_support import two_player_game

    game = two_player_game()
    seat = Seat.objects.filter(game=game).first()
    url = reverse("games:export", args=[game.pk])
    document = client.get(url, HTTP_AUTHORIZATION=f"Bearer {link_token(seat)}").json()
    assert Game.objects.get(pk=game.pk).status != "ended"
    result = run(document, tmp_path)
    assert result.returncode == 0, result.stdout
    assert "redacted" in result.stdout and "seed is revealed when the game ends" in result.stdout
    assert Event.objects.filter(game=game).count() == len(document["events"])


def pinned_copy(document: dict, tmp_path: Path) -> Path:
    """What a player downloaded before the end: every event pinned under the seed, no hash (export.py)."""
    from games.reading.export import chain_pin

    seed = document["game"]["seed"]
    events = [{"seq": e["seq"], "pin": chain_pin(seed, e["hash"]), "hash": None} for e in document["events"]]
    path = tmp_path / "pinned.json"
    path.write_text(json.dumps({"game": {"id": document["game"]["id"]}, "events": events}))
    return path


def test_h_screen_the_pins_of_an_export_from_before_the_end_check_the_final_log(export, tmp_path):
    pinned = pinned_copy(export, tmp_path)
    result = run(export, tmp_path, "--pinned", str(pinned))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(export['events'])} events pinned by the earlier export match" in result.stdout
    forged = copy.deepcopy(export)
    moved = first(forged, "UnitsMoved")
    digit = "1" if moved["created"][-2] != "1" else "2"
    moved["created"] = moved["created"][:-2] + digit + "Z"  # a microsecond later: nothing else checks it
    result = run(rechain(forged), tmp_path, "--pinned", str(pinned))
    assert result.returncode == 1
    assert f"seq {moved['seq']}: the event differs from the one the earlier export pinned" in result.stdout


@pytest.mark.django_db
def test_h_screen_a_players_export_before_the_end_gives_no_hash_and_cannot_be_checked_as_final(
    client, tmp_path
):
    from tests.order_loop_support import two_player_game

    game = two_player_game()
    seat = Seat.objects.filter(game=game).first()
    url = reverse("games:export", args=[game.pk])
    document = client.get(url, HTTP_AUTHORIZATION=f"Bearer {link_token(seat)}").json()
    assert all(e["hash"] is None and e["pin"] for e in document["events"])
    result = run(document, tmp_path)
    assert result.returncode == 0 and "hashes withheld until the game ends" in result.stdout
    earlier = tmp_path / "earlier.json"
    earlier.write_text(json.dumps(document))
    result = run(document, tmp_path, "--pinned", str(earlier))
    assert result.returncode == 1 and "not one without hashes" in result.stdout


# The organiser audit: what a player who is no programmer reads when a check fails.


def test_a_tampered_die_is_explained_in_plain_words_naming_the_event(export, tmp_path):
    forged = copy.deepcopy(export)
    battle = first(forged, "BattleFought")
    battle["payload"]["rounds"][0]["dice"][0] = 7 - battle["payload"]["rounds"][0]["dice"][0]
    result = run(rechain(forged), tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"FAILED at seq {battle['seq']}: the dice shown are not the batch's die draws"
    assert lines[1] == (
        "In plain words: The dice this battle shows are not the dice the game's seed rolled."
        f" (event {battle['seq']}, BattleFought of {battle['created'][:10]})"
    )
    assert lines[2].startswith("So this file is not the game as the server recorded it")


def test_a_changed_event_without_the_chain_recomputed_is_explained(export, tmp_path):
    forged = copy.deepcopy(export)
    income = first(forged, "IncomeReceived")
    income["payload"]["ap"] += 1
    result = run(forged, tmp_path)
    assert result.returncode == 1
    assert "In plain words: This event was changed after the server recorded it." in result.stdout
    assert f"(event {income['seq']}, IncomeReceived of" in result.stdout


@pytest.mark.parametrize("content", ["<!doctype html><html>", '{"format": "aegeapolis-event-log", "ev'])
def test_a_file_that_is_no_export_is_named_so_without_a_traceback(tmp_path, content):
    path = tmp_path / "export.json"
    path.write_text(content)
    result = subprocess.run(
        [sys.executable, "-S", str(SCRIPT), str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.startswith(f"FAILED: the export {path} is not a game export")
    missing = subprocess.run(
        [sys.executable, "-S", str(SCRIPT), str(tmp_path / "nothing.json")], capture_output=True, text=True
    )
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
    assert missing.stdout.startswith(f"FAILED: there is no file {tmp_path / 'nothing.json'}")


def test_pinned_with_an_export_that_has_no_pins_fails_instead_of_checking_nothing(export, tmp_path):
    final = tmp_path / "final-again.json"
    final.write_text(json.dumps(export))
    result = run(export, tmp_path, "--pinned", str(final))
    assert result.returncode == 1, result.stdout
    assert "the earlier export has no pins" in result.stdout
    assert "0 events pinned" not in result.stdout


def test_what_the_script_does_not_check_is_not_labelled_ok(export, tmp_path):
    result = run(export, tmp_path)
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1].startswith("NOT CHECKED HERE: that the rules were applied")
    assert "python -m games.eventstore.replay EXPORT.json" in result.stdout


def test_the_rules_replay_of_an_export_catches_a_coin_the_stand_alone_script_cannot(export, tmp_path):
    """docs/fairness.md: `python3 -m games.eventstore.replay EXPORT.json`
    from the project's code, no Django."""
    root = SCRIPT.parents[1]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    command = [sys.executable, "-m", "games.eventstore.replay", str(path)]
    environment = {"PATH": "/usr/bin:/bin"}  # no DJANGO_SETTINGS_MODULE, no database
    result = subprocess.run(command, capture_output=True, text=True, cwd=root, env=environment, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("OK: the rules, replayed from the seed, give exactly this log")
    forged = copy.deepcopy(export)
    income = next(e for e in forged["events"] if e["type"] == "IncomeReceived" and e["payload"]["coins"])
    design = next(iter(income["payload"]["coins"]))
    other = next(d for d in ("owl", "turtle", "pegasus", "shield") if d not in income["payload"]["coins"])
    income["payload"]["coins"][other] = income["payload"]["coins"].pop(design)
    rechain(forged)
    assert run(forged, tmp_path).returncode == 0  # the script sees no rules
    path.write_text(json.dumps(forged))
    result = subprocess.run(command, capture_output=True, text=True, cwd=root, env=environment, timeout=300)
    assert result.returncode == 1
    assert result.stdout.startswith(f"FAILED at seq {income['seq']}: IncomeReceived")


def test_h_rules_version_the_script_names_the_rules_version_to_replay_the_game_with(export, tmp_path):
    result = run(export, tmp_path)
    assert result.returncode == 0
    version = engine.RULES_VERSION  # a new game is recorded under the server's version
    assert (
        f"in the project's code of rules version {version}, the one this game was recorded under"
        in result.stdout
    )
    old = copy.deepcopy(export)  # a game recorded before the log named rules versions
    for event in old["events"]:
        event["payload"].pop("rules_version", None)
    result = run(rechain(old), tmp_path)
    assert result.returncode == 0, result.stdout  # none of the script's checks needs the rules
    assert "the project's code of the game's time (its log names no rules version)" in result.stdout
    across = copy.deepcopy(export)  # a game played across a rules change: its earlier orders name 1
    orders = [e for e in across["events"] if e["type"] == "OrderGiven"]
    for event in [across["events"][0], *orders[: len(orders) // 2]]:
        event["payload"]["rules_version"] = 1
    result = run(rechain(across), tmp_path)
    assert result.returncode == 0
    assert f"the project's code of each rules version its orders name (1, {version})" in result.stdout
