"""The Django admin shows events read-only: no add, change or delete, whoever asks."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.models import Event


@pytest.fixture
def admin_client_with_event(client, game, append):
    append(game, "GameStarted", seed_hash="ab")
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw"))
    return client, Event.objects.get(game=game, seq=1)


def test_a_superuser_sees_the_events_list_and_an_event(admin_client_with_event):
    client, event = admin_client_with_event

    listing = client.get(reverse("admin:games_event_changelist"))
    detail = client.get(reverse("admin:games_event_change", args=[event.pk]))

    assert listing.status_code == 200 and "GameStarted" in listing.text
    assert detail.status_code == 200
    assert "seed_hash" in detail.text
    assert 'name="_save"' not in detail.text  # read-only: no save button, no form fields
    assert 'name="payload"' not in detail.text


def test_adding_changing_and_deleting_events_is_forbidden(admin_client_with_event):
    client, event = admin_client_with_event

    assert client.get(reverse("admin:games_event_add")).status_code == 403
    assert (
        client.post(reverse("admin:games_event_change", args=[event.pk]), {"type": "Forged"}).status_code
        == 403
    )
    assert (
        client.post(reverse("admin:games_event_delete", args=[event.pk]), {"post": "yes"}).status_code == 403
    )
    assert Event.objects.get(pk=event.pk).type == "GameStarted"


def test_the_read_models_are_read_only_and_games_are_listed(admin_client_with_event):
    client, event = admin_client_with_event

    assert client.get(reverse("admin:games_game_changelist")).status_code == 200
    assert client.get(reverse("admin:games_gamesummary_changelist")).status_code == 200
    assert client.get(reverse("admin:games_snapshot_changelist")).status_code == 200
    assert client.get(reverse("admin:games_gamesummary_add")).status_code == 403
