"""The keys in a player's emails (docs/email-orders.md): the Reply-To token and the unsubscribe link.

Reply-To: `orders+<token>@<INBOUND_DOMAIN>`. The token names the game, the seat, the seat's
link version (raising it, `links.revoke_links`, kills old tokens too), what the reply is for
(`o` + the seq an order email was sent at, or `m` + the faction a message reply goes to) and an
HMAC of all that under SECRET_KEY, 120 bits: unguessable, and short enough for the 64
characters of an address's local part. The From header is never looked at.

Unsubscribe: a signed, non-expiring token of (seat, link version) in a link that works without
signing in, and in the List-Unsubscribe / List-Unsubscribe-Post headers (RFC 2369, RFC 8058).

An email queued to a seat names its keys (`keys_named`: the link version, what a reply is for) and
the worker signs them as it sends it (`keys_signed`): the player's link, the unsubscribe link,
the Reply-To and the headers. Signing them in the order cost its web process ~4% of its time,
and a link signed when it is sent is valid for its full age from then.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from games.models import Game, Seat
from games.reading.links import seat_path, seat_url

REPLY_SALT = "aegeapolis.games.reply-to"
UNSUBSCRIBE_SALT = "aegeapolis.games.unsubscribe"
ORGANISER_SALT = "aegeapolis.games.organiser-alerts"
TOKEN = re.compile(
    r"^(?P<kind>[om])\.(?P<game>\d{1,12})\.(?P<seat>\d{1,12})\.(?P<version>\d{1,6})\.(?P<ref>[a-z0-9]{1,12})\.(?P<mac>[a-z2-7]{24})$"
)


@dataclass(frozen=True)
class ReplyKey:
    """What a reply address opens: `kind` "o" (an order at seq `ref`) or "m" (a message to `ref`)."""

    seat: Seat
    kind: str
    ref: str

    @property
    def seq(self) -> int:
        return int(self.ref)


def _mac(body: str) -> str:
    digest = salted_hmac(REPLY_SALT, body, algorithm="sha256").digest()
    return base64.b32encode(digest).decode("ascii").lower()[:24]


def reply_token(seat: Seat, kind: str, ref: str | int) -> str:
    body = f"{kind}.{seat.game_id}.{seat.pk}.{seat.token_version}.{ref}"
    return f"{body}.{_mac(body)}"


def inbound_domain() -> str:
    return str(getattr(settings, "INBOUND_DOMAIN", "") or "")


def reply_address(seat: Seat, kind: str = "o", ref: str | int = 0) -> str:
    """The Reply-To of an email to `seat`; "" when the service receives no email (no INBOUND_DOMAIN)."""
    domain = inbound_domain()
    if not domain:
        return ""
    local = getattr(settings, "INBOUND_LOCAL_PART", "orders")
    return f"{local}+{reply_token(seat, kind, ref)}@{domain}"


def read_reply_address(address: str) -> ReplyKey | None:
    """The seat and purpose of a reply address, or None for anything forged, revoked or unknown."""
    found = _issued(address)
    if found is None:
        return None
    match, seat = found
    if seat.token_version != int(match["version"]):
        return None
    if match["kind"] == "o" and not match["ref"].isdigit():
        return None
    return ReplyKey(seat=seat, kind=match["kind"], ref=match["ref"])


def withdrawn_reply_seat(address: str) -> Seat | None:
    """The seat of a reply address this server issued but whose links were withdrawn since
    (revoked, or the seat handed over), else None."""
    found = _issued(address)
    if found is None:
        return None
    match, seat = found
    return seat if seat.token_version != int(match["version"]) else None


def _issued(address: str) -> tuple[re.Match[str], Seat] | None:
    """The parts of a reply address whose MAC holds, and the seat it names (with its game), if any."""
    local, _at, domain = address.strip().lower().rpartition("@")
    if not local or domain != inbound_domain().lower():
        return None
    _prefix, plus, token = local.partition("+")
    match = TOKEN.match(token) if plus else None
    if match is None:
        return None
    body = token.rsplit(".", 1)[0]
    if not constant_time_compare(_mac(body), match["mac"]):
        return None
    seat = (
        Seat.objects.select_related("game").filter(pk=int(match["seat"]), game_id=int(match["game"])).first()
    )
    return None if seat is None else (match, seat)


def unsubscribe_token(seat: Seat) -> str:
    return signing.dumps({"s": seat.pk, "v": seat.token_version}, salt=UNSUBSCRIBE_SALT, compress=False)


def read_unsubscribe_token(token: str) -> Seat | None:
    """The seat a player's unsubscribe key opens, or None for anything forged or withdrawn."""
    found = issued_unsubscribe_seat(token)
    return found[0] if found is not None and found[1] else None


