"""The history on a phone (390 x 844), in English and German, after Athens' Move into a garrison
(S-COMBAT): its battle, and the board under the list (docs/order-loop.md "History and export").

- The board under the history was "the board after event 6 of 7" while the list's last line was 6:
  event 7 is the record of the battle's dice (RandomnessDrawn), which is never told. The board is
  named by told lines now, the last one being "the board now".
- A battle's entry put its number on a line of its own, the battle's summary under it from the
  left edge, and its rounds' words outdented under the number; it starts on its number's line now.

Screenshots: test-artifacts/browser/history-phone/.
"""

from __future__ import annotations

import pytest

from games.engine import ORDER_GIVEN, Destination, Move
from games.models import Event
from games.reading.situation import load_game
from games.services.game_setup import create_game
from games.services.orders import submit_order
from games.words.narration import is_told
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import PHONE, SCENARIO, ana_and_ben, phone_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "history-phone"
WORDS = {
    "en": {
        "now": "The board now, after event {seq}, the last",
        "at": "The board after event {seq} of {last}",
        "previous": "Previous",
    },
    "de": {
        "now": "Das Brett jetzt, nach Ereignis {seq}, dem letzten",
        "at": "Das Brett nach Ereignis {seq} von {last}",
        "previous": "Vorheriges",
    },
}


def a_battle_told(language: str):
    """Athens moves 4 phalanxes from C3 into E5's garrison of 2: a battle with dice, so the log ends
    with the untold record of its draws. Returns Athens' seat."""
    game = create_game(ana_and_ben(language), name="Battle", scenario=SCENARIO)
    athens = game.seats.get(faction="athens")
    move = Move("athens", "C3", (Destination("E5", phalanxes=4),))
    submit_order(game, athens, move, load_game(game).seq)
    return athens


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_history_board_is_the_board_now_named_by_the_last_told_line(live_server, browser, language):
    athens = a_battle_told(language)
    head = Event.objects.filter(game=athens.game).order_by("-seq").first()
    assert not is_told(head.type)  # the case the walk met: the log's head is not a line of the list
    words = WORDS[language]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = phone_page(browser, language)

    page.goto(link(live_server, athens) + "history/?since=all")
    lines = page.locator("ol.history > li")
    numbers = [int(n) for n in lines.locator("> a").all_inner_texts()]
    last = numbers[-1]
    assert last < head.seq
    title = page.locator("#board h2")
    assert title.inner_text() == words["now"].format(seq=last)
    assert lines.last.get_attribute("aria-current") == "true"  # the list marks the line the board is after
    assert page.locator("#board input[name='at']").input_value() == str(last)
    page.screenshot(path=str(SHOTS / f"board-now-{language}.png"), full_page=True)

    # Previous steps to the line before, skipping what is not told (the Move's OrderGiven).
    page.get_by_role("link", name=words["previous"], exact=True).click()
    page.wait_for_load_state()
    assert title.inner_text() == words["at"].format(seq=numbers[-2], last=last)
    assert page.locator(f"#seq-{numbers[-2]}").get_attribute("aria-current") == "true"

    # An untold event asked for by number shows the line it belongs under.
    page.goto(link(live_server, athens) + f"history/?since=all&at={head.seq}")
    assert title.inner_text() == words["now"].format(seq=last)
    order = Event.objects.get(game=athens.game, type=ORDER_GIVEN).seq
    page.goto(link(live_server, athens) + f"history/?since=all&at={order}")
    before = max(n for n in numbers if n < order)
    assert title.inner_text() == words["at"].format(seq=before, last=last)

    # By default ("since my last turn") the board is the board now too.
    page.goto(link(live_server, athens) + "history/")
    assert page.locator("ol.history > li > a").all_inner_texts()[-1] == str(last)
    assert title.inner_text() == words["now"].format(seq=last)


def first_line(locator) -> dict[str, float]:
    """Where the first line of an element's text is drawn (its box may be wider, or span lines)."""
    return locator.evaluate(
        "e => { const r = document.createRange(); r.selectNodeContents(e);"
        " const b = r.getClientRects()[0]; return {x: b.x, y: b.y, height: b.height}; }"
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_battles_entry_starts_on_its_numbers_line(live_server, browser, language):
    athens = a_battle_told(language)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = phone_page(browser, language)
    page.goto(link(live_server, athens) + "history/?since=all")

    entry = page.locator("ol.history > li", has=page.locator(".battle"))
    assert entry.count() == 1
    number = entry.locator("> a").bounding_box()
    summary = entry.locator(".battle-summary")
    assert summary.inner_text().startswith("Battle at E5" if language == "en" else "Kampf um E5")
    text = first_line(summary)
    # On the number's line, right of it, like "3 Athens moved from C3 to E5".
    assert number["y"] <= text["y"] + text["height"] / 2 <= number["y"] + number["height"]
    assert text["x"] >= number["x"] + number["width"]
    rounds = entry.locator(".round-words")
    assert rounds.count() >= 1
    for words in rounds.all():  # the rounds' words under the text, none back under the number
        box = words.bounding_box()
        assert box["x"] >= number["x"] + number["width"]
        assert first_line(words)["x"] >= box["x"] - 1  # and not outdented by the entries' hanging indent
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    entry.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"battle-{language}.png"))
