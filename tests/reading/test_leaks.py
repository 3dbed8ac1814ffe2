"""The leak test (H-SCREEN, H-MISSIONS, H-WINTER-ORDERS, H-END).

Seeded bots play whole games through submit_order. After the first batch that shows each event
type, and at a sample of other points, every page, email and JSON answer of every player (and
the organiser) is rendered, and none may hold what only another player may know:

- their coins behind the screen and Mission Cards, in the page's, the JSON's and the history's
  player data, which must say "hidden" and a count;
- their Mission Card ids (each card is unique, so an id is a secret until it is scored);
- the salt of an order they sealed and have not revealed, and the game's seed;
- any sentence the omniscient narrator would say about an event that differs from what this
  reader is told: "Sparta received 2 owl" where the reader reads "coins behind their screen";
- in the export, any secret field of an event about another player.

After the end everything is shown to everyone, the seed included.
"""

from __future__ import annotations

import html
import itertools
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.engine.simulation import players_to_act, random_legal_command
from games.engine.state import GameState
from games.eventstore.hashing import event_hash
from games.models import Event, Game, Seat
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.messages import send_message
from games.services.orders import submit_order
from games.words.narration import describe, is_told
from notifications.models import Outbox
from notifications.services import rendered
from tests.browser_like_client import BrowserLikeClient

pytestmark = pytest.mark.django_db

HIDDEN = "hidden"
# Events whose words with everything shown tell what only their player may know (H-SCREEN,
# H-MISSIONS, H-WINTER-ORDERS): the coins drawn, the card drawn, the order sealed.
SECRET_ABOUT_THEIR_PLAYER = ("IncomeReceived", "MissionCardDrawn", "WinterOrderSealed")
SAMPLE_EVERY = 25  # orders between two full renders when no new event type showed up
PLAYERS = [
    PlayerSpec("Ana", "ana@example.com", "athens"),
    PlayerSpec("Ben", "ben@example.com", "sparta"),
    PlayerSpec("Cleo", "cleo@example.com", "corinth"),
]


@dataclass
class Reader:
    faction: str | None  # None: the organiser
    client: BrowserLikeClient
    token: str = ""
    seat_id: int | None = None
    emails_seen: int = 0
    checks: int = 0


@dataclass
class Secrets:
    """What `owner` alone may know at this moment, from the full state and the log."""

    cards: dict[str, list[str]] = field(default_factory=dict)
    salts: dict[str, str] = field(default_factory=dict)
    sentences: dict[str | None, set[str]] = field(default_factory=dict)  # reader -> omniscient lines
    messages: dict[str, set[str | None]] = field(default_factory=dict)  # text -> who may read it


def _secrets(state: GameState, rows: list[Event], readers: list[Reader]) -> Secrets:
    secrets = Secrets()
    for faction, player in state.players.items():
        secrets.cards[faction] = list(player.mission_cards)
        order = state.winter_orders.get(faction)
        if order and order.get("salt"):
            secrets.salts[faction] = order["salt"]
    for reader in readers:
        lines, told = set(), set()
        for row in rows:
            if not is_told(row.type):
                continue
            omniscient = describe(row.type, row.payload, None, game_over=True, game=None)
            own = describe(row.type, row.payload, reader.faction, game=None)
            told.add(own)
            # Secret by the rules themselves, whatever the redaction under test says; and anything
            # else the narrator would say otherwise with everything shown.
            secret = row.type in SECRET_ABOUT_THEIR_PLAYER and row.payload["player"] != reader.faction
            if secret or omniscient != own:
                lines.add(omniscient)
        # A line the reader is told about another event is no leak: "Athens conquered B4." is
        # everyone's line for a conquest without loot, and what others read of one with loot.
        secrets.sentences[reader.faction] = lines - told
    for row in rows:
        if row.type == "MessageSent":
            secrets.messages[row.payload["text"]] = {row.payload["player"], *row.payload["to"]}
    return secrets


def _card_pattern(card: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(card)}(?![\w-])")


def assert_no_secret_text(text: str, reader: Reader, secrets: Secrets, seed: str, where: str) -> None:
    plain = html.unescape(text)
    assert seed not in plain, f"{where}: the seed before the end"
    for owner, cards in secrets.cards.items():
        if owner == reader.faction:
            continue
        for card in cards:
            assert not _card_pattern(card).search(plain), f"{where}: {owner}'s Mission Card {card}"
        if owner in secrets.salts:
            assert secrets.salts[owner] not in plain, f"{where}: {owner}'s sealed order's salt"
    for text, allowed in secrets.messages.items():
        assert reader.faction in allowed or text not in plain, f"{where}: a private message"
    for line in secrets.sentences[reader.faction]:
        assert line not in plain, f"{where}: told {line!r}"
    reader.checks += 1


