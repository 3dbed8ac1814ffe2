"""Orders by email reply (docs/email-orders.md): real Postmark and Mailgun inbound posts to anymail's URLs.

The payloads follow the ESPs' formats as anymail's docs and tests show them: Postmark posts
JSON (FromFull, ToFull, OriginalRecipient, TextBody, Headers, Attachments); Mailgun's forward()
route posts multipart form data (recipient, sender, body-plain, message-headers, attachment-N,
timestamp, token and the HMAC signature of timestamp+token).
"""

from __future__ import annotations

import base64
import json
from datetime import timedelta

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile

from games.engine import Pass
from games.mail.keys import reply_address, reply_token
from games.models import Event
from games.reading.situation import load_game
from games.services.inbox.order_syntax import OrderSyntaxError, parse_order, read_reply
from games.services.orders import submit_order
from notifications.models import InboundMail
from tests.inbox.support import (  # noqa: F401  (inbound_settings: autouse here too)
    ADDRESS,
    BASIC,
    DOMAIN,
    MAILGUN_KEY,
    SECRET,
    answers_to,
    inbound_settings,
    mailgun,
    post_inbound,
    postmark,
    turn_email_reply_to,
)
from tests.order_loop_support import seats_to_act, two_player_game


@pytest.mark.django_db
@pytest.mark.parametrize("post", [postmark, mailgun])
def test_a_valid_order_reply_is_applied_and_answered(client, post):
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    reply = "pass\n\nOn Mon, 30 Nov 2026 at 10:00, AEGEAPOLIS wrote:\n> It is your turn as Athens.\n"
    assert post(client, reply_to, reply).status_code == 200
    assert load_game(game).seq > before
    given = Event.objects.filter(game=game, seq__gt=before, type="PlayerPassed").get()
    assert given.payload["player"] == seat.faction
    (answer,) = answers_to(seat)
    assert "Your order was accepted: pass" in answer.body
    assert answer.reply_to and ADDRESS.fullmatch(answer.reply_to[0])
    assert InboundMail.objects.get().outcome == "accepted"


@pytest.mark.django_db
@pytest.mark.parametrize("post", [postmark, mailgun])
def test_a_forged_token_changes_nothing_and_gets_no_answer(client, post):
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    forged = reply_to.replace(reply_to.split(".")[-1].split("@")[0], "a" * 24)
    other_seat = f"orders+{reply_token(seat, 'o', before).replace(f'.{seat.pk}.', '.999999.')}@{DOMAIN}"
    for address in (
        forged,
        other_seat,
        f"orders+nonsense@{DOMAIN}",
        reply_to.replace(DOMAIN, "evil.example"),
    ):
        assert post(client, address, "pass").status_code == 200
    assert load_game(game).seq == before
    assert answers_to(seat) == [] and InboundMail.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("post", [postmark, mailgun])
def test_a_replayed_old_turn_reply_changes_nothing_and_is_answered_politely(client, post):
    game = two_player_game()
    seat, old_reply_to = turn_email_reply_to(game)
    submit_order(game, seat, Pass(seat.faction), load_game(game).seq)  # played on the web meanwhile
    while seats_to_act(game)[0] != seat:
        other = seats_to_act(game)[0]
        submit_order(game, other, Pass(other.faction), load_game(game).seq)
    before = load_game(game).seq
    assert post(client, old_reply_to, "fortify A1").status_code == 200  # not the order given on the web
    assert load_game(game).seq == before
    (answer,) = answers_to(seat)
    assert "The game has moved on since the email you answered; nothing was changed." in answer.body
    assert InboundMail.objects.get().outcome == "moved-on"


@pytest.mark.django_db
@pytest.mark.parametrize("post", [postmark, mailgun])
def test_h_order_the_same_order_emailed_twice_is_answered_as_already_accepted(client, post):
    """A second email with the same order (the player was not sure the first arrived), or the order
    given on the web and then emailed too: it stands once, and the answer says so."""
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    assert post(client, reply_to, "pass").status_code == 200
    after = load_game(game).seq
    assert post(client, reply_to, "pass").status_code == 200
    assert load_game(game).seq == after > before
    assert Event.objects.filter(game=game, type="PlayerPassed").count() == 1
    accepted, again = answers_to(seat)
    assert "Your order was accepted: pass" in accepted.body
    assert "You gave this order already" in again.body and "not given a second time" in again.body
    assert "moved on" not in again.body
    assert sorted(InboundMail.objects.values_list("outcome", flat=True)) == ["accepted", "already-accepted"]


