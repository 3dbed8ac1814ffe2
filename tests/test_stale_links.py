"""Old and wrong links and replies in a game that runs for weeks (games/fresh_links.py, docs/order-loop.md
"Links that open nothing", docs/email-orders.md "What comes back"): each ends in a clear page or
answer in the player's language with a way forward, and changes nothing in the game.

Pages through the test client, emails as the messages actually sent.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail, signing
from django.urls import reverse
from django.utils import timezone

from bench.simulate import SimulationReport, simulate_game
from games.links import SALT, link_token, revoke_links
from games.mail_keys import reply_address
from games.models import Event, Game, Seat
from games.substitutes import hand_over_seat
from notifications.inbound import sweep_inbound
from notifications.models import InboundMail
from notifications.services import deliver_outbox
from tests.order_loop_support import link_in, two_player_game
from tests.test_email_orders import inbound_settings, postmark  # noqa: F401  (the fixture: inbound mail on)

pytestmark = pytest.mark.django_db

NEW_LINK = "/links/new/"
ON_ITS_WAY = "If this address plays a seat on this server, an email with its link is on its way to it."


def play_url(game_id: int, token: str) -> str:
    return reverse("games:play", args=[game_id, token])


def events(game: Game) -> int:
    return Event.objects.filter(game=game).count()


def emails_so_far_sent() -> None:
    """The game's welcome emails out of the way: what the test looks at is sent after."""
    deliver_outbox()
    mail.outbox = []


def new_link_emails(address: str) -> list:
    deliver_outbox()
    return [m for m in mail.outbox if m.to == [address] and "new link" in m.subject]


def ask_for_a_new_link(client, address: str, **headers) -> str:
    """Post the form of a page that opens nothing, as the browser does; the page it lands on."""
    response = client.post(NEW_LINK, {"email": address}, follow=True, **headers)
    assert response.status_code == 200 and response.redirect_chain == [(f"{NEW_LINK}?sent=1", 302)]
    return response.content.decode()


