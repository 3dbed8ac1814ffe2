"""A new player's first turn on a phone (390 x 844), in German and English, from the email sent.

The game is created, the player on turn follows the link in the welcome email that was actually
sent, types a Move the rules refuse, reads why, corrects it (its cost shown before sending), is
told the order was accepted, and the next player gets their email. What a phone showed wrong:

- A refused order reloaded the page at its top; the error stood next to the form six screens
  further down, so the player saw the page as before and thought nothing had happened.

Screenshots: test-artifacts/phone/.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core import mail

from games.engine import AcceptOffer, Bundle, Move, OfferTrade, Pass, legal_commands
from games.models import Event, Seat
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from tests.browser.conftest import ARTIFACTS
from tests.browser.support import PHONE, email_on_a_phone
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401
from tests.order_loop_support import link_in, seats_to_act

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS.parent / "phone"
WORDS = {
    "en": {
        "costs": "fortify 3 AP",
        "turn": "It is your turn.",
        "accepted": "Your order was accepted.",
        "cost": "FP (you have",
        "next": "It is your turn as",
        "moved": "The game has moved on since you loaded this page: your order was not given",
        "rule": "rule",
    },
    "de": {
        "costs": "Befestigen 3 AP",
        "turn": "Du bist am Zug.",
        "accepted": "Dein Befehl wurde angenommen.",
        "cost": "FP (du hast",
        "next": "Du bist mit",
        "moved": "seit du diese Seite geladen hast: Dein Befehl wurde nicht gegeben",
        "rule": "Regel",
    },
}


def a_new_game(language: str) -> Seat:
    """Two friends, both reading `language`; the seat on turn, with only the welcome emails sent."""
    players = [
        PlayerSpec("Ana", "ana@example.com", "athens", language),
        PlayerSpec("Ben", "ben@example.com", "sparta", language),
    ]
    game = create_game(players, name="Berlin – London")
    return seats_to_act(game)[0]


def on_screen(page: Any, selector: str) -> bool:
    """Whether the element is inside the phone's screen as the page is now scrolled."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def a_legal_move(seat: Seat) -> Move:
    state = load_game(seat.game).state
    return next(
        c
        for c in legal_commands(state, seat.faction)
        if isinstance(c, Move) and len(c.destinations) == 1 and not c.destinations[0].king
    )


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_a_new_player_refused_on_a_phone_sees_why_where_the_page_opens(live_server, browser, language):
    seat = a_new_game(language)
    words = WORDS[language]
    (welcome,) = [m for m in mail.outbox if m.to == [seat.email]]
    assert words["turn"] in welcome.body
    SHOTS.mkdir(parents=True, exist_ok=True)
    read = email_on_a_phone(browser, welcome, language)
    button = read.locator(f"a[href$='{link_in(welcome)}']").first.bounding_box()
    assert button["y"] + button["height"] <= PHONE["height"] and button["height"] >= 44
    read.screenshot(path=str(SHOTS / f"welcome-email-{language}.png"), full_page=True)
    page = browser.new_context(locale=language, viewport=PHONE).new_page()
    page.goto(live_server.url + link_in(welcome))
    assert words["turn"] in page.inner_text("#status")

    move = a_legal_move(seat)
    (destination,) = move.destinations
    page.locator("#details-move summary").click()
    form = page.locator("#order-move")
    form.locator("input[name='move-origin']").fill(move.origin)
    form.locator("input[name='move-to1']").fill(destination.space)
    form.locator("input[name='move-phalanxes1']").fill("40")  # more than stand there (S-MOVE)
    form.locator("button[type='submit']").click()
    page.wait_for_load_state()
    error = page.locator("#order-move .order-error")
    assert f"({words['rule']} S-MOVE)" in error.inner_text()  # the code said to be a rule
    assert on_screen(page, "#order-move .order-error"), "the refusal is off screen"
    page.screenshot(path=str(SHOTS / f"refused-{language}.png"))
    assert not Event.objects.filter(game=seat.game, type="UnitsMoved").exists()

    mail.outbox.clear()
    form.locator("input[name='move-phalanxes1']").fill(str(destination.phalanxes))
    form.locator("input[name='move-navigators1']").fill(str(destination.navigators))
    page.locator("#move-cost.preview-cost").wait_for()
    assert words["cost"] in page.inner_text("#move-cost")  # before the order is sent
    form.locator("button[type='submit']").click()
    page.wait_for_load_state()
    assert words["accepted"] in page.inner_text(".messages")
    assert on_screen(page, ".messages li.success"), "the confirmation is off screen"
    page.screenshot(path=str(SHOTS / f"accepted-{language}.png"))
    assert Event.objects.filter(game=seat.game, type="UnitsMoved", actor=seat.faction).count() == 1

    (turn,) = [m for m in mail.outbox if m.tags == ["turn"]]
    assert turn.to != [seat.email] and words["next"] in turn.body


