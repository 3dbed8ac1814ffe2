"""The history page's check of witnessed heads in Chromium (docs/fairness.md, "Witnessed heads"): the
player pastes the footer lines of the emails they received; the page's own script downloads the
export, recomputes every hash (Web Crypto SHA-256) and each head's pin (HMAC-SHA256 under the
revealed seed), and says whether the log still passes through them. A log rewritten afterwards, with
the whole chain recomputed as a forger with the database would, is caught at the first head after it.
"""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import expect

from bench.simulate import SimulationReport, simulate_game
from games.models import Event, Game, Seat
from games.reading.export import chain_pin
from tests.browser.conftest import ARTIFACTS, link
from tests.conftest import tamper
from tests.eventstore.support import rechain

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def footer_line(game: Game, seq: int) -> str:
    """The line an email's footer showed when the log's head was event `seq`."""
    return f"Log {seq}·{chain_pin(game.seed, Event.objects.get(game=game, seq=seq).hash)[:16]}…"


def check(page, lines: list[str]) -> None:
    page.fill("#witness-heads", "\n".join(lines))
    page.click("#witness-check button[type='submit']")


@pytest.mark.django_db(transaction=True)
def test_the_history_page_recomputes_the_log_and_catches_a_rewritten_event(live_server, browser):
    game = simulate_game(["athens", "sparta"], random.Random(7), SimulationReport())
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED  # the export carries the hashes and the seed
    seat = Seat.objects.create(game=game, faction="sparta", name="Ben", email="ben@example.com")
    last = Event.objects.filter(game=game).count()
    heads = (last // 3, 2 * last // 3, last)
    told = [footer_line(game, seq) for seq in heads]
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(link(live_server, seat))
    page.goto(f"{live_server.url}/play/{game.pk}/{seat.pk}/history/")
    result = page.locator("#witness-check .witness-result")

    check(page, told)
    expect(result).to_have_attribute("data-outcome", "ok", timeout=60_000)
    assert "all 3 heads" in result.inner_text()

    # A die of the first battle after the first head, changed, and the whole chain recomputed.
    battle = Event.objects.filter(game=game, type="BattleFought", seq__gt=last // 3).order_by("seq").first()
    payload = battle.payload
    payload["rounds"][0]["dice"][0] = 6 if payload["rounds"][0]["dice"][0] != 6 else 5
    tamper("UPDATE games_event SET payload = %s WHERE id = %s", [json.dumps(payload), battle.pk])
    rechain(game)
    first_after = min(seq for seq in heads if seq >= battle.seq)

    check(page, told)
    expect(result).to_have_attribute("data-outcome", "broken", timeout=60_000)
    assert f"event {first_after} you were told" in result.inner_text()
    page.locator("#witness-check").screenshot(path=str(ARTIFACTS / "witness-check-broken.png"))

    check(page, ["nothing to see here"])
    expect(result).to_have_attribute("data-outcome", "none", timeout=10_000)
