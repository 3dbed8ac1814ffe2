"""Players at a table of tests/test_leaks_whole_game.py: each with a browser of their own (its seat
cookie) and a mailbox, ordering on the page or by email replies written as real mail clients write
them (tests/fixtures/replies/), everything they receive kept as `Item`s (tests/leak_support.py)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import cycle
from pathlib import Path
from typing import Any

from django.core import mail
from django.test import TestCase
from django.urls import reverse

from games.models import Game, Seat
from games.reading.situation import load_game, must_act
from notifications.feed import feed_reply
from notifications.services import deliver_outbox
from tests.browser_like_client import BrowserLikeClient
from tests.leak_support import LINK, Item, answer_text, email_text
from tests.order_loop_support import choose, suggested_orders

# The clients whose quoting the reading knows, and two whose header block it does not (the relay
# alone keeps their quoted original from the rival: tests/inbox/test_relay_drops_the_answered_email.py).
FIXTURES = Path(__file__).resolve().parent / "fixtures"
UNREAD = sorted((FIXTURES / "replies_unread").glob("*.eml"))
STYLES = [*UNREAD, *sorted((FIXTURES / "replies").glob("*.eml"))]
ACCEPTED = ("Your order was accepted", "Dein Befehl wurde angenommen")
SENT = ("Your message was sent.", "Deine Nachricht wurde gesendet.")
SCREEN_COIN = re.compile(r"(?:Behind your screen|Hinter deinem Sichtschirm): (\d+) (\w+)")


@dataclass
class Player:
    seat: Seat
    client: BrowserLikeClient = field(default_factory=BrowserLikeClient)
    items: list[Item] = field(default_factory=list)
    mailbox: list[Any] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    turns: int = 0

    @property
    def german(self) -> bool:
        return self.seat.language == "de"

    def latest(self, kind: str, *notifications: str) -> Any:
        """The latest email (of one of `notifications`: "turn", "welcome", ...) whose Reply-To
        takes an order ("o") or answers a message ("m")."""
        return [
            m
            for m in self.mailbox
            if m.reply_to
            and f"orders+{kind}." in m.reply_to[0]
            and (not notifications or m.extra_headers["X-Aegea-Notification"].split("-")[1] in notifications)
        ][-1]

    def token(self) -> str:
        """The token of the latest emailed link: the JSON API's bearer (docs/api.md). A message
        email links to the seat's token-free page (/play/<game>/<seat>/), which is no token."""
        tokens = [token for m in self.mailbox for _, token in LINK.findall(m.body) if not token.isdigit()]
        return tokens[-1]


