"""The player page's language buttons on a phone never claim what is not so (docs/i18n.md).

A new user's walk: Ana, with a German browser in an English game, read German pages with
"Deutsch" pressed while every email came in English; pressing it switched the emails without a
word. Before a choice, a page in another language than the emails presses no button and says which
language the emails come in; a choice is confirmed in the language chosen, and the next email
(as sent) is in it. Both directions: a German browser in an English game, an English one in a
German game.
"""

from __future__ import annotations

import pytest
from django.core import mail

from games.engine import Pass
from games.reading.situation import load_game
from games.services.game_setup import create_game
from games.services.orders import submit_order
from notifications.services import deliver_outbox
from tests.browser.conftest import link
from tests.browser.support import I18N_SHOTS, PHONE
from tests.order_loop_support import ANA, BEN, seats_to_act

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CASES = {
    # the game's (and so the seats') language, the browser's, and what the player reads
    "german-browser-english-game": (
        "en",
        "de-DE",
        "Deine E-Mails zu dieser Partie kommen auf Englisch.",
        "Deutsch",
        "Deine Seiten und E-Mails sind jetzt auf Deutsch.",
        "du bist am Zug",
    ),
    "english-browser-german-game": (
        "de",
        "en-GB",
        "Your emails about this game come in German.",
        "English",
        "Your pages and emails are now in English.",
        "your turn",
    ),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.django_db(transaction=True)
def test_the_switch_says_the_emails_language_until_the_player_chooses_then_confirms(
    live_server, browser, settings, case
):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    game_language, locale, note, button, confirmation, turn_subject = CASES[case]
    game = create_game([ANA, BEN], language=game_language)
    first = seats_to_act(game)[0]
    ana = game.seats.exclude(pk=first.pk).get()  # not on turn: the first player's order mails her
    I18N_SHOTS.mkdir(parents=True, exist_ok=True)

    page = browser.new_context(locale=locale, viewport=PHONE, has_touch=True).new_page()
    page.goto(link(live_server, ana))
    switch = page.locator(".language-switch")
    assert page.locator("html").get_attribute("lang") == locale[:2]  # the page follows the browser
    assert switch.locator("button[aria-pressed='true']").count() == 0  # pages and emails differ
    said = switch.locator(".language-note")
    assert said.is_visible() and said.inner_text().startswith(note)
    assert switch.locator(f"button:text-is('{button}')").get_attribute("aria-describedby") == "language-note"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(I18N_SHOTS / f"phone-switch-{case}.png"))

    with page.expect_navigation():
        switch.locator(f"button:text-is('{button}')").tap()
    assert page.locator(".messages li.success").inner_text() == confirmation
    assert switch.locator("button[aria-pressed='true']").inner_text() == button
    assert switch.locator(".language-note").count() == 0
    page.screenshot(path=str(I18N_SHOTS / f"phone-switch-{case}-chosen.png"))

    # The next email to her, as sent, is in the language she chose.
    mail.outbox = []
    submit_order(game, first, Pass(first.faction), load_game(game).seq)
    deliver_outbox()
    (turn,) = [m for m in mail.outbox if m.to == [ana.email] and m.tags[0] == "turn"]
    assert turn_subject in turn.subject


@pytest.mark.django_db(transaction=True)
def test_a_browser_in_the_emails_language_sees_its_button_pressed_and_no_note(live_server, browser):
    game = create_game([ANA, BEN], language="de")
    page = browser.new_context(locale="de-DE", viewport=PHONE).new_page()
    page.goto(link(live_server, game.seats.first()))
    assert page.locator(".language-switch button[aria-pressed='true']").inner_text() == "Deutsch"
    assert page.locator(".language-switch .language-note").count() == 0
