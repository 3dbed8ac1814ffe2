"""Sign-in by email (docs/front-door.md "Sign-in"): no password, a one-time link instead.

Anyone may ask for a link with their address; `ask_for_sign_in` writes the request and its email's
outbox row in one transaction (games/mail/frontdoor.py signs the link as it is sent). The link is
good for SIGN_IN_MINUTES and once: `use_sign_in` marks its request used under the row's lock, so two
clicks (or a mail scanner and the person) cannot both sign in. The account is the address's (found
case-insensitively, else made with no usable password); the organiser's pages then show its games.
Asking is rate limited per address asked for and client, per client, and per address a day (the
view's `rate_limited`, aegea_pbem/rate_limits.py `mailing_an_address`). The daily
beat task `games.prune_sign_ins` deletes the requests that can sign nobody in any more
(`prune_sign_in_requests`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.mail.frontdoor import mail_sign_in, row_of_token
from games.models import SignInRequest
from games.services.game_setup import is_an_address

SIGN_IN_MINUTES = 30
# A request past its expiry, or spent, is kept this long (an operator's look at "my link did not come")
# before the daily pruning deletes it.
PRUNE_AFTER = timedelta(days=1)


class SignInError(ValueError):
    """A sign-in that cannot go on; the message is fit to show the person."""


def ask_for_sign_in(email: str, language: str, next_path: str = "") -> SignInRequest:
    """Mail a one-time sign-in link to `email` in `language` (the address is not checked against any
    account: whoever reads that mailbox may sign in as it). `next_path`: the local page the link
    lands on (the caller checked it is one of ours; the view checks it again on use)."""
    email = email.strip()
    if not is_an_address(email):
        raise SignInError(_("%(email)s is not an email address.") % {"email": email})
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    now = timezone.now()
    with transaction.atomic():
        request = SignInRequest.objects.create(
            email=email,
            language=language,
            created=now,
            expires=now + timedelta(minutes=SIGN_IN_MINUTES),
            next_path=next_path[:300],
        )
        mail_sign_in(request)
    return request


def check_sign_in(token: str) -> SignInRequest:
    """The request a link's token names, if it can still sign in (else SignInError); changes nothing."""
    pk = row_of_token("signin", token)
    request = SignInRequest.objects.filter(pk=pk).first() if pk is not None else None
    _refuse_spent(request)
    assert request is not None
    return request


def use_sign_in(token: str) -> AbstractBaseUser:
    """Spend a sign-in link: its request marked used, the account of its address (made if new)."""
    pk = row_of_token("signin", token)
    with transaction.atomic():
        request = SignInRequest.objects.select_for_update().filter(pk=pk).first() if pk is not None else None
        _refuse_spent(request)
        assert request is not None
        request.used = timezone.now()
        request.save(update_fields=["used"])
        return account_of(request.email)


def _refuse_spent(request: SignInRequest | None) -> None:
    if request is None:
        raise SignInError(_("This sign-in link is not valid. Ask for a new one."))
    if request.used is not None:
        raise SignInError(_("This sign-in link was used already. Ask for a new one."))
    if request.expires <= timezone.now():
        raise SignInError(_("This sign-in link has expired. Ask for a new one."))


def account_of(email: str) -> AbstractBaseUser:
    """The account of an address: an existing one with that address (case does not count), else a
    new one named by it, which has no usable password (only links sign it in)."""
    users = get_user_model()
    user = users.objects.filter(email__iexact=email.strip(), is_active=True).order_by("pk").first()
    if user is not None:
        return user
    username = email.strip().lower()[:150]
    user = users.objects.filter(username=username).first()
    if user is not None and not user.is_active:
        raise SignInError(_("This account is closed."))
    if user is None:
        user = users(username=username, email=email.strip())
        user.set_unusable_password()
        user.save()
    return user


def prune_sign_in_requests(now: datetime | None = None) -> int:
    """Delete the requests that expired, or were spent, more than PRUNE_AFTER ago: their links sign
    nobody in (check_sign_in refuses a request it cannot find as it refuses a spent one), and the
    table would otherwise grow by every ask for ever. Ids are not reused (PostgreSQL's sequence,
    SQLite's AUTOINCREMENT), so an old link never names a newer request. Returns how many."""
    before = (now or timezone.now()) - PRUNE_AFTER
    deleted, _by_model = SignInRequest.objects.filter(Q(expires__lt=before) | Q(used__lt=before)).delete()
    return deleted
