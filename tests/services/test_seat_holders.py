"""Who held each seat (docs/front-door.md "Reliability"): the services write SeatHolder with the
opening and each hand-over, an operator's correction of an address corrects it, and the migration
fills it for the games there were."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.forms.models import model_to_dict
from django.urls import reverse

from games.eventstore.projections import rebuild_projections
from games.mail.frontdoor import token_for
from games.models import Event, SeatHolder, SeatRecord
from games.projectors.reliability import reliability_of
from games.services import invitations
from games.services.game_setup import create_game
from games.services.substitutes import hand_over_seat
from tests.order_loop_support import ANA, BEN, two_player_game

pytestmark = pytest.mark.django_db


def _holders(game) -> list[tuple[str, int, str]]:
    return list(SeatHolder.objects.filter(game=game).values_list("faction", "since_seq", "email"))


def test_a_gathered_game_seats_its_holders_with_its_opening():
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    game = invitations.gather_game(olga, "Delos", "en", 2)
    for email, name in [("Ana@Example.com", "Ana"), ("ben@example.com", "Ben")]:
        invitation = invitations.invite(game, email, "athens" if name == "Ana" else "sparta")
        invitations.answer_invitation(token_for("invitation", invitation.pk), True, name)
    opening = Event.objects.get(game=game, type="GameStarted").seq
    assert _holders(game) == [("athens", opening, "Ana@Example.com"), ("sparta", opening, "ben@example.com")]
    assert reliability_of("ana@example.com").games_played == 1


def test_a_scenario_game_seats_its_holders_with_its_one_opening_event():
    scenario = json.loads(
        (Path(__file__).resolve().parents[2] / "docs/scenarios/siege-of-megara.json").read_text()
    )
    game = create_game([ANA, BEN], scenario=scenario)
    (opening,) = Event.objects.filter(game=game).values_list("seq", flat=True)  # ScenarioLoaded alone
    assert _holders(game) == [("athens", opening, "ana@example.com"), ("sparta", opening, "ben@example.com")]
    records = SeatRecord.objects.filter(game=game).values_list("faction", "since_seq", "played")
    assert sorted(records) == [("athens", opening, 1), ("sparta", opening, 1)]


def test_a_hand_over_adds_the_substitutes_row_and_keeps_the_predecessors():
    game = two_player_game()
    hand_over_seat(game.seats.get(faction="athens"), "Cleo", "cleo@example.com")
    handed_over = Event.objects.get(game=game, type="SeatHandedOver").seq
    assert _holders(game) == [
        ("athens", 1, "ana@example.com"),
        ("athens", handed_over, "cleo@example.com"),
        ("sparta", 1, "ben@example.com"),
    ]


def test_an_address_corrected_in_the_admin_corrects_the_present_holder_only(admin_client):
    game = two_player_game()
    athens = game.seats.get(faction="athens")
    hand_over_seat(athens, "Cleo", "cleo@exmaple.com")  # the organiser's typo
    handed_over = Event.objects.get(game=game, type="SeatHandedOver").seq
    form = model_to_dict(athens, fields=["name", "email", "language"]) | {"email": "cleo@example.com"}
    response = admin_client.post(reverse("admin:games_seat_change", args=[athens.pk]), form)
    assert response.status_code == 302
    ana, cleo = ("athens", 1, "ana@example.com"), ("athens", handed_over, "cleo@example.com")
    assert _holders(game)[:2] == [ana, cleo]  # the typo corrected; Ana's holding is still hers
    assert reliability_of("cleo@example.com").games_played == 1
    assert reliability_of("cleo@exmaple.com").games_played == 0


def test_the_migration_fills_the_holders_from_the_seats_and_the_records_from_the_logs():
    """A game from before the holders: its present holders are its seats' addresses, from the last
    hand-over or the opening (who held a seat before a hand-over is in no table); its records are
    what a rebuild gives."""
    game = two_player_game()
    hand_over_seat(game.seats.get(faction="athens"), "Cleo", "cleo@example.com")
    handed_over = Event.objects.get(game=game, type="SeatHandedOver").seq
    rebuild_projections()
    records = [model_to_dict(r, exclude=["id"]) for r in SeatRecord.objects.all()]
    SeatHolder.objects.all().delete()
    SeatRecord.objects.all().delete()
    migration = importlib.import_module("games.migrations.0013_seat_holders_and_records")
    migration.fill(apps, None)
    assert _holders(game) == [("athens", handed_over, "cleo@example.com"), ("sparta", 1, "ben@example.com")]
    assert [model_to_dict(r, exclude=["id"]) for r in SeatRecord.objects.all()] == records
