"""The front door's admin pages (games/admin_frontdoor.py): each list, its filters and searches and
each row's page open for a superuser; nothing is added, changed or deleted there."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import (
    Gathering,
    Invitation,
    SeatHolder,
    SeatRecord,
    SignInRequest,
    SubstituteOffer,
    SubstituteWanted,
)
from games.services import invitations
from games.services.sign_in import ask_for_sign_in
from games.services.substitute_seekers import accept_substitute, offer_to_substitute, seek_substitute
from tests.order_loop_support import two_player_game

pytestmark = pytest.mark.django_db

# Each model's admin, and list queries an operator uses on it (filters and searches).
PAGES = {
    SignInRequest: ["used__isnull=True", "used__isnull=False", "language__exact=en", "q=nora%40example.com"],
    Gathering: ["published__exact=1", "began__isnull=True", "q=Delos"],
    Invitation: ["status__exact=pending", "faction__exact=athens", "q=ana%40example.com"],
    SubstituteWanted: ["filled__isnull=True", "filled__isnull=False", "seat__faction__exact=athens"],
    SubstituteOffer: ["accepted__exact=1", "q=cleo"],
    SeatHolder: ["faction__exact=athens", "q=CLEO%40example.com"],
    SeatRecord: ["faction__exact=athens", "finished__exact=0", "q=Cleo%40Example.com"],
}


@pytest.fixture
def front_door(client):
    """One of each: a sign-in asked, a gathering game with an invitation, a seat sought, offered to
    and handed over (its holders and records), and a superuser signed in."""
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    ask_for_sign_in("nora@example.com", "en")
    gathering = invitations.gather_game(olga, "Delos", "en", 3, published=True)
    invitations.invite(gathering, "ana@example.com", "athens")
    game = two_player_game()
    wanted = seek_substitute(game.seats.get(faction="athens"))
    cleo = get_user_model().objects.create_user("cleo", email="cleo@example.com")
    accept_substitute(offer_to_substitute(wanted, cleo, "Cleo"))
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.com", "pw"))
    return client


@pytest.mark.parametrize("model", list(PAGES), ids=lambda model: model.__name__)
def test_each_front_door_page_opens_read_only_for_a_superuser(front_door, model):
    client = front_door
    name = f"admin:games_{model._meta.model_name}"
    listing = client.get(reverse(f"{name}_changelist"))
    assert listing.status_code == 200
    for query in PAGES[model]:
        filtered = client.get(reverse(f"{name}_changelist") + "?" + query)
        assert filtered.status_code == 200, query  # an unknown filter redirects to ?e=1 (302)
    row = model.objects.order_by("pk").first()
    assert row is not None
    page = client.get(reverse(f"{name}_change", args=[row.pk]))
    assert page.status_code == 200 and 'name="_save"' not in page.text  # no form to change it
    assert client.get(reverse(f"{name}_add")).status_code == 403
    assert client.post(reverse(f"{name}_delete", args=[row.pk]), {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=row.pk).exists()


def test_the_operators_searches_find_what_they_name(front_door):
    client = front_door
    records = client.get(reverse("admin:games_seatrecord_changelist") + "?q=Cleo%40Example.com")
    # Cleo's one holding (from the hand-over on) is listed, with its holder's address.
    assert records.text.count('class="field-holder') == 1 and "cleo@example.com" in records.text
    cleo_record = SeatRecord.objects.get(faction="athens", until_seq=None)
    assert f'<td class="field-since_seq">{cleo_record.since_seq}</td>' in records.text
    never_used = client.get(reverse("admin:games_signinrequest_changelist") + "?used__isnull=True")
    assert "nora@example.com" in never_used.text
    wanted = reverse("admin:games_substitutewanted_changelist")
    assert 'class="field-seat' not in client.get(wanted + "?filled__isnull=True").text  # it was filled
    filled = client.get(wanted + "?filled__isnull=False").text
    assert filled.count('class="field-seat') == 1 and '<td class="field-offer_count">1</td>' in filled
    holders = client.get(reverse("admin:games_seatholder_changelist") + "?q=ana%40example.com")
    assert holders.text.count('class="field-faction') == 1  # Ana held athens until the hand-over
    found = client.get(reverse("admin:games_invitation_changelist") + "?status__exact=pending&q=ana")
    assert "ana@example.com" in found.text
    gatherings = client.get(reverse("admin:games_gathering_changelist") + "?began__isnull=True").text
    assert '<td class="field-accepted">0</td>' in gatherings
