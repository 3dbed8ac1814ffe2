"""Admin for operators: games with seats, verification, the full export; seats; events; outbox."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.models import Event, Game, Seat
from notifications.models import Outbox
from tests.conftest import tamper
from tests.order_loop_support import two_player_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator(client):
    client.force_login(User.objects.create_superuser("op", "op@example.com", "pw"))
    return client


def test_games_list_filters_and_finds_a_game_by_a_players_email(operator):
    game = two_player_game(name="Findable")
    page = operator.get(reverse("admin:games_game_changelist"), {"q": "ben@example.com"})
    assert page.status_code == 200 and "Findable" in page.text
    assert (
        operator.get(reverse("admin:games_game_changelist"), {"status__exact": "active"}).status_code == 200
    )
    detail = operator.get(reverse("admin:games_game_change", args=[game.pk]))
    assert detail.status_code == 200 and "ana@example.com" in detail.text
    assert game.seed not in detail.text  # H-END: the seed is revealed by the log, not by the admin


def test_h_end_the_verify_action_reports_an_intact_and_a_broken_game(operator):
    intact, broken = two_player_game(), two_player_game()
    tamper("UPDATE games_event SET actor = 'forger' WHERE game_id = %s AND seq = 2", [broken.pk])
    url = reverse("admin:games_game_changelist")
    page = operator.post(url, {"action": "verify", "_selected_action": [intact.pk, broken.pk]}, follow=True)
    text = page.text
    assert f"Game {intact.pk}: " in text and "events verified" in text
    assert f"Game {broken.pk} BROKEN at seq 2" in text


def test_the_export_action_downloads_the_full_log(operator):
    game = two_player_game()
    url = reverse("admin:games_game_changelist")
    response = operator.post(url, {"action": "export", "_selected_action": [game.pk]})
    document = json.loads(response.content)
    assert document["viewer"] == "operator" and not any(e["redacted"] for e in document["events"])
    assert len(document["events"]) == Event.objects.filter(game=game).count()


def test_seats_are_listed_and_their_links_can_be_withdrawn(operator):
    game = two_player_game()
    seat = Seat.objects.filter(game=game).first()
    assert operator.get(reverse("admin:games_seat_changelist"), {"q": seat.email}).status_code == 200
    url = reverse("admin:games_seat_changelist")
    operator.post(url, {"action": "revoke", "_selected_action": [seat.pk]})
    seat.refresh_from_db()
    assert seat.token_version == 2
    assert operator.get(reverse("admin:games_seat_add")).status_code == 403


def test_events_filter_by_game_and_show_the_payload_read_only(operator):
    game = two_player_game()
    listing = operator.get(
        reverse("admin:games_event_changelist"), {"q": str(game.pk), "type__exact": "OrderGiven"}
    )
    assert listing.status_code == 200
    event = Event.objects.filter(game=game).first()
    detail = operator.get(reverse("admin:games_event_change", args=[event.pk]))
    assert "seat_order" in detail.text and 'name="_save"' not in detail.text


def test_outbox_is_searchable_by_game(operator):
    game = two_player_game()
    assert Outbox.objects.filter(game_id=game.pk).exists()
    page = operator.get(reverse("admin:notifications_outbox_changelist"), {"q": str(game.pk)})
    assert page.status_code == 200 and "ana@example.com" in page.text
    assert Game.objects.filter(pk=game.pk).exists()
