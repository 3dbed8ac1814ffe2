"""Invitations (docs/front-door.md "Invitations"): a gathering game begins when its seats accepted
(H-SETUP), each change written with its email in one transaction."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.engine.rng import GameRng
from games.mail.frontdoor import token_for
from games.models import Event, Invitation, Seat
from games.services import game_setup, invitations
from games.services.invitations import InvitationError
from notifications.models import Outbox

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
    # The random factions are the draws of GameRng(seed, "seats") over the factions nobody chose.
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