def assert_players_hidden(players: dict[str, Any], reader: Reader, where: str) -> None:
    for owner, player in players.items():
        if owner != reader.faction:
            assert player["coins_behind_screen"] == HIDDEN, f"{where}: {owner}'s screen"
            assert isinstance(player["mission_cards"], int), f"{where}: {owner}'s Mission Cards"


def assert_export_redacted(document: dict[str, Any], reader: Reader, where: str) -> None:
    assert document["game"]["seed"] is None
    for event in document["events"]:
        # A hash would let the reader try every candidate secret of a redacted event against it.
        assert event["hash"] is None and event["prev_hash"] is None, f"{where}: hash at seq {event['seq']}"
        p, mine = event["payload"], event["payload"].get("player") == reader.faction
        kind = event["type"]
        if kind == "RandomnessDrawn":
            assert p["draws"] == HIDDEN, f"{where}: draws at seq {event['seq']}"
        elif kind == "GameStarted":
            for owner, hand in p["mission_hands"].items():
                assert owner == reader.faction or isinstance(hand, int), f"{where}: {owner}'s hand"
        elif mine:
            continue
        elif kind == "IncomeReceived":
            assert p["coins"] == HIDDEN, f"{where}: income coins at seq {event['seq']}"
            # H-FACTION: Thebes' own economy coins go behind its screen as well
            assert p.get("economy", {}).get("coins", HIDDEN) == HIDDEN, f"{where}: economy at {event['seq']}"
        elif kind == "MissionCardDrawn":
            assert p["card"] == HIDDEN and p["coin"] == HIDDEN, f"{where}: Oracle at seq {event['seq']}"
        elif kind == "WinterOrderSealed":
            assert set(p) == {"player", "order", "commitment"}, f"{where}: sealed order at seq {event['seq']}"
        elif kind == "OrderGiven":
            assert set(p["command"]) == {"kind", "player"}, f"{where}: order at seq {event['seq']}"
        elif kind in ("OfferMade", "OfferAccepted") and reader.faction not in (p.get("to"), p.get("from")):
            assert p["give"]["coins"] == HIDDEN and p["take"]["coins"] == HIDDEN, f"{where}: offer coins"


def render_all(game: Game, reader: Reader, secrets: Secrets, at_seq: int) -> None:
    """Every page, email and JSON answer `reader` can get now, checked for the secrets."""
    client, seed = reader.client, game.seed
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {reader.token}"} if reader.token else {}
    if reader.faction is not None:
        page = client.get(reverse("games:play", args=[game.pk, reader.token]))
        history = reverse("games:play-rest", args=[game.pk, reader.token, "history/"])
        state = client.get(reverse("games:api-state", args=[game.pk]), **bearer)
        assert state.status_code == 200
        body = state.json()
        assert_players_hidden(body["view"]["players"], reader, "api state")
        assert body["view"]["bag"] == HIDDEN
        assert_no_secret_text(json.dumps(body, ensure_ascii=False), reader, secrets, seed, "api state")
        assert_players_hidden({p["faction"]: p for p in page.context["players"]}, reader, "player page")
    else:
        page = client.get(reverse("games:organiser-game", args=[game.pk]))
        history = reverse("games:organiser-history", args=[game.pk])
    assert page.status_code == 200
    assert_no_secret_text(page.content.decode(), reader, secrets, seed, "player page")
    for query in ("", "?since=all", f"?since=all&at={at_seq}"):
        shown = client.get(history + query)
        assert shown.status_code == 200
        for row in shown.context["board"].supplies:
            if row["faction"] != reader.faction:
                assert row["screen"] == HIDDEN and isinstance(row["cards"], int), f"history supplies {query}"
        assert_no_secret_text(shown.content.decode(), reader, secrets, seed, f"history{query}")
    export = client.get(reverse("games:export", args=[game.pk]), **bearer)
    assert export.status_code == 200
    assert_export_redacted(export.json(), reader, "export")
    assert_no_secret_text(export.content.decode(), reader, secrets, seed, "export")
    read_new_emails(game, reader, secrets)


