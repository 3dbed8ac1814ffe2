"""The inbound mail of tests/inbox/ and the tests of other folders that reply by email: the ESPs'
real webhook posts (Postmark's JSON, Mailgun's signed form data) and the `inbound_settings` fixture
that turns reply addresses on (import it into a test module; it is autouse there).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import time
import uuid

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import TestCase

from games.models import Game
from games.services.game_setup import PlayerSpec, create_game
from notifications.services import deliver_outbox
from tests.order_loop_support import seats_to_act

DOMAIN = "play.example.com"
SECRET = "hook:s3cret"
MAILGUN_KEY = "mailgun-signing-key"
BASIC = "Basic " + base64.b64encode(SECRET.encode()).decode()
ADDRESS = re.compile(r"orders\+[^@\s]+@" + re.escape(DOMAIN))


@pytest.fixture(autouse=True)
def inbound_settings(settings):
    settings.INBOUND_DOMAIN = DOMAIN
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": MAILGUN_KEY}
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []


def postmark(
    client,
    to: str,
    text: str,
    spam: bool = False,
    attachment: bytes = b"",
    auth: str = BASIC,
    html: str = "",
    sender: str = "somebody@elsewhere.example",  # never trusted to choose a seat
    cc: str = "",
):
    """A reply as Postmark posts it; `html` alone (with `text` empty): a phone app's rich-text reply."""
    payload = {
        "FromName": "Somebody",
        "From": sender,
        "FromFull": {"Email": sender, "Name": "Somebody", "MailboxHash": ""},
        "To": to,
        "ToFull": [{"Email": to, "Name": "", "MailboxHash": to.split("+", 1)[-1].split("@")[0]}],
        "Cc": "",
        "CcFull": [{"Email": cc, "Name": "", "MailboxHash": ""}] if cc else [],
        "Bcc": "",
        "BccFull": [],
        "OriginalRecipient": to,
        "Subject": "Re: AEGEAPOLIS: your turn",
        "MessageID": str(uuid.uuid4()),
        "ReplyTo": "",
        "Date": "Mon, 30 Nov 2026 10:00:00 +0000",
        "TextBody": text,
        "HtmlBody": html,
        "StrippedTextReply": "",
        "Tag": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{sender}>"},
            {"Name": "X-Spam-Status", "Value": "Yes" if spam else "No"},
            {"Name": "X-Spam-Score", "Value": "9.1" if spam else "0.1"},
            {"Name": "Message-ID", "Value": f"<{uuid.uuid4()}@elsewhere.example>"},
        ],
        "Attachments": [
            {
                "Name": "big.bin",
                "Content": base64.b64encode(attachment).decode(),
                "ContentType": "application/octet-stream",
                "ContentLength": len(attachment),
            }
        ]
        if attachment
        else [],
    }
    return post_inbound(
        client,
        "/anymail/postmark/inbound/",
        data=json.dumps(payload),
        content_type="application/json",
        HTTP_AUTHORIZATION=auth,
    )


