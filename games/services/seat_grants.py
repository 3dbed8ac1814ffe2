"""Seat grants: a seat cookie admits its browser only while the server says so (docs/operations.md
"Links and the seat cookie").

Opening a seat's emailed link (a signed-in player's own seat goes through a fresh one) records a
grant for that browser: a random key, for one seat at its link version, until `links.max_age()`
after it was made. The browser's seat cookie carries the key (games/web/seat_cookies.py); the
table keeps only its SHA-256, and that of the browser's own random id, so a copy of the table opens
nothing. A request with the cookie is admitted while its grant is live: not revoked, not expired,
and its seat still at the link version it was granted under, so a hand-over to a substitute or a
withdrawal of the seat's links (`links.revoke_links`) ends every grant made before, as it ends the
links. Sign-out revokes the browser's grants ("Sign out"); the seat's page revokes every grant of
its seat ("Sign out everywhere"). The emailed link makes a new grant whenever it is opened again.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from games.models import Seat, SeatGrant
from games.reading.links import LinkError, max_age

# `last_used` is written at most this often: a page view is not a write.
TOUCH_EVERY = timedelta(minutes=10)
# Revoked or expired grants are kept this long (a look at the table finds what ended them), then pruned.
KEPT_AFTER_END = timedelta(days=1)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_browser_id() -> str:
    """A random id for a browser that has none yet: the grants it is given are its own."""
    return secrets.token_urlsafe(32)


def _live(grants: QuerySet[SeatGrant], now: datetime) -> QuerySet[SeatGrant]:
    return grants.filter(revoked_at=None, expires__gt=now)


def grant_seat(seat: Seat, browser: str, now: datetime | None = None) -> str:
    """A new grant of `seat` to `browser`; the key its seat cookie carries. The browser's earlier
    grants of the seat end: its cookie, now replaced, held one, and a copy of it opens nothing."""
    now = now or timezone.now()
    key = secrets.token_urlsafe(32)
    with transaction.atomic():
        _live(SeatGrant.objects.filter(seat=seat, browser_hash=digest(browser)), now).update(revoked_at=now)
        SeatGrant.objects.create(
            seat=seat,
            key_hash=digest(key),
            browser_hash=digest(browser),
            token_version=seat.token_version,
            created=now,
            last_used=now,
            expires=now + max_age(),
        )
    return key


def admitted_seat(key: str, game_id: int, seat_id: int, now: datetime | None = None) -> Seat:
    """The seat (with its game) a live grant admits at /play/<game_id>/<seat_id>/, or LinkError:
    "unknown" (another seat's grant), "signed_out" (revoked, or no such grant), "grant_expired",
    "revoked" (the seat's links were withdrawn: a substitute holds it, say), "gone" (its game)."""
    now = now or timezone.now()
    grant = SeatGrant.objects.select_related("seat__game").filter(key_hash=digest(key)).first()
    if grant is None:  # pruned, or its seat deleted with its game
        gone = not Seat.objects.filter(pk=seat_id, game_id=game_id).exists()
        raise LinkError("gone" if gone else "signed_out")
    if grant.seat_id != seat_id or grant.seat.game_id != game_id:
        raise LinkError("unknown")
    if grant.revoked_at is not None:
        raise LinkError("signed_out")
    if grant.expires <= now:
        raise LinkError("grant_expired")
    if grant.token_version != grant.seat.token_version:
        raise LinkError("revoked")
    if now - grant.last_used >= TOUCH_EVERY:
        SeatGrant.objects.filter(pk=grant.pk).update(last_used=now)
    return grant.seat


def live_grant_version(key: str, game_id: int, seat_id: int) -> int | None:
    """The link version of the seat a live grant `key` admits, for the seat's rate-limit bucket
    (games/web/seat_limits.py); None for any other key: it spends its client's address's."""
    grants = SeatGrant.objects.filter(
        key_hash=digest(key),
        seat_id=seat_id,
        seat__game_id=game_id,
        token_version=F("seat__token_version"),
    )
    return _live(grants, timezone.now()).values_list("token_version", flat=True).first()


def sign_out_browser(browser: str, seat_ids: Iterable[int]) -> int:
    """Revoke the grants of `browser` for `seat_ids`, the seats its signed cookie says it was granted
    (Sign out); how many were live."""
    now = timezone.now()
    grants = SeatGrant.objects.filter(browser_hash=digest(browser), seat_id__in=list(seat_ids))
    return _live(grants, now).update(revoked_at=now)


def sign_out_everywhere(seat: Seat) -> int:
    """Revoke every grant of `seat`, in every browser; how many were live. The emailed link still
    opens the seat (and makes a new grant)."""
    now = timezone.now()
    return _live(SeatGrant.objects.filter(seat=seat), now).update(revoked_at=now)


def prune_seat_grants(now: datetime | None = None) -> int:
    """Delete the grants revoked or expired more than KEPT_AFTER_END ago (the daily beat task
    games.prune_seat_grants): they admit nobody any more. How many were deleted."""
    before = (now or timezone.now()) - KEPT_AFTER_END
    ended = SeatGrant.objects.filter(revoked_at__lt=before) | SeatGrant.objects.filter(expires__lt=before)
    deleted, _by_model = ended.delete()
    return deleted
