"""Taking back an order through the service, the page and the email reply (H-TAKEBACK)."""

from __future__ import annotations

import io

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from games.engine import Pass, RuleViolation
from games.eventstore.verification import verify_game
from games.models import Event
from games.reading.links import link_token
from games.reading.situation import load_game, must_act
from games.services.orders import GameMovedOn, submit_order
from games.services.take_back import take_back_order
from notifications.models import Outbox
from notifications.services import deliver_outbox
from tests.inbox.support import (  # noqa: F401  (inbound_settings: autouse here too)
    answers_to,
    inbound_settings,
    postmark,
)
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


def as_dict(state) -> dict:
    out = state.to_dict()
    out.pop("events_applied")
    return out


def passed(game):
    """The seat on turn passes; (that seat, the other seat, the seq after the order, the state before)."""
    (first,) = seats_to_act(game)
    other = game.seats.exclude(pk=first.pk).get()
    before = load_game(game)
    result = submit_order(game, first, Pass(first.faction), before.seq)
    return first, other, result.seq, before.state


def test_h_takeback_the_service_puts_the_game_back_and_tells_whoever_was_told_to_play():
    game = two_player_game()
    first, other, seq, before = passed(game)
    assert must_act(load_game(game).state) == [other.faction]

    result = take_back_order(game, first, seq)

    assert result.kind == "pass" and result.event.type == "OrderTakenBack" and result.seq == seq + 1
    assert as_dict(load_game(game).state) == as_dict(before)
    assert must_act(load_game(game).state) == [first.faction]
    assert Event.objects.filter(game=game, type="OrderGiven").count() == 1  # nothing deleted
    (notice,) = Outbox.objects.filter(game_id=game.pk, kind="taken_back")
    assert notice.seat_id == other.pk
    deliver_outbox()
    (email,) = [m for m in mail.outbox if "took back" in m.subject]
    assert email.to == [other.email]
    assert f"{first.faction.capitalize()} took back their order; you are not on turn yet." in email.body
    assert verify_game(game).ok  # verifygame: the chain, the replay and the draws


def test_h_takeback_after_the_next_order_it_stands_and_nothing_is_written():
    game = two_player_game()
    first, other, seq, _ = passed(game)
    submit_order(game, other, Pass(other.faction), seq)
    events = Event.objects.filter(game=game).count()
    with pytest.raises(RuleViolation, match="The game has moved on"):
        take_back_order(game, first, seq)
    assert Event.objects.filter(game=game).count() == events
    assert not Outbox.objects.filter(game_id=game.pk, kind="taken_back").exists()


def test_h_takeback_the_next_player_with_the_stale_turn_is_told_the_game_moved_on():
    game = two_player_game()
    first, other, seq, _ = passed(game)
    take_back_order(game, first, seq)
    with pytest.raises(GameMovedOn):
        submit_order(game, other, Pass(other.faction), seq)


def test_h_takeback_only_once_and_only_by_its_player():
    game = two_player_game()
    first, other, seq, _ = passed(game)
    with pytest.raises(RuleViolation, match="moved on"):
        take_back_order(game, other, seq)
    taken = take_back_order(game, first, seq)
    with pytest.raises(RuleViolation, match="taken back already"):
        take_back_order(game, first, taken.seq)


# --- the page ---------------------------------------------------------------------------------------


def page_url(seat) -> str:
    return reverse("games:play", args=[seat.game_id, link_token(seat)])


def test_h_takeback_the_page_offers_take_it_back_after_an_order_and_takes_it_back(client):
    game = two_player_game()
    first, other, seq, before = passed(game)
    page = client.get(page_url(first)).content.decode()
    assert 'name="kind" value="take_back"' in page and "Take it back" in page
    assert '<p class="take-back-order">Pass</p>' in page  # which order the box is about
    assert "Take it back" not in client.get(page_url(other)).content.decode()

    answer = client.post(page_url(first), {"kind": "take_back", "seen_seq": seq}, follow=True)

    assert "Your order was taken back. It is your turn again, as before it." in answer.content.decode()
    assert as_dict(load_game(game).state) == as_dict(before)
    assert "Take it back" not in answer.content.decode()
    again = client.post(page_url(first), {"kind": "take_back", "seen_seq": seq}, follow=True)
    assert "That order was taken back already." in again.content.decode()


def test_h_takeback_the_page_says_in_german_that_it_was_taken_back(client):
    game = two_player_game(language="de")
    first, _other, seq, _ = passed(game)
    assert "Zurücknehmen" in client.get(page_url(first)).content.decode()
    answer = client.post(page_url(first), {"kind": "take_back", "seen_seq": seq}, follow=True)
    assert "Dein Befehl wurde zurückgenommen." in answer.content.decode()


# --- by email -----------------------------------------------------------------------------------------


def test_h_takeback_reply_take_back_to_the_email_that_confirmed_an_email_order(client):
    game = two_player_game()
    deliver_outbox()
    (first,) = seats_to_act(game)
    (turn_email,) = [m for m in mail.outbox if m.to == [first.email]][-1:]
    before = load_game(game).state
    postmark(client, turn_email.reply_to[0], "pass")
    (confirmation,) = answers_to(first)
    assert "Your order was accepted: pass" in confirmation.body
    assert "Reply TAKE BACK to this email to take it back" in confirmation.body

    postmark(client, confirmation.reply_to[0], "TAKE BACK\n\n> Your order was accepted: pass")

    answer = answers_to(first)[-1]
    assert "Your order was taken back. It is your turn again, as before it." in answer.body
    assert as_dict(load_game(game).state) == as_dict(before)


