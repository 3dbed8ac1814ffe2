"""Invitations (docs/front-door.md "Invitations"): a gathering game begins when its seats accepted
(H-SETUP), each change written with its email in one transaction."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone

from games import engine
from games.engine.rng import GameRng
from games.eventstore.verification import verify_game
from games.mail.frontdoor import token_for
from games.models import Event, Game, Invitation, Seat
from games.services import game_setup, invitations
from games.services.invitations import InvitationError
from notifications.models import Outbox
from tests.conftest import tamper
from tests.eventstore.support import rechain

VERIFY_EXPORT = Path(__file__).resolve().parents[2] / "tools" / "verify_export.py"

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga():
    return get_user_model().objects.create_user("olga", email="olga@example.com")


def _token(invitation: Invitation) -> str:
    return token_for("invitation", invitation.pk)


def test_h_setup_a_game_begins_when_every_seat_accepted_with_random_factions_drawn(olga):
    game = invitations.gather_game(olga, "Delos", "en", 3)
    ana = invitations.invite(game, "ana@example.com", "athens")
    ben = invitations.invite(game, "ben@example.com")
    cy = invitations.invite(game, "cy@example.com")
    assert Outbox.objects.filter(kind="invitation", game_id=game.pk).count() == 3
    invitations.answer_invitation(_token(ana), True, "Ana", "en", "Europe/Lisbon")
    invitations.answer_invitation(_token(ben), True, "Ben", "de", "Europe/Berlin")
    assert not Event.objects.filter(game=game).exists()
    invitations.answer_invitation(_token(cy), True, "Cy", "en", "")
    seats = {s.name: s for s in Seat.objects.filter(game=game)}
    assert seats["Ana"].faction == "athens" and seats["Ben"].language == "de"
    assert seats["Ben"].time_zone == "Europe/Berlin" and seats["Ben"].language_chosen
    assert Event.objects.filter(game=game, type="GameStarted").exists()
    assert Outbox.objects.filter(kind="welcome", game_id=game.pk).count() == 3
    # The random factions are the draws of GameRng(seed, -1) over the factions nobody chose, in
    # invitation order; each invitation keeps its own.
    rng = GameRng(game.seed, invitations.SEAT_DRAW_POSITION)
    free = ["corinth", "sparta", "thebes"]
    ben_faction = free.pop(rng.randbelow(3, "faction"))
    cy_faction = free.pop(rng.randbelow(2, "faction"))
    assert (seats["Ben"].faction, seats["Cy"].faction) == (ben_faction, cy_faction)
    ben.refresh_from_db()
    assert ben.draw == ["faction", 3, rng.transcript[0][2]]


def test_a_decline_frees_the_seat_for_another_invitation(olga):
    game = invitations.gather_game(olga, "", "en", 2)
    ana = invitations.invite(game, "ana@example.com")
    dan = invitations.invite(game, "dan@example.com")
    with pytest.raises(InvitationError, match="Every seat"):
        invitations.invite(game, "eve@example.com")
    invitations.answer_invitation(_token(dan), False)
    assert Outbox.objects.filter(kind="invite-answer", to_email="olga@example.com").exists()
    eve = invitations.invite(game, "eve@example.com")
    invitations.answer_invitation(_token(ana), True, "Ana")
    invitations.answer_invitation(_token(eve), True, "Eve")
    assert sorted(Seat.objects.filter(game=game).values_list("name", flat=True)) == ["Ana", "Eve"]
    with pytest.raises(InvitationError):
        invitations.answer_invitation(_token(dan), True, "Dan")


def test_bad_invitations_and_answers_change_nothing(olga):
    game = invitations.gather_game(olga, "", "en", 3)
    ana = invitations.invite(game, "ana@example.com", "sparta")
    for email, faction, said in [
        ("ANA@example.com", "", "invited already"),
        ("bo@example.com", "sparta", "promised"),
        ("not an address", "", "not an email address"),
        ("bo@example.com", "rome", "Unknown faction"),
    ]:
        with pytest.raises(InvitationError, match=said):
            invitations.invite(game, email, faction)
    with pytest.raises(InvitationError, match="not valid"):
        invitations.answer_invitation("1:forged", True, "X")
    with pytest.raises(InvitationError, match="name"):
        invitations.answer_invitation(_token(ana), True, "  ")
    assert Invitation.objects.filter(game=game).count() == 1
    assert Outbox.objects.filter(game_id=game.pk).count() == 1
    ana.refresh_from_db()
    assert ana.status == Invitation.Status.PENDING


def test_the_organiser_begins_with_two_who_accepted_and_the_waiting_lapse(olga):
    game = invitations.gather_game(olga, "", "en", 4)
    ana, ben, cy = (invitations.invite(game, f"{n}@example.com") for n in ("ana", "ben", "cy"))
    invitations.answer_invitation(_token(ana), True, "Ana")
    with pytest.raises(InvitationError, match="two have accepted"):
        invitations.begin_gathered_game(game)
    invitations.answer_invitation(_token(ben), True, "Ben")
    invitations.begin_gathered_game(game)
    cy.refresh_from_db()
    assert cy.status == Invitation.Status.LAPSED
    assert Seat.objects.filter(game=game).count() == 2
    with pytest.raises(InvitationError, match="begun"):
        invitations.invite(game, "dan@example.com")


def test_unanswered_invitations_are_reminded_then_lapse_freeing_the_seat(olga):
    game = invitations.gather_game(olga, "", "en", 2)
    ana = invitations.invite(game, "ana@example.com")
    sent = ana.created
    assert invitations.remind_and_lapse(sent + timedelta(hours=1)) == 0
    assert invitations.remind_and_lapse(sent + timedelta(hours=49)) == 1
    assert invitations.remind_and_lapse(sent + timedelta(hours=50)) == 0  # once per reminder point
    reminder = Outbox.objects.get(kind="invite-remind")
    assert reminder.seq == 1 and reminder.to_email == "ana@example.com"
    assert invitations.remind_and_lapse(timezone.now() + timedelta(days=8)) == 1
    ana.refresh_from_db()
    assert ana.status == Invitation.Status.LAPSED
    assert invitations.invite(game, "ana@example.com").status == Invitation.Status.PENDING


def test_a_stranger_takes_a_free_seat_of_an_open_game_only(olga):
    game = invitations.gather_game(olga, "", "en", 2, published=True)
    invitations.invite(game, "ana@example.com")
    zoe = get_user_model().objects.create_user("zoe", email="zoe@example.com")
    taken = invitations.take_open_seat(game, zoe, "Zoe", "de", "")
    assert taken.status == Invitation.Status.ACCEPTED and taken.email == "zoe@example.com"
    closed = invitations.gather_game(olga, "", "en", 2)
    with pytest.raises(InvitationError, match="not open"):
        invitations.take_open_seat(closed, zoe, "Zoe", "de", "")


def test_no_email_exists_for_an_answer_that_did_not_commit(olga, monkeypatch):
    """The last acceptance opens the game in its own transaction: when the opening fails, the
    acceptance, its notice to the organiser and every welcome are rolled back together."""
    game = invitations.gather_game(olga, "", "en", 2)
    ana, ben = invitations.invite(game, "ana@example.com"), invitations.invite(game, "ben@example.com")
    invitations.answer_invitation(_token(ana), True, "Ana")
    before = list(Outbox.objects.values_list("kind", "to_email"))

    def broken(*args, **kwargs):
        raise RuntimeError("the opening failed")

    monkeypatch.setattr(invitations, "seat_and_open", broken)
    with pytest.raises(RuntimeError):
        invitations.answer_invitation(_token(ben), True, "Ben")
    ben.refresh_from_db()
    assert ben.status == Invitation.Status.PENDING
    assert list(Outbox.objects.values_list("kind", "to_email")) == before
    monkeypatch.setattr(invitations, "seat_and_open", game_setup.seat_and_open)
    invitations.answer_invitation(_token(ben), True, "Ben")
    assert Seat.objects.filter(game=game).count() == 2


def test_an_invitations_token_is_signed_as_it_is_sent_never_stored(olga):
    game = invitations.gather_game(olga, "", "en", 2)
    ana = invitations.invite(game, "ana@example.com")
    row = Outbox.objects.get(kind="invitation")
    assert _token(ana) not in str(row.context) and row.context["links_of"] == {"invitation": ana.pk}


def test_the_beat_runs_the_invitations_reminders(settings):
    from games.tasks import remind_invitations

    entry = settings.CELERY_BEAT_SCHEDULE["games-remind-invitations"]
    assert entry["task"] == remind_invitations.name == "games.remind_invitations"
    assert remind_invitations.delay().get() == 0


def _gathered(olga, factions: list[str]) -> Game:
    """A gathered game whose invitations ask for `factions` ("" for random), all accepted."""
    game = invitations.gather_game(olga, "Delos", "en", len(factions))
    names = ["Ana", "Ben", "Cy", "Dora"][: len(factions)]
    asked = [
        invitations.invite(game, f"{n.lower()}@example.com", f) for n, f in zip(names, factions, strict=True)
    ]
    for name, invitation in zip(names, asked, strict=True):
        invitations.answer_invitation(_token(invitation), True, name)
    return game


def _verify_export(game: Game, tmp_path: Path) -> subprocess.CompletedProcess:
    """tools/verify_export.py, standard library only, on the operator's export (the seed given)."""
    path = tmp_path / "export.json"
    call_command("exportgame", str(game.pk), output=str(path), stderr=io.StringIO())
    command = [sys.executable, "-S", str(VERIFY_EXPORT), str(path), "--seed", game.seed]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_h_setup_the_random_factions_draw_is_in_the_log_and_both_verifiers_accept_it(olga, tmp_path):
    game = _gathered(olga, ["sparta", "", ""])

    started, drawn = Event.objects.filter(game=game).order_by("seq")[:2]
    assert (started.type, drawn.type, drawn.actor) == ("GameStarted", "FactionsDrawn", "organiser")
    assert drawn.payload == engine.draw_factions(["sparta"], 2, game.seed).payload
    # The seats that asked for random got the factions drawn, in invitation order; the log names
    # the factions only, never who asked.
    random_seats = Invitation.objects.filter(game=game).exclude(email="ana@example.com").order_by("pk")
    assert [i.faction for i in random_seats] == drawn.payload["drawn"]
    assert [i.draw for i in random_seats] == drawn.payload["draws"]
    assert not {"Ben", "Cy", "ben@example.com", "cy@example.com"} & set(json.dumps(drawn.payload).split('"'))
    assert sorted(Seat.objects.filter(game=game).values_list("faction", flat=True)) == sorted(
        started.payload["seat_order"]
    )
    report = verify_game(game)
    assert report.ok and report.replay.draws == 2 + _opening_draws(game)
    result = _verify_export(game, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{2 + _opening_draws(game)} draws re-derived and matched" in result.stdout


def _opening_draws(game: Game) -> int:
    return len(Event.objects.get(game=game, type="RandomnessDrawn").payload["draws"])


def test_h_setup_a_gathered_game_whose_factions_were_all_chosen_opens_as_a_named_one(olga):
    game = _gathered(olga, ["thebes", "athens"])

    types = list(Event.objects.filter(game=game).order_by("seq").values_list("type", flat=True))
    named = engine.opening_recorded({"factions": ["thebes", "athens"]}, game.seed)
    assert types == [event.type for event in named] and "FactionsDrawn" not in types
    assert verify_game(game).ok


@pytest.mark.parametrize("forgery", ["drawn", "draw value"])
def test_h_setup_both_verifiers_refuse_a_faction_draw_changed_with_the_chain_recomputed(
    olga, tmp_path, forgery
):
    """A forger with the database gives a random seat another free faction (in the record alone,
    or with the draw's value made to pick it) and recomputes every hash: verifygame's replay and
    the players' stand-alone script both name the FactionsDrawn event."""
    game = _gathered(olga, ["athens", ""])
    record = Event.objects.get(game=game, type="FactionsDrawn")
    payload = record.payload
    pool, (drawn,) = payload["pool"], payload["drawn"]
    other = next(faction for faction in pool if faction != drawn)
    payload["drawn"] = [other]
    if forgery == "draw value":
        payload["draws"][0][2] = pool.index(other)
    tamper("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(payload), record.pk])
    rechain(game)

    report = verify_game(game)
    assert report.chain.ok and not report.ok and report.problem.seq == record.seq
    assert report.problem.reason == "FactionsDrawn: the payload differs from the replay's"
    # The stand-alone script's checks, which verifygame runs too, name it without the rules.
    said = {"drawn": f"the factions drawn are ['{other}']", "draw value": "faction draw 0 (faction) is"}
    assert report.draws.seq == record.seq and report.draws.reason.startswith(said[forgery])
    with pytest.raises(CommandError, match=f"game {game.pk} seq {record.seq}"):
        call_command("verifygame", str(game.pk), stdout=io.StringIO(), stderr=io.StringIO())
    result = _verify_export(game, tmp_path)
    assert result.returncode == 1 and f"FAILED at seq {record.seq}: " in result.stdout
    assert "drawn at random" in result.stdout  # the plain words name what was forged


def test_h_setup_both_verifiers_refuse_seats_that_are_not_the_factions_chosen_and_drawn(olga, tmp_path):
    """The record intact, the rest of the opening rewritten for other factions (as a forger who
    wants it to replay would: the events the rules give for them) and the chain recomputed: the
    game's factions are not those chosen and drawn, and both verifiers name the record."""
    game = _gathered(olga, ["athens", ""])
    record = Event.objects.get(game=game, type="FactionsDrawn")
    other = next(f for f in record.payload["pool"] if f not in record.payload["drawn"])
    forged = engine.opening_recorded({"factions": ["athens", other]}, game.seed)
    rows = Event.objects.filter(game=game).exclude(pk=record.pk).order_by("seq")
    assert len(rows) == len(forged)
    for row, event in zip(rows, forged, strict=True):
        assert row.type == event.type
        tamper("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(event.payload), row.pk])
    rechain(game)

    report = verify_game(game)
    reason = "the game's factions (GameStarted) are not the factions chosen and drawn here"
    assert report.chain.ok and report.replay.problem.seq == record.seq
    assert report.replay.problem.reason == reason  # the rules' replay
    assert (report.draws.seq, report.draws.reason) == (record.seq, reason)  # the script's check
    result = _verify_export(game, tmp_path)
    assert result.returncode == 1 and f"FAILED at seq {record.seq}: {reason}" in result.stdout
