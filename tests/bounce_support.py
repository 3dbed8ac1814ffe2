"""Real ESP tracking webhook posts (bounces, complaints, deliveries) for the bounce tests.

The payloads follow the ESPs' own formats as their docs and anymail's tests show them:
Postmark posts one JSON record (RecordType "Bounce" with Type "HardBounce", "SoftBounce",
"Transient" ..., "SpamComplaint", "Delivery") with the email's Tag and Metadata; Mailgun posts
JSON {"signature": {timestamp, token, signature}, "event-data": {...}} signed with the webhook
signing key (HMAC-SHA256 of timestamp + token), the email's tags and "user-variables".
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import uuid
from typing import Any

from notifications.models import Outbox

SECRET = "hook:s3cret"
MAILGUN_KEY = "mailgun-signing-key"
BASIC = "Basic " + base64.b64encode(SECRET.encode()).decode()
POSTMARK_URL = "/anymail/postmark/tracking/"
MAILGUN_URL = "/anymail/mailgun/tracking/"
NO_SUCH_USER = "The server was unable to deliver your message (ex: unknown user, mailbox not found)."


def metadata(row: Outbox) -> dict[str, str]:
    """What every email carries (notifications/services.py `_message`)."""
    return {"game": str(row.game_id), "seq": str(row.seq), "seat": str(row.seat_id)}


def postmark_record(
    row: Outbox, record_type: str = "Bounce", kind: str = "HardBounce", **changes: Any
) -> dict:
    """A Postmark webhook record about the email `row` sent."""
    if record_type == "Delivery":
        record: dict[str, Any] = {
            "RecordType": "Delivery",
            "ServerID": 23,
            "MessageStream": "outbound",
            "MessageID": row.message_id,
            "Recipient": row.to_email,
            "Tag": row.kind,
            "DeliveredAt": "2026-12-02T16:33:54.9070259Z",
            "Details": "Test delivery webhook details",
            "Metadata": metadata(row),
        }
    else:
        record = {
            "RecordType": record_type,
            "MessageStream": "outbound",
            "ID": 4323372036854775807,
            "Type": kind,
            "TypeCode": 512 if kind == "SpamComplaint" else 1,
            "Name": "Spam complaint" if kind == "SpamComplaint" else "Hard bounce",
            "Tag": row.kind,
            "MessageID": row.message_id,
            "Metadata": metadata(row),
            "ServerID": 23,
            "Description": "" if kind == "SpamComplaint" else NO_SUCH_USER,
            "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
            "Email": row.to_email,
            "From": "turns@aegeapolis.example",
            "BouncedAt": "2026-12-02T16:33:54.9070259Z",
            "DumpAvailable": True,
            "Inactive": True,
            "CanActivate": True,
            "Subject": "AEGEAPOLIS: welcome",
            "Content": "<Full dump of bounce>",
        }
    record.update(changes)
    return record


def post_postmark(client, record: dict | str, auth: str | None = BASIC):
    body = record if isinstance(record, str) else json.dumps(record)
    extra = {"HTTP_AUTHORIZATION": auth} if auth else {}
    return client.post(POSTMARK_URL, data=body, content_type="application/json", **extra)


def mailgun_event(
    row: Outbox, event: str = "failed", severity: str = "permanent", key: str = MAILGUN_KEY
) -> dict:
    """A Mailgun webhook post (JSON, signed with `key`) about the email `row` sent."""
    timestamp, token = str(int(time.time())), uuid.uuid4().hex
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return {
        "signature": {"timestamp": timestamp, "token": token, "signature": signature},
        "event-data": {
            "event": event,
            "severity": severity,
            "reason": "bounce" if severity == "permanent" else "generic",
            "id": uuid.uuid4().hex[:22],
            "timestamp": time.time(),
            "log-level": "error",
            "recipient": row.to_email,
            "recipient-domain": row.to_email.split("@")[1],
            "tags": [row.kind],
            "user-variables": metadata(row),
            "envelope": {
                "sender": "bounces@aegeapolis.example",
                "transport": "smtp",
                "targets": row.to_email,
            },
            "message": {
                "headers": {
                    "to": row.to_email,
                    "message-id": row.message_id,
                    "from": "turns@aegeapolis.example",
                    "subject": "AEGEAPOLIS: welcome",
                },
                "size": 111,
            },
            "delivery-status": {
                "attempt-no": 1,
                "code": 550 if severity == "permanent" else 452,
                "message": "5.2.2 The email account that you tried to reach is over quota.",
                "description": "Mailbox full" if severity == "permanent" else "",
                "session-seconds": 0.1,
            },
            "flags": {"is-routed": False, "is-authenticated": True, "is-system-test": False},
        },
    }


def post_mailgun(client, payload: dict):
    return client.post(
        MAILGUN_URL, data=json.dumps(payload), content_type="application/json", HTTP_AUTHORIZATION=BASIC
    )
