"""`manage.py simulate` counts what the bots played: every kind of order, Mission Card and trade event.

Rules exercised: H-MISSIONS (cards scored, by kind), H-TRADE (offers and neutral trade), H-ACTIONS.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from bench.simulate import SimulationReport, simulate

pytestmark = pytest.mark.django_db


def test_h_missions_simulate_counts_cards_scored_and_trade_events() -> None:
    report = simulate(games=3, players=4, seed=5)
    assert report.games == 3
    assert sum(report.cards.values()) > 0 and report.trade["OfferMade"] > 0
    answered = report.trade["OfferAccepted"] + report.trade["OfferDeclined"] + report.trade["OfferLapsed"]
    assert answered == report.trade["OfferMade"]  # every offer ends one way or another
    assert report.commands["offer_trade"] == report.trade["OfferMade"]


def test_h_trade_simulate_names_what_was_never_played() -> None:
    report = SimulationReport()
    report.commands.update({"pass": 3, "oracle": 1})
    report.cards.update({"combo": 2})
    missing = report.never_seen()
    assert "pass" not in missing and "oracle" not in missing and "combo" not in missing
    assert {"accept_offer", "flush", "monopoly", "poleis"} <= set(missing)


def test_h_actions_simulate_prints_the_counts() -> None:
    out = StringIO()
    call_command("simulate", games=1, players=3, seed=2, stdout=out)
    text = out.getvalue()
    assert "mission cards scored:" in text and "trade:" in text and "never played:" in text