@pytest.mark.django_db
@pytest.mark.parametrize("post", [postmark, mailgun])
def test_a_quoted_text_only_reply_changes_nothing(client, post):
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    quoted = "\n\nOn Mon, 30 Nov 2026 AEGEAPOLIS wrote:\n> pass\n> move C3 D4 3\n"
    assert post(client, reply_to, quoted).status_code == 200
    assert load_game(game).seq == before
    (answer,) = answers_to(seat)
    assert "We found no order in your reply (only quoted text)." in answer.body
    assert "expand D4 deck" in answer.body  # the syntax help


@pytest.mark.django_db
@pytest.mark.parametrize("post", [postmark, mailgun])
def test_a_5_mb_mail_changes_nothing_and_is_answered_politely(client, post):
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    big = b"\0" * (5 * 1024 * 1024)  # Postmark's JSON carries it base64-encoded: about 7 MB
    assert post(client, reply_to, "pass", attachment=big).status_code == 200
    assert load_game(game).seq == before
    (answer,) = answers_to(seat)
    assert "Your email was too large to be read" in answer.body
    record = InboundMail.objects.get()
    assert (record.outcome, record.text) == ("too-large", "") and record.size > 5 * 1024 * 1024


@pytest.mark.django_db
def test_a_mailgun_mail_with_5_mb_of_text_is_answered_politely_too(client):
    # Django's own parser would refuse the text field (over 2.5 MB) with a bare 400.
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    assert mailgun(client, reply_to, "pass\n" + "Ω" * (5 * 1024 * 1024 // 2)).status_code == 200
    assert load_game(game).seq == before
    (answer,) = answers_to(seat)
    assert "Your email was too large to be read" in answer.body
    assert InboundMail.objects.get().outcome == "too-large"


@pytest.mark.django_db
def test_a_large_mailgun_post_read_by_the_webhook_keeps_its_fields_and_files(client, settings):
    settings.INBOUND_MAX_BYTES = 8 * 1024 * 1024  # read it: the order in it counts
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    assert (
        mailgun(client, reply_to, "passen\n\nGrüße", attachment=b"\1" * (3 * 1024 * 1024)).status_code == 200
    )
    assert Event.objects.filter(game=game, type="PlayerPassed").count() == 1
    assert "Your order was accepted: passen" in answers_to(seat)[0].body
    assert InboundMail.objects.get().detail == "passen\nGrüße"


@pytest.mark.django_db
@pytest.mark.parametrize("post", [postmark, mailgun])
def test_a_5_mb_mail_to_an_unknown_address_gets_no_answer(client, post):
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    forged = reply_to.replace(reply_to.split(".")[-1].split("@")[0], "a" * 24)
    assert post(client, forged, "pass", attachment=b"\0" * (5 * 1024 * 1024)).status_code == 200
    assert answers_to(seat) == [] and InboundMail.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("post", [postmark, mailgun])
def test_a_post_above_the_webhook_bound_is_refused_unread(client, post, settings):
    settings.INBOUND_POST_MAX_BYTES = 3 * 1024 * 1024
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    assert post(client, reply_to, "pass", attachment=b"\0" * (4 * 1024 * 1024)).status_code == 413
    assert load_game(game).seq == before
    assert answers_to(seat) == [] and InboundMail.objects.count() == 0


@pytest.mark.django_db
def test_a_spam_flagged_or_malformed_or_illegal_order_changes_nothing_and_is_answered(client):
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    assert postmark(client, reply_to, "pass", spam=True).status_code == 200
    assert postmark(client, reply_to, "dance around D4").status_code == 200
    assert postmark(client, reply_to, "fortify I9").status_code == 200
    assert load_game(game).seq == before
    bodies = [m.body for m in answers_to(seat)]
    assert "marked as spam" in bodies[0]
    assert 'Your order could not be read: "dance" is not an order keyword.' in bodies[1]
    assert "The rules refuse this order" in bodies[2]
    outcomes = list(InboundMail.objects.order_by("id").values_list("outcome", flat=True))
    assert outcomes == ["spam", "malformed", "rule-violation"]


@pytest.mark.django_db
@pytest.mark.parametrize("words", ["keep neither", "keine behalten"])
def test_s_exp_choice_keep_neither_without_a_waiting_choice_is_told_no_choice_waits(client, words):
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    assert postmark(client, reply_to, words).status_code == 200
    assert load_game(game).seq == before
    (answer,) = answers_to(seat)
    assert "There is no tile choice waiting for you." in answer.body
    assert "list both tiles" not in answer.body  # the shape check's words, as if a choice waited
    assert InboundMail.objects.get().outcome == "rule-violation"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "reply",
    ["recruit C3 \u1369", "move C3 D4 \u1369", "accept " + "9" * 5000, "offer sparta \u1369 ap for 1 fp"],
    ids=["ethiopic-digit", "ethiopic-in-move", "5000-digits", "ethiopic-in-offer"],
)
def test_a_number_int_cannot_read_is_answered_as_unreadable_at_once(client, reply):
    """isdigit() takes "\u1369" (Ethiopic one) and any run of digits, int() neither: the ValueError
    failed the mail's handling, again at every sweep, until it was given up ("could not be handled")."""
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    assert postmark(client, reply_to, reply).status_code == 200
    assert load_game(game).seq == before
    record = InboundMail.objects.get()
    assert (record.outcome, record.attempts) == ("malformed", 1)
    (answer,) = answers_to(seat)
    assert "Your order could not be read" in answer.body


@pytest.mark.django_db
def test_the_webhook_refuses_posts_without_the_secret(client):
    game = two_player_game()
    _seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    assert (
        postmark(client, reply_to, "pass", auth="Basic " + base64.b64encode(b"x:y").decode()).status_code
        == 400
    )
    assert load_game(game).seq == before


@pytest.mark.django_db
def test_the_same_email_posted_twice_is_handled_once(client):
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    payload = {
        "To": reply_to,
        "FromFull": {"Email": "x@y.example", "Name": ""},
        "ToFull": [{"Email": reply_to}],
    }
    payload |= {"OriginalRecipient": reply_to, "TextBody": "pass", "MessageID": "same-id", "Headers": []}
    for _ in range(2):
        post_inbound(
            client,
            "/anymail/postmark/inbound/",
            data=json.dumps(payload),
            content_type="application/json",
            HTTP_AUTHORIZATION=BASIC,
        )
    assert Event.objects.filter(game=game, type="PlayerPassed").count() == 1
    assert len(answers_to(seat)) == 1


def test_order_syntax_reads_english_and_german_keywords():
    assert parse_order("pass", "athens") == {"player": "athens", "kind": "pass"}
    assert parse_order("Passen", "athens") == {"player": "athens", "kind": "pass"}
    assert parse_order("expand D4 deck", "athens") == parse_order("ausbreiten d4 stapel", "athens")
    assert parse_order("ausbreiten D4 ablage auswahl stapel handelsstrasse C3 blanko 1", "athens") == {
        "player": "athens",
        "kind": "expand",
        "space": "D4",
        "source": "discard",
        "second_source": "deck",
        "link_from": "C3",
        "blanks": 1,
    }
    assert parse_order("move C3 D4 3", "sparta") == parse_order("bewegen C3 D4 3", "sparta")
    assert parse_order("move C3 D4 3 king E5 2", "sparta")["destinations"] == [
        {"space": "D4", "phalanxes": 3, "king": True},
        {"space": "E5", "phalanxes": 2},
    ]
    assert parse_order("rekrutieren C3 2", "sparta") == {
        "player": "sparta",
        "kind": "recruit",
        "space": "C3",
        "phalanxes": 2,
    }
    assert parse_order("befestigen D4", "sparta") == {"player": "sparta", "kind": "fortify", "space": "D4"}
    assert parse_order("einsetzen Eule 2 Schildkröte 1", "sparta") == parse_order(
        "commit owl 2 turtle 1", "sparta"
    )
    assert parse_order("annehmen 3", "sparta") == {"player": "sparta", "kind": "accept_offer", "offer": 3}
    message = parse_order("nachricht alle Frieden?", "sparta")
    assert (message.to, message.text) == ("all", "Frieden?")
    for bad in ("dance", "move C3", "commit gold 2", "fortify Z9"):
        with pytest.raises(OrderSyntaxError):
            parse_order(bad, "athens")


def test_the_reply_is_read_up_to_the_quoted_part():
    assert read_reply("\n  pass  \n\nOn Mon, Ana wrote:\n> move C3 D4 3\n") == ["pass"]
    assert read_reply("> quoted only\n> pass\n") == []
    assert read_reply("Am Montag schrieb AEGEAPOLIS <x@y>:\n> pass\n") == []
    assert read_reply("fortify D4\n-- \nAna\n") == ["fortify D4"]
    assert read_reply(None, "<p>passen</p><blockquote><p>move C3 D4 3</p></blockquote>") == ["passen"]


@pytest.mark.django_db
def test_reply_addresses_are_per_seat_and_die_with_revoked_links():
    from games.mail.keys import read_reply_address
    from games.reading.links import revoke_links

    game = two_player_game()
    a, b = game.seats.all()
    address = reply_address(a, "o", 5)
    assert reply_address(b, "o", 5) != address
    key = read_reply_address(address)
    assert (key.seat, key.seq) == (a, 5)
    assert len(address.split("@")[0]) <= 64
    revoke_links(a)
    assert read_reply_address(address) is None


@pytest.mark.django_db
def test_a_crash_after_storing_loses_nothing_and_a_redelivery_is_not_applied_twice(client, monkeypatch):
    import games.services.inbox.replies
    from notifications.inbound import sweep_inbound

    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    before = load_game(game).seq
    real = games.services.inbox.replies.handle_reply

    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(games.services.inbox.replies, "handle_reply", broken)
    assert postmark(client, reply_to, "pass").status_code == 200  # the ESP has delivered it
    stored = InboundMail.objects.get()
    assert (stored.outcome, stored.text, stored.attempts) == ("", "pass", 1)  # kept, waiting
    assert load_game(game).seq == before
    monkeypatch.setattr(games.services.inbox.replies, "handle_reply", real)
    assert sweep_inbound(older_than=timedelta(0)) == 1  # beat's sweep, after the worker recovered
    assert sweep_inbound(older_than=timedelta(0)) == 0
    assert Event.objects.filter(game=game, type="PlayerPassed").count() == 1
    stored.refresh_from_db()
    assert (stored.outcome, stored.text) == ("accepted", "")
    assert len(answers_to(seat)) == 1


@pytest.mark.django_db
def test_a_mail_that_always_crashes_is_given_up_after_a_few_attempts(client, monkeypatch):
    import games.services.inbox.replies
    from notifications.inbound import MAX_ATTEMPTS, sweep_inbound

    game = two_player_game()
    _seat, reply_to = turn_email_reply_to(game)

    def broken(*args, **kwargs):
        raise RuntimeError("poison")

    monkeypatch.setattr(games.services.inbox.replies, "handle_reply", broken)
    postmark(client, reply_to, "pass")
    for _ in range(MAX_ATTEMPTS + 1):
        sweep_inbound(older_than=timedelta(0))
    assert InboundMail.objects.get().outcome == "failed"
    assert sweep_inbound(older_than=timedelta(0)) == 0


def test_a_trade_offer_reads_in_english_and_german():
    english = parse_order("offer sparta 2 ap 1 owl for 1 fp polis D3", "athens")
    assert english == {
        "player": "athens",
        "kind": "offer_trade",
        "to": "sparta",
        "give": {"ap": 2, "fp": 0, "blanks": 0, "coins": {"owl": 1}, "polis": None},
        "take": {"ap": 0, "fp": 1, "blanks": 0, "coins": {}, "polis": "D3"},
    }
    assert parse_order("Anbieten Sparta 2 AP Eule 1 gegen FP 1 Polis d3", "athens") == english
    assert parse_order("angebot theben 1 blanko für nichts", "athens")["take"]["blanks"] == 0
    assert parse_order("offer athen nothing for 2 schildkröte", "sparta")["take"]["coins"] == {"turtle": 2}
    for bad in (
        "offer sparta 1 ap",
        "offer 1 ap for 1 fp",
        "offer sparta for 1 fp",
        "offer sparta 1 gold for 1 fp",
    ):
        with pytest.raises(OrderSyntaxError):
            parse_order(bad, "athens")


@pytest.mark.django_db
def test_a_trade_offer_by_email_reply_is_made_and_the_rival_accepts_it_by_email(client):
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    rival = game.seats.exclude(pk=seat.pk).get()
    before = load_game(game).state
    offer = f"offer {rival.faction} 1 ap for 1 fp"
    assert mailgun(client, reply_to, offer).status_code == 200
    (made,) = Event.objects.filter(game=game, type="OfferMade")
    assert (made.payload["player"], made.payload["to"]) == (seat.faction, rival.faction)
    (answer,) = answers_to(seat)
    assert f"Your order was accepted: {offer}" in answer.body
    # The rival's offer email carries its own reply address; German keywords answer it.
    offer_mail = [m for m in mail.outbox if m.to == [rival.email] and "1 AP" in m.body][-1]
    assert "Or reply to this email with accept 1 or decline 1 on the first line." in offer_mail.body
    assert postmark(client, offer_mail.reply_to[0], "annehmen 1").status_code == 200
    assert Event.objects.filter(game=game, type="OfferAccepted", actor=rival.faction).count() == 1
    after = load_game(game).state
    assert after.players[rival.faction].ap == before.players[rival.faction].ap + 1
    assert after.players[seat.faction].fp == before.players[seat.faction].fp + 1


def test_beat_sweeps_inbound_mail_left_waiting(settings):
    import notifications.tasks  # noqa: F401  (a worker imports it through autodiscovery)
    from aegea_pbem.celery import app as celery_app

    schedule = settings.CELERY_BEAT_SCHEDULE["notifications-sweep-inbound"]
    assert (schedule["task"], schedule["schedule"]) == ("notifications.sweep_inbound", 60.0)
    assert {"notifications.sweep_inbound", "notifications.handle_inbound"} <= set(celery_app.tasks)


def test_the_webhooks_multipart_split_gives_what_djangos_parser_gives():
    import io

    from django.test import RequestFactory
    from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

    from notifications.webhooks import _parse_multipart

    def data():
        return {
            "recipient": "x@y.example",
            "body-plain": "pass\r\nGrüße\n",
            "empty": "",
            "several": ["a", "b"],
            "attachment-1": SimpleUploadedFile("a b.png", b"\r\n--x\r\n" * 3, "image/png"),
        }

    fields, files = _parse_multipart(
        {"CONTENT_TYPE": MULTIPART_CONTENT}, io.BytesIO(encode_multipart(BOUNDARY, data()))
    )
    django = RequestFactory().post("/", data=data())

    def described(found):
        return {k: [(f.name, f.content_type, f.read()) for f in v] for k, v in found.lists()}

    assert dict(fields.lists()) == dict(django.POST.lists())
    assert described(files) == described(django.FILES)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        json.dumps([1, 2, 3]),
        json.dumps({"To": ["not", "a", "string"], "FromFull": "nobody", "Headers": 7}),
        "[" * 100_000 + "]" * 100_000,
    ],
)
def test_an_unreadable_inbound_post_with_the_right_secret_is_answered_400_not_500(client, body):
    """Only the ESP knows the secret, but a post it garbles must not be a server error either."""
    response = post_inbound(
        client,
        "/anymail/postmark/inbound/",
        data=body,
        content_type="application/json",
        HTTP_AUTHORIZATION=BASIC,
    )
    assert response.status_code == 400
    assert InboundMail.objects.count() == 0
