"""The local mailbox page (DEBUG, `make run`): each email as a mail client shows it, and a reply to it
that goes through the inbound path an ESP's webhook takes.

Finding: the page listed file names and served each file as a raw MIME dump, and a local reply
order could not be tried at all.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from games.models import Event
from games.web.dev_mailbox import mailbox_emails
from tests.order_loop_support import seats_to_act, two_player_game


@pytest.fixture
def mailbox(settings, tmp_path, client):
    """Django's file backend writing into a scratch folder, as `make run` does into var/mailbox; the
    client a browser on this machine, the only one the mailbox answers (aegea_pbem/serving.py)."""
    client.defaults["HTTP_HOST"] = "127.0.0.1:8000"
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.INBOUND_DOMAIN = "aegeapolis.localhost"
    mail.outbox = []
    return tmp_path


@pytest.mark.django_db(transaction=True)
def test_the_mailbox_lists_each_email_by_time_recipient_and_subject(client, mailbox) -> None:
    game = two_player_game(name="Corfu")

    page = client.get(reverse("games:mailbox")).content.decode()

    emails = mailbox_emails(mailbox)
    assert {e.to for e in emails} == {s.email for s in game.seats.all()}
    for found in emails:
        assert found.subject in page
        assert found.sent is not None
        assert reverse("games:mailbox-message", args=[found.key]) in page
    assert ".log" not in page.replace(".log:", "")  # subjects, not file names


@pytest.mark.django_db(transaction=True)
def test_an_email_shows_its_html_and_plain_text_side_by_side_with_its_headers(client, mailbox) -> None:
    game = two_player_game(name="Corfu")
    seat = game.seats.get(faction="athens")
    (welcome,) = [e for e in mailbox_emails(mailbox) if seat.email in e.to]

    page = client.get(reverse("games:mailbox-message", args=[welcome.key])).content.decode()

    assert 'class="mail-html"' in page and 'src="?part=html"' in page
    frame = client.get(reverse("games:mailbox-message", args=[welcome.key]), {"part": "html"})
    assert frame.content.decode() == welcome.html
    policy = frame["Content-Security-Policy"]
    assert "sandbox" in policy and "script-src" not in policy
    assert 'class="mail-text"' in page
    assert welcome.text.splitlines()[0] in page
    assert "Content-Transfer-Encoding" not in page  # not a MIME dump
    assert "orders+" in page  # its Reply-To, shown
    assert "data:image/png;base64," in welcome.html and "cid:" not in welcome.html  # the board, shown


@pytest.mark.django_db(transaction=True)
def test_reply_to_this_email_gives_the_order_through_the_inbound_path(client, mailbox) -> None:
    game = two_player_game(name="Corfu")
    (seat,) = seats_to_act(game)
    (turn,) = [e for e in mailbox_emails(mailbox) if seat.email in e.to]

    answer = client.post(reverse("games:mailbox-message", args=[turn.key]), {"reply": "pass"}, follow=True)

    assert Event.objects.filter(game=game, type="PlayerPassed", actor=seat.faction).exists()
    assert "Your reply was received as if by email" in answer.content.decode()
    assert len(mailbox_emails(mailbox)) > 2  # the next player's turn email, in the same mailbox


@pytest.mark.django_db(transaction=True)
def test_an_empty_reply_or_one_to_an_email_without_reply_address_changes_nothing(
    client, mailbox, settings
) -> None:
    game = two_player_game(name="Corfu")
    (seat,) = seats_to_act(game)
    (turn,) = [e for e in mailbox_emails(mailbox) if seat.email in e.to]
    events = Event.objects.filter(game=game).count()

    empty = client.post(reverse("games:mailbox-message", args=[turn.key]), {"reply": "  "})
    assert "Write the reply first" in empty.content.decode()

    settings.INBOUND_DOMAIN = ""
    two_player_game(name="Delos")
    (plain,) = [e for e in mailbox_emails(mailbox) if "Delos" in e.subject and seat.email in e.to]
    page = client.get(reverse("games:mailbox-message", args=[plain.key])).content.decode()
    assert "INBOUND_DOMAIN" in page and 'name="reply"' not in page
    assert Event.objects.filter(game=game).count() == events
