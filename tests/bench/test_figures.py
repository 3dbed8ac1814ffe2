"""The bench's derived figures (bench/figures.py): ratios to the database's ceiling and the engine's bound;
the turn emails its delivery bench sends (bench/mail.py) and the games its backlog plays
(bench/mail_backlog.py)."""

from __future__ import annotations

import pytest

from bench.figures import Figure, engine_bound, ratios
from bench.mail import pending_rows
from bench.mail_backlog import play_until
from games.models import Game
from notifications.models import Outbox
from notifications.services import rendered


def test_an_order_costing_as_much_engine_time_as_one_raw_insert_could_reach_half_the_ceiling():
    figures = [
        Figure("raw_insert_commit_per_s", 1000.0, "inserts/s"),
        Figure("engine_ms_per_order", 1.0, "ms"),
    ]
    (bound,) = engine_bound(figures)
    assert bound.name == "orders_to_raw_insert_ratio_engine_bound"
    assert bound.value == pytest.approx(0.5)  # 1 ms insert + 1 ms engine: 500 orders/s of 1000
    assert engine_bound(figures[:1]) == []  # no engine figure (bench --only without orders): no bound


def test_the_orders_ratio_to_the_raw_insert_is_context_without_a_target():
    figures = [
        Figure("raw_insert_commit_per_s", 1000.0, "inserts/s"),
        Figure("orders_per_s", 100.0, "orders/s"),
    ]
    (ratio,) = ratios(figures)
    assert (ratio.name, ratio.value) == ("orders_to_raw_insert_ratio", 0.1)
    assert (ratio.target, ratio.met) == ("", None)
    assert "target" not in ratio.line()


def test_the_replay_ratio_is_marked_against_its_target():
    figures = [
        Figure("raw_json_rows_read_alongside_per_s", 1000.0, "rows/s"),
        Figure("replay_events_per_s", 400.0, "events/s"),
    ]
    (ratio,) = ratios(figures)
    assert (ratio.name, ratio.target, ratio.met) == ("replay_to_raw_read_ratio", ">= 0.5", False)
    assert "[target >= 0.5: NOT met]" in ratio.line()


@pytest.mark.django_db
def test_the_delivery_bench_sends_turn_emails_with_a_real_position_and_example_reply(settings):
    """The fixed context lacked the position a real turn email tells: the bench rendered and sent a
    shorter email than the players get, with an empty example line."""
    settings.INBOUND_DOMAIN = "mail.example.org"  # orders by reply: the example line is rendered
    pending_rows(2, game_id=7)
    rows = Outbox.objects.filter(game_id=7, kind="turn", status=Outbox.Status.PENDING)
    assert rows.count() == 2
    text = rendered(rows.first()).text
    assert "You have 3 AP, 5 FP, 1 Blank, 0 VP; behind your screen: " in text, text
    assert "Your Poleis and units: C3 Athens: 4 phalanxes, the King, 1 Navigator." in text
    assert "Costs: recruit 1 AP per phalanx; " in text and "You may expand to: B2, " in text
    assert (
        "Or reply to this email with your order on the first line, e.g. pass, recruit C3 1 or fortify C3."
        in text
    )
    assert "It is your turn as Athens: 431 BC, action round 1." in text


@pytest.mark.django_db
def test_the_backlog_bench_plays_its_games_to_the_end_and_holds_at_least_the_emails_asked_for():
    """The 10,000-email backlog is measured whole: its games' emails are real ones (welcomes, turns,
    the end), written as orders are given, and no game is left half played."""
    games = play_until(40, games_at_once=1)
    assert games == 1 and Outbox.objects.count() >= 40  # one game alone writes ~180 emails
    assert Game.objects.get(name="bench backlog 0").status == Game.Status.ENDED
    kinds = set(Outbox.objects.values_list("kind", flat=True))
    assert {"welcome", "turn", "ended"} <= kinds, kinds