def issued_unsubscribe_seat(token: str) -> tuple[Seat, bool] | None:
    """The seat a player's unsubscribe key was signed for (with its game), and whether the key is
    still its holder's: False once the seat's links were withdrawn (revoked, or the seat handed
    over to a substitute, docs/long-games.md). None for anything forged or a seat that is gone."""
    try:
        payload: Any = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(payload, dict) or not all(isinstance(payload.get(k), int) for k in "sv"):
        return None
    seat = Seat.objects.select_related("game").filter(pk=payload["s"]).first()
    return None if seat is None else (seat, seat.token_version == payload["v"])


def organiser_unsubscribe_token(game: Game) -> str:
    """The organiser's key to stop the absent-player alerts of one game (no sign-in needed),
    docs/long-games.md "Mail preferences". It names the organiser it is mailed to, so it opens
    nothing once the game passes to another organiser (games/services/unsubscribing.py)."""
    return signing.dumps({"g": game.pk, "u": game.organiser_id}, salt=ORGANISER_SALT, compress=False)


def read_organiser_unsubscribe_token(token: str) -> tuple[int, int | None] | None:
    """The game and organiser (user id) an organiser's key names, or None for anything forged.
    A key signed before keys named their organiser names None: nobody holds it now."""
    try:
        payload: Any = signing.loads(token, salt=ORGANISER_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("g"), int):
        return None
    user = payload.get("u")
    return payload["g"], user if isinstance(user, int) else None


def unsubscribe_headers(url: str) -> dict[str, str]:
    """List-Unsubscribe (one click, RFC 8058) for an email whose unsubscribe link is `url`."""
    return {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def organiser_mail_headers(game: Game) -> dict[str, str]:
    token = organiser_unsubscribe_token(game)
    return unsubscribe_headers(f"{settings.SITE_URL}{reverse('games:unsubscribe', args=[token])}")


def unsubscribe_url(seat: Seat) -> str:
    return f"{settings.SITE_URL}{reverse('games:unsubscribe', args=[unsubscribe_token(seat)])}"


Reply = tuple[str, str | int]  # what a reply is for: ("o", seq) or ("m", faction)


def keys_named(seat: Seat, reply: Reply | None = None) -> dict[str, Any]:
    """What `keys_signed` signs for an email to `seat`, as its outbox context stores it. The
    game and seat are the outbox row's own; the link version is the seat's now, so a link revoked
    before the email is sent stays revoked."""
    return {"version": seat.token_version, "reply": [reply[0], str(reply[1])] if reply else None}


@dataclass(frozen=True)
class SignedKeys:
    link: str
    unsubscribe_url: str
    reply_to: str  # "" when the service receives no email
    headers: dict[str, str]


def keys_signed(game_id: int, seat_id: int, named: dict[str, Any]) -> SignedKeys:
    """The keys `keys_named` named, signed now (by the worker sending the email; no query).

    An email whose reply goes to another player (a message's, H-SCREEN) links to the seat's
    token-free page (its seat cookie opens it, games/web/seat_cookies.py), not the signed link: a
    reply quotes the whole email back, and the relay (games/services/relay.py) is then the second guard,
    not the only one. Without a reply address a reply reaches nobody; the signed link stays."""
    seat = Seat(pk=seat_id, game_id=game_id, token_version=named["version"])
    unsubscribe = unsubscribe_url(seat)
    reply = named.get("reply")
    reply_to = reply_address(seat, reply[0], reply[1]) if reply else ""
    to_a_player = bool(reply_to) and reply is not None and reply[0] == "m"
    return SignedKeys(
        link=f"{settings.SITE_URL}{seat_path(game_id, seat_id)}" if to_a_player else seat_url(seat),
        unsubscribe_url=unsubscribe,
        reply_to=reply_to,
        headers=unsubscribe_headers(unsubscribe),
    )