def post_inbound(client, url: str, **kwargs):
    """Post to the webhook and run what it left for after its commit (the Celery task, eager here:
    the test's transaction never commits, so Django's capture stands in for the commit)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(url, **kwargs)


def mailgun(
    client, to: str, text: str, attachment: bytes = b"", sender: str = "Somebody <somebody@elsewhere.example>"
):
    timestamp, token = str(int(time.time())), uuid.uuid4().hex
    signature = hmac.new(MAILGUN_KEY.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    headers = [
        ["From", sender],
        ["To", to],
        ["Subject", "Re: AEGEAPOLIS: your turn"],
        ["Message-Id", f"<{uuid.uuid4()}@elsewhere.example>"],
        ["X-Mailgun-Sflag", "No"],
    ]
    data = {
        "recipient": to,
        "sender": "somebody@elsewhere.example",
        "from": sender,
        "subject": "Re: AEGEAPOLIS: your turn",
        "body-plain": text,
        "stripped-text": text.split("\n")[0],
        "message-headers": json.dumps(headers),
        "timestamp": timestamp,
        "token": token,
        "signature": signature,
        "attachment-count": "1" if attachment else "0",
    }
    if attachment:
        data["attachment-1"] = SimpleUploadedFile("big.bin", attachment, "application/octet-stream")
    return post_inbound(client, "/anymail/mailgun/inbound/", data=data, HTTP_AUTHORIZATION=BASIC)


def turn_email_reply_to(game) -> tuple[object, str]:
    """The seat on turn and the Reply-To of its latest turn email (read from the real message)."""
    deliver_outbox()
    (seat,) = seats_to_act(game)
    message = [m for m in mail.outbox if m.to == [seat.email]][-1]
    (reply_to,) = message.reply_to
    assert ADDRESS.fullmatch(reply_to)
    return seat, reply_to


# The subjects of the answers to a reply, which say what it did (English, German).
ANSWER_MARKS = (
    "your order by email was carried out",
    "your message was sent",
    "your email changed nothing",
    "dein Befehl per E-Mail wurde ausgeführt",
    "deine Nachricht wurde gesendet",
    "deine E-Mail hat nichts geändert",
)


def is_answer(subject: str) -> bool:
    """Whether an email is the answer to a reply (its subject says what the reply did)."""
    return any(mark in subject for mark in ANSWER_MARKS)


def answers_to(seat) -> list:
    deliver_outbox()
    return [m for m in mail.outbox if m.to == [seat.email] and is_answer(m.subject)]


ANA = PlayerSpec("Ana", "ana@example.com", "athens", "en")
BEN = PlayerSpec("Ben", "ben@example.com", "sparta", "de")


class Table:
    """The players' mailboxes: the latest email to each, and replying to it."""

    def __init__(self, client, game: Game) -> None:
        self.client, self.game = client, game
        self.seats = {s.faction: s for s in game.seats.all()}

    def inbox(self, faction: str) -> list:
        deliver_outbox()
        return [m for m in mail.outbox if m.to == [self.seats[faction].email]]

    def latest(self, faction: str):
        """The latest email that carries a Reply-To for orders."""
        return [m for m in self.inbox(faction) if m.reply_to and "orders+o." in m.reply_to[0]][-1]

    def reply(self, faction: str, text: str, to=None, post=postmark) -> str:
        """Reply to the latest email (or `to`); returns the body of the answer email."""
        before = len(self.inbox(faction))
        message = to or self.latest(faction)
        assert post(self.client, message.reply_to[0], text).status_code == 200
        new = self.inbox(faction)[before:]
        answers = [m for m in new if is_answer(m.subject)]
        return answers[-1].body if answers else ""

    def on_turn(self) -> list[str]:
        return [s.faction for s in seats_to_act(self.game)]


def position(body: str) -> dict:
    """What the email says the player holds (English or German position lines)."""
    have = re.search(r"(?:You have|Du hast) (\d+) AP, (\d+) FP, (\d+) ", body)
    assert have, body
    poleis = re.findall(r"([A-I][1-9]) [^:;]+: (\d+) (?:phalanx|Phalan)", body)
    screen = re.search(r"(?:behind your screen|hinter deinem Sichtschirm): ([^.]+)\.", body).group(1)
    return {
        "ap": int(have[1]),
        "fp": int(have[2]),
        "blanks": int(have[3]),
        "poleis": {space: int(n) for space, n in poleis},
        "screen": screen,
    }


ACCEPTED = ("Your order was accepted", "Dein Befehl wurde angenommen")


SAM = PlayerSpec("Sam", "sam@example.com", "sparta", "en")
TOM = PlayerSpec("Tom", "tom@example.com", "thebes", "de")
SEALED = ("your sealed winter order", "dein versiegelter Winterbefehl")


def game_of(client, monkeypatch, players: list[PlayerSpec], seed: str) -> tuple[Game, Table]:
    monkeypatch.setattr(Game._meta.get_field("seed"), "_get_default", lambda: seed)
    game = create_game(players)
    return game, Table(client, game)


def offer_email(table: Table, faction: str):
    """The latest email telling `faction` of a trade offer (English or German subject)."""
    subjects = ("offers you a trade", "bietet dir einen Handel an")  # then " · " and the game's name
    return [m for m in table.inbox(faction) if m.subject.rsplit(" · ", 1)[0].endswith(subjects)][-1]


def first_expansion(table: Table, faction: str) -> str:
    """The first space `faction`'s latest email says it may expand to (English)."""
    return re.search(r"You may expand to: (\w\d),", table.latest(faction).body)[1]


def accepted(answer: str) -> bool:
    return any(a in answer for a in ACCEPTED)