STANDS = {"de": " (nicht zurücknehmbar)", "en": " (cannot be taken back)"}


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_s_move_a_suggested_order_says_its_cost_before_the_one_tap(live_server, browser, language):
    """ "One click gives the order": a suggested Move said where to, not that it would spend 4 of
    the player's 5 FP; a Fortify not its 3 AP (H-ACTIONS). The button says it now, and the Move
    costs what the button said."""
    seat = a_new_game(language)
    (welcome,) = [m for m in mail.outbox if m.to == [seat.email]]
    page = browser.new_context(locale=language, viewport=PHONE).new_page()
    page.goto(live_server.url + link_in(welcome))
    suggestions = page.locator("form.suggestion")
    kinds = [
        json.loads(v)["kind"]
        for v in suggestions.locator("input[name='command']").evaluate_all(
            "inputs => inputs.map(i => i.value)"
        )
    ]
    labels = suggestions.locator("button").all_inner_texts()
    moves = [label for kind, label in zip(kinds, labels, strict=True) if kind == "move"]
    # Each suggested Move here attacks: dice will be rolled, so the button says, before the one tap,
    # that it cannot be taken back (H-TAKEBACK).
    assert moves and all(label.endswith(STANDS[language]) for label in moves), moves
    moves = [label.removesuffix(STANDS[language]) for label in moves]
    assert all(re.search(r": \d+ FP$", label) for label in moves), moves
    assert [label for kind, label in zip(kinds, labels, strict=True) if kind == "fortify"][0].endswith(
        ": 3 AP"
    )
    assert all(
        "AP" not in label and "FP" not in label
        for kind, label in zip(kinds, labels, strict=True)
        if kind == "pass"
    )
    page.screenshot(path=str(SHOTS / f"suggestions-{language}.png"), full_page=True)

    move = moves[0]
    cost = int(re.search(r": (\d+) FP$", move).group(1))
    page.get_by_role("button", name=move + STANDS[language], exact=True).click()
    page.wait_for_load_state()
    assert f"{cost} FP" in page.inner_text(".messages")  # "… moved from G3 to C3 (…) for 4 FP."
    moved = Event.objects.get(game=seat.game, type="UnitsMoved", actor=seat.faction)
    assert moved.payload["fp_paid"] + moved.payload["blanks"] == cost


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_h_order_told_the_game_moved_on_on_a_phone_the_player_sees_it_where_the_page_opens(
    live_server, browser, language
):
    """The friend in London accepts the trade offer while the player in Berlin has the page open: the
    player's order is refused as decided on an old page. The form posts to its #details-…, so the
    page opened screens below the warning at its top and looked as if nothing had happened."""
    seat = a_new_game(language)
    (welcome,) = [m for m in mail.outbox if m.to == [seat.email]]
    rival = seat.game.seats.exclude(pk=seat.pk).get()
    offer = OfferTrade(seat.faction, to=rival.faction, give=Bundle(ap=1), take=Bundle(fp=1))
    submit_order(seat.game, seat, offer, load_game(seat.game).seq)
    submit_order(seat.game, rival, Pass(rival.faction), load_game(seat.game).seq)
    page = browser.new_context(locale=language, viewport=PHONE).new_page()
    page.goto(live_server.url + link_in(welcome))  # the player's page of action round 2
    submit_order(seat.game, rival, AcceptOffer(rival.faction, offer=1), load_game(seat.game).seq)
    before = Event.objects.filter(game=seat.game).count()

    page.locator("#details-pass summary").click()
    page.locator("#order-pass button[type='submit']").click()
    page.wait_for_load_state()
    assert page.locator("#order-pass .order-error").count() == 1, "no warning beside the form"
    assert WORDS[language]["moved"] in page.inner_text("#order-pass .order-error")
    assert on_screen(page, "#order-pass .order-error"), "the game moved on, off screen"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"moved-on-{language}.png"))
    assert Event.objects.filter(game=seat.game).count() == before


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_the_turn_email_on_a_phone_has_its_link_on_the_first_screen(live_server, browser, language, settings):
    """The daily turn email read on a phone: the only link to act on came after the position, the
    happenings and the board picture, two screens down, as a line of small text."""
    settings.SITE_URL = live_server.url  # the email's link opens the test server
    seat = a_new_game(language)
    mail.outbox.clear()
    move = a_legal_move(seat)
    submit_order(seat.game, seat, move, load_game(seat.game).seq)
    (turn,) = [m for m in mail.outbox if m.tags == ["turn"]]
    SHOTS.mkdir(parents=True, exist_ok=True)
    email = email_on_a_phone(browser, turn, language)
    email.screenshot(path=str(SHOTS / f"turn-email-{language}.png"), full_page=True)
    assert email.locator("img").first.evaluate("img => img.naturalWidth") > 0  # the board is shown
    assert email.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    button = email.locator(f"a[href='{live_server.url + link_in(turn)}']").first
    box = button.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"], "the link to the game is below the first screen"
    assert box["height"] >= 44  # finger-sized

    with email.expect_navigation():
        button.click()
    assert WORDS[language]["turn"] in email.inner_text("#status")

    # The picture's words are small at 390 px: a tap on it opens the board on the game page.
    again = email_on_a_phone(browser, turn, language)
    with again.expect_navigation():
        again.locator("img").first.click()
    assert again.url.endswith("#board")
    again.screenshot(path=str(SHOTS / f"board-from-email-{language}.png"))
    assert on_screen(again, "#board svg"), "the tapped picture did not bring the board into view"


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_h_actions_the_order_forms_say_what_each_order_costs_before_it_is_sent(
    live_server, browser, language
):
    """Only the Move form previewed its cost; Recruit and Fortify said nothing of their AP
    (H-ACTIONS, H-FACTION), so a player learned the price from a refusal. The costs the turn
    email lists now stand above the forms, naming each order as its form and suggestions do."""
    seat = a_new_game(language)
    (welcome,) = [m for m in mail.outbox if m.to == [seat.email]]
    page = browser.new_context(locale=language, viewport=PHONE).new_page()
    page.goto(live_server.url + link_in(welcome))
    page.locator("#details-fortify summary").click()
    costs = page.locator("#orders #costs")
    assert costs.is_visible() and WORDS[language]["costs"] in costs.inner_text()
    assert costs.bounding_box()["y"] < page.locator("#details-fortify").bounding_box()["y"]
    assert costs.inner_text() in welcome.body  # the same words as the email's
    # One word per order on the screen, its form's title: German costs said "Ausbreiten", "Bewegen"
    # and "Reformieren" above the forms "Expandieren", "Bewegung" and "Reform" (whose suggestions
    # say "Bewegung von C3 nach C5", "Reform: Staatsform zu Tyrannis wechseln").
    suggestions = page.locator("form.suggestion").evaluate_all(
        "forms => forms.map(f => [JSON.parse(f.elements.command.value).kind, f.innerText])"
    )
    for kind in ("expand", "fortify", "recruit", "move", "reform"):
        word = re.compile(rf"\b{page.locator(f'#details-{kind} summary').inner_text()}\b", re.IGNORECASE)
        assert word.search(costs.inner_text()), (kind, costs.inner_text())
        labels = [label for given, label in suggestions if given == kind]
        assert labels and all(word.search(label) for label in labels), (kind, labels)
    page.locator("#orders").screenshot(path=str(SHOTS / f"costs-{language}.png"))