class Table:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = {s.faction: Player(s) for s in game.seats.order_by("id")}
        self.step, self.read, self.fed = 0, 0, 0
        self.styles = cycle(STYLES)  # for orders and answers to a message email
        self.line_styles = cycle(STYLES)  # for a "message" line above the writer's own turn email
        self.styles_used: Counter[str] = Counter()
        self.line_styles_used: Counter[str] = Counter()
        self.sent_words: list[tuple[str, str]] = []  # (recipient, words relayed to them)

    @property
    def ended(self) -> bool:
        self.game.refresh_from_db()
        return self.game.status == Game.Status.ENDED

    def deliver(self) -> None:
        """Send what the outbox holds; each email goes to its reader's mailbox, kept whole."""
        deliver_outbox()
        ended = self.ended
        for message in mail.outbox[self.read :]:
            (player,) = [p for p in self.players.values() if [p.seat.email] == message.to]
            kind = message.extra_headers["X-Aegea-Notification"].split("-")[1]
            where = f"email {kind} {message.subject!r}"
            player.items.append(Item(where, email_text(message), self.step, ended, kind))
            player.mailbox.append(message)
            player.counts["email"] += 1
        self.read = len(mail.outbox)

    def fetch(self, player: Player, what: str, path: str, data: dict | None = None, **extra: Any) -> Any:
        if data is None:
            response = player.client.get(path, **extra)
        else:
            response = player.client.post(path, data, **extra)
        assert response.status_code in (200, 302), (what, path, response.status_code)
        player.items.append(Item(f"{what} {path}", answer_text(response), self.step, self.ended))
        player.counts[what] += 1
        return response

    def open_links(self) -> None:
        """Each player opens their welcome email's link once: the token becomes their seat cookie."""
        self.deliver()
        for player in self.players.values():
            (link,) = {f"/play/{g}/{t}/" for g, t in LINK.findall(player.mailbox[0].body)}
            player.client.follows_links = False
            assert self.fetch(player, "link", link).status_code == 302
            player.client.follows_links = True

    def look(self, player: Player) -> None:
        """Every page and JSON answer of the seat: page, whole history, export, API state."""
        game, seat = self.game.pk, player.seat.pk
        self.fetch(player, "page", reverse("games:seat", args=[game, seat]))
        self.fetch(player, "history", reverse("games:seat-history", args=[game, seat]) + "?since=all")
        self.fetch(player, "export", reverse("games:seat-export", args=[game, seat]))
        bearer = f"Bearer {player.token()}"
        self.fetch(player, "api", reverse("games:api-state", args=[game]), HTTP_AUTHORIZATION=bearer)

    def on_turn(self) -> Player | None:
        factions = must_act(load_game(self.game).state)
        return self.players[factions[0]] if factions else None

    def order_on_page(self, player: Player) -> None:
        path = reverse("games:seat", args=[self.game.pk, player.seat.pk])
        page = self.fetch(player, "page", path).content.decode()
        seq, command = choose(suggested_orders(page), self.step)
        data = {"expected_seq": seq, "kind": "suggested", "command": json.dumps(command)}
        assert self.fetch(player, "order", path, data).status_code == 302
        assert load_game(self.game).seq > seq, ("the order was refused", command)

    def order_by_reply(self, player: Player, winter: bool) -> None:
        """Pass, or in a scoring winter commit the first coin the email says is behind the screen."""
        email = player.latest("o")
        if not winter:
            line = "Ich passe" if player.german else "pass"
        elif coin := SCREEN_COIN.search(email.body):
            line = f"einsetzen {coin[2]} {coin[1]}" if player.german else f"commit {coin[1]} {coin[2]}"
        else:
            line = "einsetzen nichts" if player.german else "commit nothing"
        _words, answer = self.reply(player, email, lambda own: line)
        assert any(a in answer for a in ACCEPTED), (line, answer)

    def reply(
        self, player: Player, email: Any, write: Callable[[str], str], line: bool = False
    ) -> tuple[str, str]:
        """The next client style's reply to `email` (quoted as that client quotes), its own words
        replaced by write(its words); fed to the inbound path. The words and the answer's text."""
        style = next(self.line_styles if line else self.styles)
        self.styles_used[style.stem] += 1
        self.line_styles_used[style.stem] += line
        self.fed += 1
        head, body = style.read_text().split("\n\n", 1)
        own, rest = body.split("\n", 1)
        quoted = "\n".join(f"> {line}" for line in email.body.splitlines())
        rest = rest.replace("QUOTED", quoted).replace("PLAIN", email.body)
        head = re.sub(r"Message-ID: <([^>]+)>", rf"Message-ID: <\1.{self.fed}>", head)
        words = write(own)
        raw = f"{head}\n\n{words}\n{rest}".replace("ADDRESS", email.reply_to[0])
        before = len(player.mailbox)
        with TestCase.captureOnCommitCallbacks(execute=True):
            feed_reply(raw.encode())
        self.deliver()
        answers = [
            m.body
            for m in player.mailbox[before:]
            if m.extra_headers["X-Aegea-Notification"].startswith("aegea-reply-")
        ]
        assert answers, f"no answer to {style.stem}: {words!r}"
        return words, answers[-1]

    def talk(self, writer: Player, reader: Player, n: int) -> None:
        """A message on the page; its reader answers it by email; the writer writes again by a
        "message" line replying to their latest turn email (which holds their link and screen)."""
        note = f"Note {n} from {writer.seat.faction}: shall we split Delos?"
        path = reverse("games:seat-action", args=[self.game.pk, writer.seat.pk, "message"])
        self.fetch(writer, "message", path, {"to": reader.seat.faction, "text": note})
        self.deliver()
        self.sent_words.append((reader.seat.faction, note))
        words, answer = self.reply(reader, reader.latest("m"), lambda own: f"{own} #{n}")
        assert any(a in answer for a in SENT), answer
        self.sent_words.append((writer.seat.faction, words))
        verb = "nachricht" if writer.german else "message"
        line, answer = self.reply(
            writer,
            writer.latest("o", "turn", "welcome"),
            lambda own: f"{verb} {reader.seat.faction} {own} #{n}b",
            line=True,
        )
        assert any(a in answer for a in SENT), answer
        self.sent_words.append((reader.seat.faction, line.split(None, 2)[2]))
