"""The history page, its replay control and the export (docs/export.md): H-SCREEN redaction, H-END reveal."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from games.engine import Pass
from games.eventstore.hashing import event_hash
from games.models import Event
from games.reading.export import EXPORT_FORMAT, EXPORT_VERSION, chain_pin
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.orders import submit_order
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


def history_url(seat, **query: str) -> str:
    url = reverse("games:play-rest", args=[seat.game_id, link_token(seat), "history/"])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def pass_turns(game, count: int) -> None:
    for _ in range(count):
        (seat,) = seats_to_act(game)
        submit_order(game, seat, Pass(seat.faction), load_game(game).seq)


def test_h_screen_history_defaults_to_since_my_last_turn_and_can_show_everything(client):
    game = two_player_game()
    pass_turns(game, 3)
    seat = game.seats.get(faction=Event.objects.filter(game=game, type="OrderGiven").first().actor)
    last_order = (
        Event.objects.filter(game=game, type="OrderGiven", actor=seat.faction).order_by("-seq").first()
    )

    page = client.get(history_url(seat))
    assert page.status_code == 200
    seqs = [entry.seq for entry in page.context["entries"]]
    assert seqs and min(seqs) >= last_order.seq
    everything = client.get(history_url(seat, since="all"))
    assert "The game began" in everything.content.decode()
    assert min(e.seq for e in everything.context["entries"]) == 1


def test_h_screen_history_filters_by_player_and_year(client):
    game = two_player_game()
    pass_turns(game, 2)
    seat = game.seats.first()
    other = game.seats.exclude(pk=seat.pk).get()

    page = client.get(history_url(seat, since="all", player=other.faction))
    assert page.context["entries"] and all(other.faction in e.parties for e in page.context["entries"])
    year = client.get(history_url(seat, since="all", year="430"))
    assert year.context["entries"] == []
    assert client.get(history_url(seat, since="all", year="431")).context["entries"]


def test_h_screen_replay_shows_the_board_and_supplies_at_any_event(client):
    game = two_player_game()
    pass_turns(game, 2)
    seat = game.seats.first()
    page = client.get(history_url(seat, at="1"))
    assert page.context["board"].seq == 1
    assert "<svg" in page.content.decode()
    rows = {row["faction"]: row for row in page.context["board"].supplies}
    other = next(f for f in rows if f != seat.faction)
    assert rows[other]["screen"] == "hidden"


def test_h_screen_history_page_is_german_for_a_german_seat(client):
    game = two_player_game(language="de")
    seat = game.seats.first()
    page = client.get(history_url(seat), HTTP_ACCEPT_LANGUAGE="de")
    assert page["Content-Language"] == "de"


def test_a_forged_link_opens_no_history(client):
    game = two_player_game()
    assert client.get(reverse("games:play-rest", args=[game.pk, "forged", "history/"])).status_code == 403


def test_organiser_history_needs_the_organisers_login(client):
    user = get_user_model().objects.create_user("org", password="pw")
    game = two_player_game(organiser=user)
    url = reverse("games:organiser-history", args=[game.pk])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(user)
    page = client.get(url)
    assert page.status_code == 200 and page.context["viewer"] is None
    stranger = get_user_model().objects.create_user("other", password="pw")
    client.force_login(stranger)
    assert client.get(url).status_code == 404


def test_export_is_versioned_redacted_for_the_token_and_pins_every_event(client):
    game = two_player_game()
    pass_turns(game, 2)
    seat = game.seats.first()
    url = reverse("games:export", args=[game.pk])

    assert client.get(url).status_code == 403
    document = client.get(url, HTTP_AUTHORIZATION=f"Bearer {link_token(seat)}").json()
    assert (document["format"], document["version"], document["viewer"]) == (
        EXPORT_FORMAT,
        EXPORT_VERSION,
        seat.faction,
    )
    assert document["game"]["seed"] is None
    redacted = [e for e in document["events"] if e["redacted"]]
    assert {e["type"] for e in redacted} >= {"GameStarted", "RandomnessDrawn"}  # others' hands, every draw
    # H-SCREEN: before the end no hash is given (a redacted event's hash, or any hash chained after
    # it, could be tried against every candidate secret); each event is pinned under the seed instead.
    stored = {e.seq: e for e in Event.objects.filter(game=game)}
    for event in document["events"]:
        assert event["hash"] is None and event["prev_hash"] is None
        row = stored[event["seq"]]
        assert event["pin"] == chain_pin(game.seed, row.hash)
        if not event["redacted"]:
            fields = {k: event[k] for k in ("seq", "type", "payload", "actor", "schema_version", "created")}
            assert event_hash(game_id=game.pk, prev_hash=row.prev_hash, **fields) == row.hash


@pytest.mark.parametrize(
    ("language", "anonymous", "stranger"),
    [
        ("en", "Send your link's token or sign in.", "No such game among yours."),
        (
            "de",
            "Sende den Schlüssel aus deinem Link oder melde dich an.",
            "Keine solche Partie unter deinen.",
        ),
    ],
)
def test_export_refusals_are_in_the_readers_language(client, language, anonymous, stranger):
    """The export's two refusals of its own were English only, whatever the reader's language."""
    game = two_player_game()
    url = reverse("games:export", args=[game.pk])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 403
    assert response.json()["error"] == {"code": "unauthenticated", "message": anonymous}
    client.force_login(get_user_model().objects.create_user("nosy", password="pw"))
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert response.json()["error"] == {"code": "unknown", "message": stranger}


def test_exportgame_writes_the_full_log_for_the_operator(tmp_path):
    game = two_player_game()
    pass_turns(game, 1)
    target = tmp_path / "export.json"
    call_command("exportgame", str(game.pk), output=str(target), stderr=io.StringIO())
    document = json.loads(target.read_text())
    assert document["viewer"] == "operator"
    assert not any(e["redacted"] for e in document["events"])
    assert len(document["events"]) == Event.objects.filter(game=game).count()


def test_h_takeback_the_history_marks_the_events_of_an_order_taken_back(client):
    """The log keeps an order that was taken back (nothing is deleted); the history tells its events
    marked as taken back, so the same turn told twice has its reason beside it. The take-back itself
    and the order given again are not marked."""
    from games.services.messages import send_message
    from games.services.take_back import take_back_order

    game = two_player_game()
    (first,) = seats_to_act(game)
    other = game.seats.exclude(pk=first.pk).get()
    given = submit_order(game, first, Pass(first.faction), load_game(game).seq)
    send_message(other, first.faction, "Too quick!")  # the table's talk in between stays as it was
    taken = take_back_order(game, first, given.seq)
    again = submit_order(game, first, Pass(first.faction), taken.seq)

    page = client.get(history_url(first, since="all"))
    entries = {e.seq: e for e in page.context["entries"]}
    order_seq = given.seq - len(given.events) + 1
    undone = [e for e in entries.values() if e.taken_back]
    assert undone and all(order_seq <= e.seq <= given.seq for e in undone)
    assert {e.seq for e in undone} == {s for s in entries if order_seq <= s <= given.seq}
    assert not any(e.taken_back for e in entries.values() if e.type in ("MessageSent", "OrderTakenBack"))
    assert not any(entries[s].taken_back for s in entries if s > taken.seq)
    assert again.seq > taken.seq
    html = page.content.decode()
    assert html.count('class="taken-back"') == len(undone) and "(taken back)" in html
