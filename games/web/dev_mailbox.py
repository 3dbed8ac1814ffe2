"""The local mailbox folder read as emails, for the DEBUG-only mailbox page (games/web/views/dev.py).

Django's file backend appends each message of a connection to one file, each followed by a line
of 79 dashes. Here every message of every file is one `MailboxEmail` with what a person reads
in a mail client: subject, sender, recipient, time, both bodies and the Reply-To.
"""

from __future__ import annotations

import base64
import email
import email.policy
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from pathlib import Path

SEPARATOR = b"\n" + b"-" * 79 + b"\n"


@dataclass(frozen=True)
class MailboxEmail:
    key: str  # "<file name>:<index in the file>", for the address of its page
    subject: str
    sender: str
    to: str
    reply_to: str
    sent: datetime | None
    text: str
    html: str


def mailbox_emails(folder: Path) -> list[MailboxEmail]:
    """Every email in the folder, newest first."""
    if not folder.is_dir():
        return []
    found = [found for path in folder.glob("*.log") for found in _emails_in(path)]
    return sorted(found, key=lambda m: (m.sent is not None, m.sent or datetime.min, m.key), reverse=True)


def mailbox_email(folder: Path, key: str) -> MailboxEmail | None:
    """The email of `key`, or None for a key naming nothing in the folder (or outside it)."""
    name, _, index = key.rpartition(":")
    path = folder / name
    if not index.isdigit() or path.parent != folder or not path.is_file():
        return None
    return next((m for m in _emails_in(path) if m.key == key), None)


def _emails_in(path: Path) -> list[MailboxEmail]:
    chunks = [chunk for chunk in path.read_bytes().split(SEPARATOR) if chunk.strip()]
    return [_read(f"{path.name}:{i}", chunk) for i, chunk in enumerate(chunks)]


def _read(key: str, raw: bytes) -> MailboxEmail:
    message = email.message_from_bytes(raw.strip(b"\n"), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    try:
        sent = parsedate_to_datetime(str(message["Date"])) if message["Date"] else None
    except (TypeError, ValueError):
        sent = None
    return MailboxEmail(
        key=key,
        subject=str(message["Subject"] or ""),
        sender=str(message["From"] or ""),
        to=str(message["To"] or ""),
        reply_to=str(message["Reply-To"] or ""),
        sent=sent,
        text=text.get_content() if text else "",
        html=_inline_images(message, html.get_content()) if html else "",
    )


def _inline_images(message: EmailMessage, html: str) -> str:
    """The HTML with its cid: pictures (the board) as data: addresses, which a page can show."""
    for part in message.walk():
        content_id = str(part["Content-ID"] or "").strip("<>")
        if content_id and f"cid:{content_id}" in html:
            data = base64.b64encode(part.get_payload(decode=True) or b"").decode()
            html = html.replace(f"cid:{content_id}", f"data:{part.get_content_type()};base64,{data}")
    return html
