"""H-SCREEN, H-MISSIONS, H-END: whole games played through the pages and email replies, and
everything each player received searched for every other player's secrets.

Method. Players (one English, one German seat; a third in the 3-player game) play from the
welcome email to the end email. Each has a browser of their own (the seat cookie their emailed link
left, games/web/seat_cookies.py) and a mailbox: the emails actually sent (anymail's test backend).
Turns alternate between the page (a suggested order posted on it) and an email reply; in a scoring
winter a reply commits a coin its email shows behind the screen. Every few turns two players talk:
a message on the page, its reader's answer by email reply, and a "message" line in a reply to the
writer's own turn email, which holds their link, reply address, screen and Mission Cards. Every
reply is one of tests/fixtures/replies/ (Gmail, Outlook, Apple Mail, Thunderbird, iPhone in EN, DE,
FR, ES, IT, NL) or of tests/fixtures/replies_unread/ (Outlook in SV and PL, whose header block the
reply reading does not know: only the relay keeps their quote from the rival), quoting the email
it answers as that client quotes, fed through the inbound path an ESP's webhook takes
(notifications/feed.py). Every few turns, and after the end, each player fetches their page, whole
history, export and API state.

Everything a player received is kept whole (tests/leak_support.py): every email's headers
(Reply-To, List-Unsubscribe) and text parts, every answer's headers (Set-Cookie) and body. Then
for every other player's secrets: their link tokens and seat cookies, reply addresses and
unsubscribe tokens (told apart by the seat they are signed for, wherever they were found); before
the end, also their screen and Mission Card lines and their own players-table row as shown to them
(not a line this reader was shown as their own), the ids of the Mission Cards they still hold,
and the game's seed. 0 found. Each secret searched for is found in its own owner's material,
so the search can find it; and each player's collection is counted. The last test turns the reply
reading and the relay off and shows that the same search then finds what they would hand over.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from games.models import Event, Game
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.pasted_original import Written
from tests.leak_support import Keys, card_ids, keys_in, secret_lines
from tests.leak_table import STYLES, UNREAD, Player, Table

ANA = PlayerSpec("Ana", "ana@example.com", "athens", "en")
BEN = PlayerSpec("Ben", "ben@example.com", "sparta", "de")
CLEO = PlayerSpec("Cleo", "cleo@example.com", "corinth", "en")
MAX_STEPS = 400
LOOK_EVERY = 12  # steps between two rounds of every player fetching every page
TALK_EVERY = 5  # steps between two conversations


@pytest.fixture(autouse=True)
def inbound(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.INBOUND_DOMAIN = "play.example.com"
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    monkeypatch.setattr(Game._meta.get_field("seed"), "_get_default", lambda: "leak-seed-2026-whole-game")
    mail.outbox = []


def play(specs: list[PlayerSpec], steps: int = MAX_STEPS) -> tuple[Table, dict[int, dict[str, set[str]]]]:
    """Play a game to its end (or `steps` orders); the Mission Cards each faction held at the
    start of each step."""
    table = Table(create_game(specs))
    state = load_game(table.game).state
    hands = {0: {f: set(p.mission_cards) for f, p in state.players.items()}}
    table.open_links()
    players = list(table.players.values())
    talks = 0
    while not table.ended and table.step < steps:
        table.step += 1
        state = load_game(table.game).state
        hands[table.step] = {f: set(p.mission_cards) for f, p in state.players.items()}
        player = table.on_turn()
        assert player is not None
        # Each player's every third order on the page; a tile choice on the page that offers it.
        player.turns += 1
        if player.turns % 3 == 1 or state.pending_choice is not None:
            table.order_on_page(player)
        else:
            table.order_by_reply(player, state.phase == "winter_orders")
        table.deliver()
        if table.step % TALK_EVERY == 0 and not table.ended:
            talks += 1
            table.talk(players[talks % len(players)], players[(talks + 1) % len(players)], talks)
        if table.step % LOOK_EVERY == 0:
            for each in players:
                table.look(each)
    hands[table.step + 1] = {}
    for each in players:
        table.look(each)
    return table, hands


def found(table: Table, hands: dict[int, dict[str, set[str]]]) -> tuple[list[str], dict[str, int]]:
    """Every other player's secret in each player's material; and how many were searched for."""
    players = list(table.players.values())
    everything = [item for p in players for item in p.items]
    keys = keys_in(everything, table.game.pk, [p.client.cookies for p in players])
    # What others wrote to a player (from the log) is no line of that player's own, whatever it quotes.
    relayed: dict[str, set[str]] = {p.seat.faction: set() for p in players}
    for message in Event.objects.filter(game=table.game, type="MessageSent").values_list(
        "payload", flat=True
    ):
        for reader in message["to"]:
            relayed[reader] |= {" ".join(line.split()) for line in message["text"].splitlines()}
    lines = {p.seat.faction: secret_lines(p.items, relayed[p.seat.faction]) for p in players}
    cards = {p.seat.faction: card_ids(p.items) for p in players}
    _assert_each_secret_found_in_its_owners_material(players, keys, lines, cards)
    leaks: list[str] = []
    for reader in players:
        for owner in players:
            if owner is reader:
                continue
            theirs = lines[owner.seat.faction] - lines[reader.seat.faction]
            for item in reader.items:
                leaks += [
                    f"{reader.seat.faction} got {owner.seat.faction}'s {kind} in {item.where}"
                    for kind, values in keys.of(owner.seat.pk).items()
                    for value in values
                    if item.holds(value)
                ]
                if item.ended:
                    continue  # H-END: everything but the keys is shown to all now
                held = hands[item.step].get(owner.seat.faction, set()) & hands[item.step + 1].get(
                    owner.seat.faction, set()
                )
                leaks += [
                    f"{reader.seat.faction} got {owner.seat.faction}'s line {line!r} in {item.where}"
                    for line in theirs
                    if item.holds(line)
                ]
                leaks += [
                    f"{reader.seat.faction} got {owner.seat.faction}'s card {card} in {item.where}"
                    for card in cards[owner.seat.faction] & held
                    if f'"{card}"' in item.text or f" {card} " in f" {item.shown} "
                ]
        leaks += [
            f"{reader.seat.faction} got the seed in {i.where}"
            for i in reader.items
            if not i.ended and i.holds(table.game.seed)
        ]
    searched = {
        "keys": sum(len(v) for p in players for v in keys.of(p.seat.pk).values()),
        "lines": sum(map(len, lines.values())),
        "cards": sum(map(len, cards.values())),
    }
    return leaks, searched


def _assert_each_secret_found_in_its_owners_material(
    players: list[Player], keys: Keys, lines: dict[str, set[str]], cards: dict[str, set[str]]
) -> None:
    for owner in players:
        mine = keys.of(owner.seat.pk)
        assert all(mine.values()), f"{owner.seat.faction} has a kind of key never found: {mine}"
        for kind, values in mine.items():
            for value in values:
                assert any(i.holds(value) for i in owner.items), f"{owner.seat.faction}'s {kind} {value}"
        for line in lines[owner.seat.faction]:
            assert any(i.holds(line) for i in owner.items), line
        screen = [line for line in lines[owner.seat.faction] if "screen" in line or "Sichtschirm" in line]
        assert screen and cards[owner.seat.faction], f"{owner.seat.faction} was shown no screen or card"
    if players[0].seat.game.status == Game.Status.ENDED:
        seed = players[0].seat.game.seed
        assert all(any(i.ended and i.holds(seed) for i in p.items) for p in players), "the seed at the end"


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("specs", [[ANA, BEN], [ANA, BEN, CLEO]], ids=["2-players", "3-players"])
def test_h_screen_nothing_any_player_received_holds_another_players_secret(specs: list[PlayerSpec]) -> None:
    table, hands = play(specs)

    leaks, searched = found(table, hands)

    assert leaks == []
    assert table.ended
    assert Event.objects.filter(game=table.game, type="RankingScored").exists()
    for player in table.players.values():
        counts = player.counts
        assert counts["email"] >= 10 and counts["page"] >= 5 and counts["order"] >= 3, counts
        assert min(counts["history"], counts["export"], counts["api"]) >= 3, counts
    assert len(table.styles_used) == len(STYLES), table.styles_used  # every client style replied
    # ... and, above the writer's own turn email, those the reading does not know and many it does
    assert all(table.line_styles_used[s.stem] for s in UNREAD) and len(table.line_styles_used) >= 12
    for reader, words in table.sent_words:
        assert any(i.holds(words) for i in table.players[reader].items), f"{reader} never got {words!r}"
    assert searched["keys"] >= 8 * len(specs) and searched["lines"] >= 4 * len(specs), searched


@pytest.mark.django_db
def test_the_search_finds_what_a_relay_without_its_defences_hands_to_the_rival(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search above is able to find each kind of secret where a leak would put it: with the
    reply reading keeping every line (the quote too) and the relay passing the text as it is, a
    few turns of the same game hand the rival the writer's keys and screen, and they are found."""
    monkeypatch.setattr(
        "games.services.inbox.order_syntax.read_reply",
        lambda text, html=None: [x for x in text.splitlines() if x.strip()],
    )
    # The relay of a message written in a reply (send_mailed_message) lets the text through as it is.
    monkeypatch.setattr(
        "games.services.messages.reply_text_for_rivals",
        lambda seat, text, answered=None: Written(text),
    )
    monkeypatch.setattr("games.services.messages.without_server_secrets", lambda text: text)
    monkeypatch.setattr("games.services.messages.MAX_LENGTH", 10**6)
    table, hands = play([ANA, BEN], steps=TALK_EVERY + 1)

    leaks, _searched = found(table, hands)

    assert len(table.sent_words) == 3  # one conversation
    kinds = {kind for leak in leaks for kind in ("link token", "reply address", "unsubscribe token", "line")}
    assert kinds == {"link token", "reply address", "unsubscribe token", "line"}, leaks
