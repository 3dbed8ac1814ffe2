"""Security of the pages and emails that came with new links (games/services/fresh_links.py): CSRF on the
new-link form and the one-tap time zone, their rate limits, and no link or player's address in the
logs of asking for a new link, mailing it (also when the ESP refuses it) or answering a reply to a
withdrawn address. The rest of the security checks: test_security.py."""

from __future__ import annotations

import io
import logging
import smtplib
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import time_machine
from django.core import mail
from django.core.cache import caches
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse

from games.mail.keys import reply_address
from games.models import Event, Game
from games.reading.links import link_token, revoke_links
from notifications.models import Outbox
from notifications.services import deliver_outbox
from tests.browser_like_client import BrowserLikeClient
from tests.inbox.support import inbound_settings, postmark  # noqa: F401  (fixture)
from tests.notifications.celery_fixtures import anymail_outbox, celery_worker, wait_until  # noqa: F401
from tests.order_loop_support import link_in, two_player_game

pytestmark = pytest.mark.django_db

NEW_LINK = "/links/new/"


class RefusingBackend(BaseEmailBackend):
    """An SMTP server that refuses the recipient: its error names the address, as real ones do."""

    def send_messages(self, email_messages):
        address = email_messages[0].to[0]
        reason = f"5.1.1 <{address}>: Recipient address rejected".encode()
        raise smtplib.SMTPRecipientsRefused({address: (550, reason)})


def time_zone_url(game: Game) -> str:
    seat = game.seats.get(faction="athens")
    return reverse("games:play-rest", args=[game.pk, link_token(seat), "time-zone/"])


def test_the_new_link_form_and_the_one_tap_time_zone_are_refused_without_the_csrf_token():
    game = two_player_game()
    client = BrowserLikeClient(enforce_csrf_checks=True)
    client.get(NEW_LINK)  # the page sets the CSRF cookie; the posts below leave the token out
    client.get(reverse("games:play", args=[game.pk, link_token(game.seats.get(faction="athens"))]))
    outbox = Outbox.objects.count()
    asked = client.post(NEW_LINK, {"email": "ana@example.com"})
    tapped = client.post(time_zone_url(game), {"time_zone": "Europe/Berlin"})
    assert (asked.status_code, tapped.status_code) == (403, 403)
    assert Outbox.objects.count() == outbox
    assert game.seats.get(faction="athens").time_zone == ""


def test_the_new_link_page_carries_the_security_headers(client):
    for response in (client.get(NEW_LINK), client.post(NEW_LINK, {"email": "nobody@example.com"})):
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in response["Content-Security-Policy"]


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)  # inside one window
def test_asks_for_a_new_link_are_limited_per_client_whatever_address_is_asked_and_a_refusal_mails_nothing(
    client, settings
):
    """Trying address after address to find who plays (or to mail players) is limited by who asks,
    not by the address asked; a mistyped address counts too; reading the form does not."""
    settings.RATE_LIMITS = {"newlinks": (3, 3600), "orders": (2, 60), "links": (100, 60)}
    caches["ratelimit"].clear()
    game = two_player_game()
    asks = ["nobody@example.com", "not an address", "ana@example.com", "ben@example.com"]
    assert [client.post(NEW_LINK, {"email": a}).status_code for a in asks] == [302, 400, 302, 429]
    assert client.get(NEW_LINK).status_code == 200
    assert not Outbox.objects.filter(kind="link", to_email="ben@example.com").exists()
    other = BrowserLikeClient(REMOTE_ADDR="10.0.0.9")  # another client is counted apart
    assert other.post(NEW_LINK, {"email": "ben@example.com"}).status_code == 302
    # The one-tap time zone posts under a link: an order's limit (RATE_LIMITS "orders").
    taps = [client.post(time_zone_url(game), {"time_zone": z}).status_code for z in ("UTC", "GB", "")]
    assert taps == [302, 302, 429]
    assert game.seats.get(faction="athens").time_zone == "UTC"


@pytest.fixture
def logged(caplog) -> Iterator[io.StringIO]:
    """Everything logged, at DEBUG: what the console handler writes (redacted as in production)."""
    caplog.set_level(logging.DEBUG)
    console = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    written = io.StringIO()
    old_stream = console.setStream(written)
    try:
        yield written
    finally:
        console.setStream(old_stream)