# --- a sealed winter order, sealed again ------------------------------------------------------------

WINTER = {
    "players": {"athens": {"coins_behind_screen": {"owl": 2, "shield": 1}}, "sparta": {}},
    "year": 430,
    "phase": "winter_orders",
}


def winter_game(language: str = "en"):
    from games.services.game_setup import PlayerSpec, create_game

    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    game = create_game(players, scenario=WINTER, language=language)
    return game, game.seats.get(faction="athens"), game.seats.get(faction="sparta")


def seal(game, seat, **order):
    from games.engine import CommitCoins

    return submit_order(game, seat, CommitCoins(seat.faction, **order), load_game(game).seq)


def test_h_takeback_a_sealed_order_is_sealed_again_and_others_read_only_that_it_changed(client):
    from games.reading.situation import player_screen

    game, athens, sparta = winter_game()
    seal(game, athens, coins=(("owl", 2),))
    page = client.get(page_url(athens)).content.decode()
    assert "you may seal it again below" in page and 'value="commit_coins"' in page

    seal(game, athens, coins=(("shield", 1),))

    first, again = Event.objects.filter(game=game, type="WinterOrderSealed").order_by("seq")
    assert again.payload["supersedes"] == first.payload["commitment"]
    told = player_screen(game, "sparta").happenings
    assert "Athens changed their sealed order." in told
    assert not any("shield" in line.lower() or "owl" in line.lower() for line in told)
    assert "You changed your sealed winter order: 1 shield and no Blanks; only this one counts." in (
        player_screen(game, "athens").happenings
    )
    seal(game, sparta)
    revealed = Event.objects.get(game=game, type="WinterOrdersRevealed").payload
    assert revealed["orders"]["athens"]["coins"] == {"shield": 1}  # only the last seal counted
    out = io.StringIO()
    call_command("verifygame", str(game.pk), stdout=out, stderr=out)
    assert "BROKEN" not in out.getvalue() and "FAILED" not in out.getvalue(), out.getvalue()


def test_h_takeback_a_sealed_order_is_sealed_again_by_email_reply_in_german(client):
    game, athens, _sparta = winter_game(language="de")
    deliver_outbox()
    (welcome,) = [m for m in mail.outbox if m.to == [athens.email]][-1:]
    postmark(client, welcome.reply_to[0], "einsetzen eule 2")
    deliver_outbox()
    (confirmation,) = answers_to(athens)
    postmark(client, confirmation.reply_to[0], "einsetzen schild 1")
    sealed = Event.objects.filter(game=game, type="WinterOrderSealed").order_by("seq")
    assert [e.payload["coins"] for e in sealed] == [{"owl": 2}, {"shield": 1}]
    assert "supersedes" in sealed[1].payload


def test_h_takeback_the_page_says_plainly_when_the_order_stands(client):
    from games.engine import Expand
    from games.services.game_setup import PlayerSpec, create_game

    spec = {"players": {"athens": {"fp": 2}, "sparta": {}}, "deck": ["kos", "thera"]}
    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    game = create_game(players, scenario=spec)
    athens = game.seats.get(faction="athens")
    submit_order(game, athens, Expand("athens", space="B3"), load_game(game).seq)
    page = client.get(page_url(athens)).content.decode()
    assert "A tile was drawn from the deck: the order stands. (" in page
    assert 'class="rule-link"' in page.split('class="take-back-stands"')[1].split("</p>")[0]  # kept whole
    assert '<p class="take-back-order">Expand to B3' in page
    assert 'value="take_back"' not in page


def test_h_takeback_the_next_players_stale_turn_email_answers_with_the_game_as_it_is(client):
    game = two_player_game()
    first, other, seq, _ = passed(game)
    deliver_outbox()
    (turn_email,) = [m for m in mail.outbox if m.to == [other.email]][-1:]
    take_back_order(game, first, seq)
    events = Event.objects.filter(game=game).count()

    postmark(client, turn_email.reply_to[0], "pass")

    answer = answers_to(other)[-1]
    assert "The game has moved on since the email you answered; nothing was changed." in answer.body
    assert f"Waiting for {first.faction.capitalize()}." in answer.body
    assert Event.objects.filter(game=game).count() == events


def test_h_takeback_a_one_click_suggestion_that_will_stand_says_so_before_the_click(client):
    """The suggested orders are given with one click, without a preview: one that draws (a tile from
    the deck) is marked as one that cannot be taken back, with the reason in its title; a Pass is not."""
    import html
    import re

    from games.services.game_setup import PlayerSpec, create_game

    spec = {"players": {"athens": {"fp": 2}, "sparta": {}}, "deck": ["kos", "thera"]}
    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    game = create_game(players, scenario=spec)
    page = client.get(page_url(game.seats.get(faction="athens"))).content.decode()
    buttons = {
        html.unescape(re.sub(r"<[^>]+>", "", inner)).strip(): html.unescape(title or "")
        for title, inner in re.findall(
            r'<form method="post" class="suggestion">.*?'
            r'<button type="submit"(?: title="([^"]*)")?>(.*?)</button>',
            page,
            re.S,
        )
    }
    expansions = {label: title for label, title in buttons.items() if label.startswith("Expand")}
    assert expansions and all(label.endswith("(cannot be taken back)") for label in expansions)
    assert all(
        title.startswith("Once given, it cannot be taken back: a tile is drawn")
        for title in expansions.values()
    )
    assert buttons["Pass"] == ""  # a Pass can be taken back: no mark, no title