def test_an_expired_link_says_so_in_german_and_a_new_link_reaches_the_seat_and_opens_the_game(client):
    game = two_player_game()
    seat = game.seats.get(faction="athens")  # Ana
    old = link_token(seat)
    before = events(game)
    emails_so_far_sent()
    with time_machine.travel(timedelta(days=31)):
        page = client.get(play_url(game.pk, old), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
        text = page.content.decode()
        assert page.status_code == 403
        assert "Dieser Link ist abgelaufen." in text
        assert "Du musst nicht warten" in text and 'action="/links/new/"' in text
        landed = ask_for_a_new_link(client, "  ANA@Example.com ", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
        assert "Spielt diese Adresse einen Platz auf diesem Server" in landed
        (email,) = new_link_emails(seat.email)
        assert "asked for a new link to your seat of Athens" in email.body
        fresh = link_in(email)
        assert client.get(fresh).status_code == 200  # signed when sent: valid for its full age
        assert client.get(play_url(game.pk, old)).status_code == 403
    assert events(game) == before
    assert len(mail.outbox) == 1


def test_the_answer_is_the_same_for_an_address_that_plays_nowhere_and_nothing_is_sent(client):
    game = two_player_game()
    before = events(game)
    emails_so_far_sent()
    known = ask_for_a_new_link(client, "ana@example.com")
    unknown = ask_for_a_new_link(client, "nobody@example.com")
    assert ON_ITS_WAY in known and known == unknown
    deliver_outbox()
    assert [m.to for m in mail.outbox] == [["ana@example.com"]]
    assert events(game) == before


def test_a_new_link_goes_out_once_an_hour_per_seat_and_asks_are_limited_per_client(client, settings):
    two_player_game()
    emails_so_far_sent()
    ask_for_a_new_link(client, "ben@example.com")
    ask_for_a_new_link(client, "ben@example.com")
    assert len(new_link_emails("ben@example.com")) == 1
    with time_machine.travel(timedelta(hours=1)):
        ask_for_a_new_link(client, "ben@example.com")
        assert len(new_link_emails("ben@example.com")) == 2
    settings.RATE_LIMITS = {"newlinks": (1, 3600)}
    ask_for_a_new_link(client, "ana@example.com")
    refused = client.post(NEW_LINK, {"email": "ana@example.com"})
    assert refused.status_code == 429
    assert "No link was sent. Wait, then ask again." in refused.content.decode()


def test_a_mistyped_address_is_refused_next_to_the_field_and_nothing_is_sent(client):
    two_player_game()
    emails_so_far_sent()
    response = client.post(NEW_LINK, {"email": "ana(at)example"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert "Bitte gültige E-Mail-Adresse eingeben." in response.content.decode()
    deliver_outbox()
    assert mail.outbox == []


def test_a_link_with_one_character_changed_suggests_the_latest_email_or_a_new_link(client):
    game = two_player_game()
    seat = game.seats.get(faction="athens")  # Ana
    token = link_token(seat)
    middle = len(token) // 2
    changed = token[:middle] + ("A" if token[middle] != "A" else "B") + token[middle + 1 :]
    before = events(game)
    for page in (
        client.post(play_url(game.pk, changed), {"kind": "pass", "expected_seq": before}),
        client.get(f"{play_url(game.pk, changed)}history/"),
    ):
        text = page.content.decode()
        assert page.status_code == 403
        assert "This link is not valid." in text and "Perhaps the link lost a character" in text
        assert 'action="/links/new/"' in text
    assert events(game) == before


def test_a_link_of_a_deleted_game_and_a_game_that_never_existed(client):
    game = two_player_game()
    seat = game.seats.get(faction="athens")  # Ana
    # A link the server signed for a game that is not there any more (an organiser's deletion).
    gone = signing.dumps({"g": game.pk + 1000, "s": seat.pk + 1000, "v": 1}, salt=SALT, compress=False)
    page = client.get(play_url(game.pk + 1000, gone), HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 404
    assert "Diese Partie gibt es auf diesem Server nicht mehr." in page.content.decode()
    # A game number typed wrong: the link is this game's.
    page = client.get(play_url(game.pk + 7, link_token(seat)))
    assert page.status_code == 404
    assert "This link does not belong to this game." in page.content.decode()
    assert 'action="/links/new/"' in page.content.decode()


def test_after_a_hand_over_the_old_link_says_so_and_a_new_link_goes_to_the_substitute_only(client):
    game = two_player_game()
    seat = game.seats.get(faction="athens")  # Ana
    old = link_token(seat)
    hand_over_seat(seat, "Cleo", "cleo@example.com")
    before = events(game)
    emails_so_far_sent()
    page = client.get(play_url(game.pk, old)).content.decode()
    assert "This link has been withdrawn by the organiser." in page
    assert "If the organiser handed your seat to another player, ask the organiser." in page
    ask_for_a_new_link(client, "ana@example.com")  # the old player's address has no seat now
    assert new_link_emails("ana@example.com") == [] and mail.outbox == []
    ask_for_a_new_link(client, "cleo@example.com")
    (email,) = new_link_emails("cleo@example.com")
    assert client.get(link_in(email)).status_code == 200
    assert events(game) == before


@pytest.fixture
def ended_game() -> tuple[Game, Seat]:
    """A whole simulated game (a few seconds) with a seat for Athens."""
    game = simulate_game(["athens", "sparta"], random.Random(7), SimulationReport())
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    return game, Seat.objects.create(game=game, faction="athens", name="Ana", email="ana@example.com")


def test_an_ended_games_page_refuses_a_stale_order_by_saying_the_game_ended(client, ended_game):
    game, seat = ended_game
    before = events(game)
    response = client.post(play_url(game.pk, link_token(seat)), {"kind": "pass", "expected_seq": 3})
    text = response.content.decode()
    assert response.status_code == 409
    assert "The game has ended: it takes no more orders, and nothing was changed." in text
    assert "re-order" not in text
    assert events(game) == before


def test_a_reply_to_an_old_turn_email_of_an_ended_game_is_told_the_game_ended(client, ended_game):
    game, seat = ended_game
    seat.language = "de"
    seat.save()
    before = events(game)
    emails_so_far_sent()
    for line in ("pass", "this is not an order"):
        postmark(client, reply_address(seat, "o", 5), line)
    deliver_outbox()
    answers = [m for m in mail.outbox if m.to == [seat.email]]
    assert len(answers) == 2
    for answer in answers:
        assert "Die Partie ist beendet: Sie nimmt keine Befehle mehr an" in answer.body
        assert "weitergegangen" not in answer.body  # not "moved on, reply to order on it"
        assert "Befehle per E-Mail" not in answer.body  # no syntax help for a game that takes none
    assert events(game) == before


def revoked_athens() -> tuple[Game, Seat, str]:
    """A two-player game whose Athens seat (Ana) had its links revoked, the reply address of its
    turn email, now withdrawn, and the emails so far out of the way."""
    game = two_player_game()
    seat = game.seats.get(faction="athens")  # Ana
    old_reply = reply_address(seat, "o", events(game))
    revoke_links(seat)
    emails_so_far_sent()
    return game, seat, old_reply


def test_a_reply_to_a_withdrawn_address_from_the_seats_own_address_gets_the_current_link(client):
    game, seat, old_reply = revoked_athens()
    before = events(game)
    postmark(client, old_reply, "pass", sender="Ana@Example.com")
    postmark(client, old_reply, "pass", sender="Ana@Example.com")  # within the hour: no second answer
    deliver_outbox()
    (answer,) = mail.outbox
    assert answer.to == [seat.email]
    assert "went to a reply address of Athens that the organiser has withdrawn" in answer.body
    assert client.get(link_in(answer)).status_code == 200
    (new_reply,) = answer.reply_to
    assert re.search(r"\.2\.\d+\.", new_reply)  # the seat's current link version
    assert events(game) == before


def test_a_reply_to_a_withdrawn_address_from_another_address_gets_no_answer(client):
    game = two_player_game()
    seat = game.seats.get(faction="athens")  # Ana
    old_reply = reply_address(seat, "o", events(game))
    hand_over_seat(seat, "Cleo", "cleo@example.com")
    before = events(game)
    emails_so_far_sent()
    postmark(client, old_reply, "pass", sender="ana@example.com")  # the player the seat was taken from
    postmark(client, old_reply, "pass")  # a stranger
    deliver_outbox()
    assert mail.outbox == []
    assert events(game) == before


def stored_unhandled(client, monkeypatch, to: str, text: str) -> None:
    """A reply the webhook stored while its address was good, not yet handled (the worker is down)."""
    monkeypatch.setattr("notifications.inbound._nudge", lambda inbound_id: None)
    postmark(client, to, text)
    (stored,) = InboundMail.objects.filter(outcome="")
    assert stored.reply_to == to


def test_a_reply_stored_before_the_seats_links_were_revoked_gets_the_withdrawn_answer(client, monkeypatch):
    """Handled after the revocation, it changed nothing and got no answer at all: the player, who
    wrote to a good address, heard nothing. Now as a reply to the withdrawn address from the seat."""
    game = two_player_game()
    seat = game.seats.get(faction="athens")  # Ana
    emails_so_far_sent()
    stored_unhandled(client, monkeypatch, reply_address(seat, "o", events(game)), "pass")
    revoke_links(seat)
    before = events(game)
    assert sweep_inbound(older_than=timedelta(0)) == 1
    deliver_outbox()
    (answer,) = mail.outbox
    assert answer.to == [seat.email]
    assert "went to a reply address of Athens that the organiser has withdrawn" in answer.body
    assert "nothing was changed" in answer.body
    assert client.get(link_in(answer)).status_code == 200  # the seat's current link
    assert InboundMail.objects.get().outcome == "revoked"
    assert events(game) == before


def test_a_reply_stored_before_its_seat_was_handed_to_another_address_gets_no_answer(client, monkeypatch):
    game = two_player_game()
    seat = game.seats.get(faction="athens")  # Ana
    emails_so_far_sent()
    stored_unhandled(client, monkeypatch, reply_address(seat, "o", events(game)), "pass")
    hand_over_seat(seat, "Cleo", "cleo@example.com")
    emails_so_far_sent()  # Cleo's welcome
    before = events(game)
    assert sweep_inbound(older_than=timedelta(0)) == 1
    deliver_outbox()
    assert mail.outbox == []  # neither Cleo, who did not write, nor Ana, who plays the seat no more
    assert InboundMail.objects.get().outcome == "revoked"
    assert events(game) == before


def test_a_new_link_and_a_withdrawn_reply_in_the_same_hour_both_get_their_email(client):
    """The answer to a reply to a withdrawn address shared the new link's outbox key (game, hour,
    seat, "link"): after a new link asked for in the same hour it was dropped as a duplicate, so the
    player whose emailed order was not read was never told. Each still goes out once an hour."""
    game, seat, old_reply = revoked_athens()
    before = events(game)
    half_past = timezone.now().replace(minute=30, second=0, microsecond=0) + timedelta(hours=1)
    with time_machine.travel(half_past):  # all four in one hour, whenever the test runs
        ask_for_a_new_link(client, "ana@example.com")
        postmark(client, old_reply, "pass", sender="ana@example.com")
        ask_for_a_new_link(client, "ana@example.com")  # within the hour: no second new link
        postmark(client, old_reply, "pass", sender="ana@example.com")  # nor a second answer
    deliver_outbox()
    assert all(m.to == [seat.email] for m in mail.outbox)
    (new_link,) = [m for m in mail.outbox if "asked for a new link to your seat of Athens" in m.body]
    (answer,) = [m for m in mail.outbox if "went to a reply address of Athens that" in m.body]
    assert "nothing was changed" in answer.body
    assert len(mail.outbox) == 2
    for email in (new_link, answer):
        assert client.get(link_in(email)).status_code == 200
    assert events(game) == before
