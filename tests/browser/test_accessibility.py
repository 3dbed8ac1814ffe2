"""axe-core's audit of what players and organisers see, in English and German, on a phone and a desktop.

Every page a player meets (on turn, not on turn, a refused order beside its form, a tile choice, a
sealed winter order, the history, a new link, a link that opens nothing), the organiser's pages
(games list, game page, deadlines, the new-game form with its errors) and the HTML turn email as a
mail app shows it, each as it opens and with every folded part (the order forms on a phone, the
board as a table) unfolded. A serious or critical violation fails the test, listed with where it
stands; everything axe found, moderate and minor too, is written to
test-artifacts/browser/accessibility/.
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model
from django.core import mail

from games.engine import Pass, legal_commands
from games.models import Game, Seat
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import PHONE, email_on_a_phone
from tests.browser_like_client import BrowserLikeClient
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401
from tests.order_loop_support import seats_to_act

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # ~30 s a language

DESKTOP = {"width": 1280, "height": 800}
FAILING = ("serious", "critical")
REPORTS = ARTIFACTS / "accessibility"
AXE = Axe()
# Where an element's text stands (its own box may be as wide as its table).
TEXT_BOX = (
    "e => { const r = document.createRange(); r.selectNodeContents(e);"
    " return r.getBoundingClientRect().toJSON(); }"
)


def violations(page: Any, where: str) -> list[str]:
    """axe's violations on the page as it is now, one line each: impact, rule, page, elements."""
    found = AXE.run(page).response["violations"]
    return [
        f"{v['impact']} {v['id']} on {where}: {v['help']} at "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in found
    ]


def signed_in(live_server: Any, organiser: Any) -> dict[str, str]:
    """The organiser's session cookie for a browser context."""
    client = BrowserLikeClient()
    client.force_login(organiser)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}


def a_game(organiser: Any, language: str, name: str) -> Game:
    players = [
        PlayerSpec("Ana", "ana@example.com", "athens", language),
        PlayerSpec("Ben", "ben@example.com", "sparta", language),
    ]
    return create_game(players, language=language, organiser=organiser, name=name)


def in_a_tile_choice(game: Game) -> Seat:
    seat = seats_to_act(game)[0]
    state = load_game(game).state
    expand = next(
        c
        for c in legal_commands(state, seat.faction)
        if c.kind == "expand" and c.second_source and not c.link_from
    )
    submit_order(game, seat, expand, load_game(game).seq)
    assert load_game(game).state.phase == "choice"
    return seats_to_act(game)[0]


def in_the_sealed_winter(game: Game) -> Seat:
    while load_game(game).state.phase != "winter_orders":
        seat = seats_to_act(game)[0]
        submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    return seats_to_act(game)[0]


def audited(page: Any, where: str, url: str | None = None) -> list[str]:
    """axe's findings on the page (opened at `url`, if given), which must be in the reader's language."""
    if url is not None:
        page.goto(url)
    language = page.evaluate("navigator.language")
    assert page.locator("html").get_attribute("lang") == language, where
    found = violations(page, where)
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    return found + violations(page, where + " unfolded")


def with_a_refused_order(page: Any) -> None:
    """The player on turn tries to expand to I9, adjacent to nothing of theirs (S-EXP)."""
    page.evaluate("document.getElementById('details-expand').open = true")  # folded on a phone
    page.fill("#order-expand input[name='expand-space']", "I9")
    with page.expect_navigation():
        page.click("#order-expand button[type='submit']")
    assert page.locator("#order-expand .order-error").count() == 1


def with_refused_settings(page: Any) -> None:
    """The organiser's new game without a player's address and with 0 hours a turn."""
    page.fill("#id_players", "Ana without an address")
    page.fill("#id_deadlines-turn_hours", "0")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.locator("#id_players_error, #id_deadlines-turn_hours_error").count() == 2


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_no_serious_or_critical_axe_violation_on_the_pages_and_the_turn_email(
    live_server, browser, settings, language
):
    settings.SITE_URL = live_server.url
    organiser = get_user_model().objects.create_user("olga", password="secret-pass-1")
    game = a_game(organiser, language, "Berlin – London")
    on_turn = seats_to_act(game)[0]
    waiting = game.seats.exclude(pk=on_turn.pk).get()
    choosing = in_a_tile_choice(a_game(organiser, language, "A tile choice"))
    mail.outbox.clear()
    wintering = in_the_sealed_winter(a_game(organiser, language, "A winter"))
    (turn_email, *_) = [m for m in mail.outbox if m.tags == ["turn"]]
    session = signed_in(live_server, organiser)
    site, organiser_game = live_server.url, f"{live_server.url}/organiser/games/{game.pk}/"

    found: list[str] = []
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(locale=language, viewport=viewport)
        page = context.new_page()
        found += audited(page, f"the player page on turn ({size})", link(live_server, on_turn))
        with_a_refused_order(page)
        found += audited(page, f"the player page with a refused order ({size})")
        found += audited(page, f"the player page not on turn ({size})", link(live_server, waiting))
        found += audited(page, f"the player page with a tile choice ({size})", link(live_server, choosing))
        found += audited(
            page, f"the player page with a sealed winter order due ({size})", link(live_server, wintering)
        )
        found += audited(page, f"the history page ({size})", link(live_server, on_turn) + "history/")
        found += audited(page, f"the new-link page ({size})", f"{site}/links/new/")
        found += audited(page, f"a link error page ({size})", f"{site}/play/{game.pk}/not-a-token/")
        found += audited(page, f"the organiser's sign-in page ({size})", f"{site}/accounts/login/")
        context.add_cookies([session])
        found += audited(page, f"the organiser's games list ({size})", f"{site}/organiser/")
        found += audited(page, f"the organiser's game page ({size})", organiser_game)
        found += audited(page, f"the organiser's deadlines page ({size})", organiser_game + "deadlines/")
        page.goto(f"{site}/organiser/games/new/")
        with_refused_settings(page)
        found += audited(page, f"the new-game form with errors ({size})")
        context.close()
        email = email_on_a_phone(browser, turn_email, language)
        email.set_viewport_size(viewport)
        found += audited(email, f"the turn email ({size})")
        email.context.close()

    # Everything axe found, the moderate and minor too, for a person to read.
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / f"axe-{language}.txt").write_text("".join(f"{line}\n" for line in found))
    serious = [line for line in found if line.startswith(FAILING)]
    assert not serious, "\n".join(serious)


@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_caption_of_who_must_act_shows_whole(live_server, browser):
    """Centred over its table, wider than the phone, the caption on the organiser's game page
    read "Wer am Zu" until the table was scrolled."""
    organiser = get_user_model().objects.create_user("olga", password="secret-pass-1")
    game = a_game(organiser, "de", "Berlin – London")
    context = browser.new_context(locale="de", viewport=PHONE)
    context.add_cookies([signed_in(live_server, organiser)])
    page = context.new_page()
    page.goto(f"{live_server.url}/organiser/games/{game.pk}/")
    caption = page.locator("#waiting caption")
    assert caption.inner_text() == "Wer am Zug ist"
    box = caption.evaluate(TEXT_BOX)
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