def read_new_emails(game: Game, reader: Reader, secrets: Secrets, up_to_seq: int | None = None) -> None:
    """Every email of the reader's seat not yet read (up to `up_to_seq`), checked for the secrets."""
    if reader.seat_id is None:
        return
    unread = Outbox.objects.filter(seat_id=reader.seat_id).order_by("id")
    if up_to_seq is not None:
        unread = unread.filter(seq__lte=up_to_seq)
    emails = list(unread[reader.emails_seen :])
    reader.emails_seen += len(emails)
    for row in emails:
        # The email as the worker sends it: its template rendered with its context and what the
        # worker tells at sending (what happened since the last turn); the row keeps no body.
        email = rendered(row)
        assert email.text and email.html, f"email {row.kind} seq {row.seq} renders empty"
        text = email.subject + email.text + email.html
        assert_no_secret_text(text, reader, secrets, game.seed, f"email {row.kind} seq {row.seq}")


def _readers(game: Game, organiser) -> list[Reader]:  # type: ignore[no-untyped-def]
    readers = []
    for seat in Seat.objects.filter(game=game).order_by("id"):
        readers.append(Reader(seat.faction, BrowserLikeClient(), link_token(seat), seat.pk))
    staff = BrowserLikeClient()
    staff.force_login(organiser)
    return [*readers, Reader(None, staff)]


def test_h_screen_no_page_email_or_json_shows_another_players_secrets_before_the_end():
    organiser = get_user_model().objects.create_user("organiser-leaks", password="pw")
    game = create_game(PLAYERS, organiser=organiser)
    readers = _readers(game, organiser)
    bot = random.Random(2026)
    seen_types: set[str] = set()
    last_types: set[str] = set()
    orders = 0
    send_message(Seat.objects.get(game=game, faction="athens"), "sparta", "Secret plan: XYZZY-1 at dawn")
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    secrets = _secrets(load_game(game).state, rows, readers)
    for reader in readers:
        render_all(game, reader, secrets, 1)
    seen_types |= {row.type for row in rows}
    while True:
        loaded = load_game(game)
        waiting = players_to_act(loaded.state)
        if not waiting:
            break
        faction = bot.choice(waiting)
        command = random_legal_command(loaded.state, faction, bot)
        result = submit_order(game, Seat.objects.get(game=game, faction=faction), command, loaded.seq)
        orders += 1
        new_types = {e.type for e in result.events} - seen_types
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            last_types = {e.type for e in result.events}
            break
        if new_types or orders % SAMPLE_EVERY == 0:
            seen_types |= new_types
            rows = list(Event.objects.filter(game=game).order_by("seq"))
            secrets = _secrets(result.state, rows, readers)
            at_seq = bot.randint(1, result.seq)
            for reader in readers:
                render_all(game, reader, secrets, at_seq)
    # The emails sent after the last sample and before the final order, read against the secrets of
    # that moment (the final order's own emails tell an ended game, where everything is shown).
    before_end = loaded.seq
    rows = list(Event.objects.filter(game=game, seq__lte=before_end).order_by("seq"))
    secrets = _secrets(loaded.state, rows, readers)
    for reader in readers:
        read_new_emails(game, reader, secrets, up_to_seq=before_end)
    assert orders > 50 and all(r.checks > 10 for r in readers)
    for reader in readers:
        if reader.seat_id is not None:  # each email before the end rendered and read, however many
            sent = Outbox.objects.filter(seat_id=reader.seat_id, seq__lte=before_end).count()
            assert reader.emails_seen == sent > 0, reader.faction
    # Every event type was rendered for everyone right after it first happened, but those that
    # first came in the final batch: after the end everything is shown anyway (H-END).
    every_type = set(Event.objects.filter(game=game).values_list("type", flat=True))
    assert every_type - seen_types <= last_types
    secret_kinds = {"IncomeReceived", "MissionCardDrawn", "WinterOrderSealed", "OfferMade", "OrderGiven"}
    assert secret_kinds | {"BattleFought", "RandomnessDrawn", "MessageSent"} <= seen_types
    assert game.status == Game.Status.ENDED
    _everything_is_shown_after_the_end(game, readers)