def test_no_new_link_and_no_players_address_appears_in_the_logs(client, caplog, logged, settings):
    """Asking for a new link, mailing it, the ESP refusing one (an SMTP refusal names its address)
    and answering a reply to a withdrawn address: the link and the seat's address stay out of it."""
    game = two_player_game()
    ana, ben = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    old_reply = reply_address(ana, "o", Event.objects.filter(game=game).count())
    revoke_links(ana)
    deliver_outbox()
    mail.outbox = []
    client.post(NEW_LINK, {"email": "ANA@example.com"})
    client.post(NEW_LINK, {"email": "no such address"})
    deliver_outbox()
    (email,) = mail.outbox
    new_link = link_in(email)
    client.get(new_link)  # the player opens it
    postmark(client, old_reply, "pass", sender=ana.email)  # answered: its own email, not the link's
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    client.post(NEW_LINK, {"email": ben.email})
    deliver_outbox()
    for kind, seat in (("link", ben), ("withdrawn", ana)):  # the outbox rows keep the reason
        failed = Outbox.objects.get(kind=kind, seat_id=seat.pk)
        assert failed.last_error.startswith("SMTPRecipientsRefused")
    fields = "".join(f"{r.args} {getattr(r, 'data', '')}" for r in caplog.records)  # for JSON logs
    text = caplog.text + logged.getvalue() + fields
    assert "delivery failed" in text and "new links asked for" in text  # it did log, at DEBUG
    token = new_link.rstrip("/").rsplit("/", 1)[1]
    assert token not in text and token.rsplit(":", 1)[1] not in text
    assert not [address for address in ("ana@example.com", "ben@example.com") if address in text.lower()]


@pytest.mark.django_db(transaction=True)
def test_a_new_link_is_looked_up_and_mailed_by_a_worker_not_while_the_asker_waits(
    client,
    celery_worker,  # noqa: F811
    monkeypatch,
):
    """The page's words never tell whether an address plays; its answer time must not either. The
    lookup and the mailing run in the worker's thread, so a known address is answered as fast as
    an unknown one, and its link still arrives."""
    import threading

    from games.services import fresh_links

    two_player_game()
    looked_up_in = []
    lookup = fresh_links.request_new_links

    def recorded(email: str, now=None) -> int:
        looked_up_in.append(threading.current_thread())
        return lookup(email, now)

    monkeypatch.setattr(fresh_links, "request_new_links", recorded)
    response = client.post(NEW_LINK, {"email": "ana@example.com"})
    assert response.status_code == 302
    wait_until(lambda: any("Your new link" in m.subject for m in mail.outbox), what="the new link")
    assert looked_up_in and threading.current_thread() not in looked_up_in
    assert [m.to for m in mail.outbox if "Your new link" in m.subject] == [["ana@example.com"]]


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # the web process's thread needs the committed rows of a real database
def test_with_the_broker_down_a_new_link_is_mailed_after_the_answer_not_while_the_asker_waits(
    client,
    anymail_outbox,  # noqa: F811
    monkeypatch,
):
    """Redis down: the ask ran in the request, so an address that plays was answered later than
    one that does not (its seats' games loaded, their emails queued first). Now a thread of the web
    process carries it out after the answer, closing its database connection, and the link still
    arrives."""
    import threading

    from django.db import connections
    from kombu.exceptions import OperationalError

    from games import tasks
    from games.services import fresh_links
    from games.tasks import send_new_links

    def refused(*args, **kwargs):  # what kombu raises when Redis refuses the connection
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(send_new_links, "apply_async", refused)
    two_player_game()
    answered = threading.Event()
    looked_up_in, used = [], []
    lookup = fresh_links.request_new_links

    def after_the_answer(email: str, now=None) -> int:
        looked_up_in.append(threading.current_thread())
        answered.wait(timeout=5)  # run in the request, this would hold the answer back
        used.append(connections["default"])  # the database connection of the thread that looks up
        return lookup(email, now)

    monkeypatch.setattr(fresh_links, "request_new_links", after_the_answer)
    response = client.post(NEW_LINK, {"email": "ana@example.com"})
    assert response.status_code == 302
    assert threading.current_thread() not in looked_up_in
    assert not Outbox.objects.filter(kind="link").exists()  # nothing looked up or queued yet
    answered.set()
    assert tasks.wait_for_background_asks(timeout=20)
    assert [m.to for m in mail.outbox if "Your new link" in m.subject] == [["ana@example.com"]]
    (thread,), (connection,) = looked_up_in, used
    assert thread.daemon and connection.connection is None  # closed when the ask was done


@pytest.mark.django_db(transaction=True)
def test_a_new_link_asked_of_a_worker_keeps_the_address_out_of_the_tasks_log_lines(
    client,
    celery_worker,  # noqa: F811
):
    """Celery logs a task's arguments when a worker receives it, when it succeeds and when it fails,
    in the line and in the record's fields (`args`, and `data` for handlers that keep fields: JSON
    logs, an error tracker), all from the message's argsrepr/kwargsrepr. The asked address is a
    player's: the message names the arguments hidden, while the worker still gets the address."""
    from celery.signals import before_task_publish

    published = []

    def record(sender=None, headers=None, **kwargs):
        published.append((sender, headers or {}))

    before_task_publish.connect(record)
    try:
        two_player_game()
        assert client.post(NEW_LINK, {"email": "ana@example.com"}).status_code == 302
        wait_until(lambda: any("Your new link" in m.subject for m in mail.outbox), what="the new link")
    finally:
        before_task_publish.disconnect(record)
    ((task, headers),) = [(s, h) for s, h in published if s == "games.send_new_links"]
    shown = f"{headers.get('argsrepr')} {headers.get('kwargsrepr')}"
    assert headers.get("argsrepr") and "ana@example.com" not in shown.lower()
