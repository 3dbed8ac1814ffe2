"""What a player received, as text to search, and whose secret each found key is (H-SCREEN).

tests/test_leaks_whole_game.py gathers everything each player of a game received: every email
actually sent to them (all its headers and every text part, decoded) and every page and JSON
answer they fetched (its headers, Set-Cookie included, and its body). Here each of those becomes
an `Item`, and the secrets in them are told apart by their owner:

- keys by cryptography, not by where they were found: every player link token, reply address
  and unsubscribe token in anyone's material is read back (games/reading/links.py, games/mail/keys.py)
  to the seat it was signed for; a seat cookie names its seat;
- what only an owner is shown, by how it is shown to them: the lines of their emails about
  what is behind their screen and their Mission Cards, their own row of the page's players
  table (coins shown), the Mission Card ids of their page.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from email.message import Message
from typing import Any

from games.mail.keys import read_reply_address, read_unsubscribe_token
from games.reading.links import LinkError, read_link
from games.web.seat_cookies import COOKIE_PREFIX

LINK = re.compile(r"/play/(\d+)/([^/\s\"'<>]+)/")
UNSUBSCRIBE = re.compile(r"/mail/unsubscribe/([^/\s\"'<>]+)/")
REPLY_ADDRESS = re.compile(r"[\w.-]+\+[\w.-]+@[\w-]+(?:\.[\w-]+)+")
# The owner's own lines about their screen and Mission Cards, in the emails' two languages.
SECRET_LINE = re.compile(
    r"behind your screen|hinter deinem Sichtschirm|Mission Cards:|Auftragskarten:", re.IGNORECASE
)
OWN_ROW = re.compile(r'<tr class="me">(.*?)</tr>', re.S)
CARD_ID = re.compile(r'data-card="([^"]+)"')
CELL_END = re.compile(r"(?i)</t[dh]>")
TAG = re.compile(r"<[^>]+>")
LINE_BREAK = re.compile(r"(?i)\n|<br\s*/?>|</p>")


def flat(text: str) -> str:
    """Text as a reader sees it: tags gone (a table cell ends in " |"), entities read, one space."""
    text = TAG.sub(" ", CELL_END.sub(" | ", text))
    return " ".join(html.unescape(text).split())


@dataclass
class Item:
    """One email or one answer a player received, at a step of the game."""

    where: str
    text: str
    step: int
    ended: bool
    kind: str = "page"  # or the email's kind (welcome, turn, message, reply, ...)
    plain: str = field(init=False)  # the text with whitespace collapsed and entities read
    shown: str = field(init=False)  # as flat() reads it

    def __post_init__(self) -> None:
        self.plain = " ".join(html.unescape(self.text).split())
        self.shown = flat(self.text)

    def holds(self, secret: str) -> bool:
        return secret in self.text or secret in self.plain or secret in self.shown


def email_text(message: Any) -> str:
    """Every header and every decoded text part of an email as it was sent (images left out)."""
    mime: Message = message.message()
    parts = [f"{name}: {value}" for name, value in mime.items()]
    for part in mime.walk():
        if part.get_content_maintype() == "text":
            parts += [f"{name}: {value}" for name, value in part.items()]
            payload = part.get_payload(decode=True) or b""
            parts.append(payload.decode(part.get_content_charset() or "utf-8"))
    return "\n".join(parts)


def answer_text(response: Any) -> str:
    """An answer's headers (Set-Cookie included) and body."""
    headers = [f"{name}: {value}" for name, value in response.items()]
    headers += [f"Set-Cookie: {morsel.OutputString()}" for morsel in response.cookies.values()]
    return "\n".join([*headers, response.content.decode()])


@dataclass
class Keys:
    """Each seat's keys, found anywhere, by the seat they were signed for."""

    links: dict[int, set[str]] = field(default_factory=dict)
    reply_addresses: dict[int, set[str]] = field(default_factory=dict)
    unsubscribe: dict[int, set[str]] = field(default_factory=dict)
    cookies: dict[int, set[str]] = field(default_factory=dict)

    def of(self, seat_id: int) -> dict[str, set[str]]:
        return {
            "link token": self.links.get(seat_id, set()),
            "reply address": self.reply_addresses.get(seat_id, set()),
            "unsubscribe token": self.unsubscribe.get(seat_id, set()),
            "seat cookie": self.cookies.get(seat_id, set()),
        }


def keys_in(items: list[Item], game_id: int, cookie_jars: list[Any]) -> Keys:
    """Every key in `items` and in the browsers' cookie jars, by the seat it opens."""
    keys = Keys()
    links = {(int(g), t) for item in items for g, t in LINK.findall(item.text)}
    for game, token in links:
        try:
            claim = read_link(token, game_id) if game == game_id else None
        except LinkError:
            continue  # a token-free seat address (/play/<game>/<seat>/): no key
        if claim is not None:
            keys.links.setdefault(claim.seat_id, set()).add(token)
    for token in {t for item in items for t in UNSUBSCRIBE.findall(item.text)}:
        if (seat := read_unsubscribe_token(token)) is not None:
            keys.unsubscribe.setdefault(seat.pk, set()).add(token)
    for address in {a for item in items for a in REPLY_ADDRESS.findall(item.text)}:
        if (key := read_reply_address(address)) is not None:
            keys.reply_addresses.setdefault(key.seat.pk, set()).add(address)
    for jar in cookie_jars:
        for name, morsel in jar.items():
            if name.startswith(COOKIE_PREFIX) and morsel.value:
                keys.cookies.setdefault(int(name.removeprefix(COOKIE_PREFIX)), set()).add(morsel.value)
    return keys


def secret_lines(items: list[Item], relayed: set[str]) -> set[str]:
    """The lines an owner's emails and pages showed only them: their screen and Mission Cards
    lines, and their own row of the players table (its coins shown), each as flat() reads it.

    Not from a message email, nor a line holding a line of a message others wrote to this player
    (`relayed`): that is no line of this player's own, whatever it quotes."""
    found: set[str] = set()
    for item in items:
        if item.kind not in ("page", "message"):
            for line in LINE_BREAK.split(item.text):
                shown = flat(line)
                if SECRET_LINE.search(shown) and not any(r in shown for r in relayed if len(r) >= 12):
                    found.add(shown)
        for row in OWN_ROW.findall(item.text):
            found.add(flat(row))
    found.discard("")
    return found


def card_ids(items: list[Item]) -> set[str]:
    """The Mission Card ids the owner's pages showed them."""
    return {card for item in items for card in CARD_ID.findall(item.text)}