def _everything_is_shown_after_the_end(game: Game, readers: list[Reader]) -> None:
    """H-END: the seed and every event in full, for every reader."""
    stored = {e.seq: e.payload for e in Event.objects.filter(game=game)}
    for reader in readers:
        bearer = {"HTTP_AUTHORIZATION": f"Bearer {reader.token}"} if reader.token else {}
        document = reader.client.get(reverse("games:export", args=[game.pk]), **bearer).json()
        assert document["game"]["seed"] == game.seed
        assert not any(e["redacted"] for e in document["events"])
        assert {e["seq"]: e["payload"] for e in document["events"]} == stored
    income = Event.objects.filter(game=game, type="IncomeReceived").exclude(payload__coins={}).first()
    other = next(r for r in readers if r.faction not in (None, income.payload["player"]))
    shown = describe(income.type, income.payload, other.faction, game_over=True, game=None)
    assert shown == describe(income.type, income.payload, None, game_over=True, game=None)
    page = other.client.get(
        reverse("games:play-rest", args=[game.pk, other.token, "history/"]) + "?since=all"
    )
    assert html.unescape(shown) in html.unescape(page.content.decode())


def _income_candidates(owed: int) -> list[dict[str, int]]:
    """Every way `owed` coins can come out of the bag (H-BAG's four designs)."""
    designs = ("owl", "pegasus", "shield", "turtle")
    return [
        {d: combo.count(d) for d in designs if combo.count(d)}
        for combo in itertools.combinations_with_replacement(designs, owed)
    ]


def test_h_screen_an_export_gives_no_hash_to_try_a_redacted_events_candidates_against():
    """H-SCREEN: a hash is the SHA-256 of the whole stored event. Income draws a few coins from four
    designs, so a reader holding the hash of another player's IncomeReceived (or any hash chained
    after it) could hash every candidate and learn their coins. Before the end no hash is given."""
    game = create_game(PLAYERS[:2])
    seat = Seat.objects.get(game=game, faction="athens")
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {link_token(seat)}"}
    document = BrowserLikeClient().get(reverse("games:export", args=[game.pk]), **bearer).json()
    text = json.dumps(document)
    stored = list(Event.objects.filter(game=game).order_by("seq"))
    assert not any(row.hash in text for row in stored)
    published = set(re.findall(r"[0-9a-f]{64}", text))
    theirs = [e for e in document["events"] if e["type"] == "IncomeReceived" and e["redacted"]]
    assert theirs and all(e["payload"]["owed"] for e in theirs)
    for event in theirs:
        prev = next(row.prev_hash for row in stored if row.seq == event["seq"])  # the best case for a thief
        for coins in _income_candidates(event["payload"]["owed"]):
            fields = {k: event[k] for k in ("seq", "type", "actor", "schema_version", "created")}
            guess = event_hash(
                game_id=game.pk, payload={**event["payload"], "coins": coins}, prev_hash=prev, **fields
            )
            assert guess not in published, f"{event['payload']['player']}'s income {coins} found from a hash"


def test_a_private_message_names_its_sender_neither_in_the_history_filter_nor_in_the_export():
    """Others read only that a private message was sent (engine/table.py, event_view): not who wrote
    it. The event's actor is its sender, so filtering the history by a player, or the export's
    actor field, told Corinth that Athens was writing to someone."""
    game = create_game(PLAYERS)
    send_message(Seat.objects.get(game=game, faction="athens"), "sparta", "Secret plan: XYZZY-2")
    corinth = Seat.objects.get(game=game, faction="corinth")
    token = link_token(corinth)
    history = reverse("games:play-rest", args=[game.pk, token, "history/"])
    client = BrowserLikeClient()
    by_player = {
        faction: [e.type for e in client.get(f"{history}?since=all&player={faction}").context["entries"]]
        for faction in ("athens", "sparta", "corinth")
    }
    assert all("MessageSent" not in types for types in by_player.values()), by_player
    assert "MessageSent" in [e.type for e in client.get(f"{history}?since=all").context["entries"]]
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    document = client.get(reverse("games:export", args=[game.pk]), **bearer).json()
    (message,) = [e for e in document["events"] if e["type"] == "MessageSent"]
    assert message["actor"] == HIDDEN and message["redacted"]
    # Its sender and recipient see it whole.
    athens = Seat.objects.get(game=game, faction="athens")
    mine = client.get(
        reverse("games:export", args=[game.pk]), HTTP_AUTHORIZATION=f"Bearer {link_token(athens)}"
    )
    (message,) = [e for e in mine.json()["events"] if e["type"] == "MessageSent"]
    assert message["actor"] == "athens" and not message["redacted"]
    page = client.get(
        reverse("games:play-rest", args=[game.pk, link_token(athens), "history/"])
        + "?since=all&player=athens"
    )
    assert "MessageSent" in [e.type for e in page.context["entries"]]
