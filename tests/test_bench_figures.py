"""The bench's derived figures (games/bench.py): ratios to the database's ceiling and the engine's bound."""

from __future__ import annotations

import pytest

from games.bench import Figure, engine_bound, ratios


def test_an_order_costing_as_much_engine_time_as_one_raw_insert_could_reach_half_the_ceiling():
    figures = [
        Figure("raw_insert_commit_per_s", 1000.0, "inserts/s"),
        Figure("engine_ms_per_order", 1.0, "ms"),
    ]
    (bound,) = engine_bound(figures)
    assert bound.name == "orders_to_raw_insert_ratio_engine_bound"
    assert bound.value == pytest.approx(0.5)  # 1 ms insert + 1 ms engine: 500 orders/s of 1000
    assert engine_bound(figures[:1]) == []  # no engine figure (bench --only without orders): no bound


def test_the_orders_ratio_is_marked_against_its_target():
    figures = [
        Figure("raw_insert_commit_per_s", 1000.0, "inserts/s"),
        Figure("orders_per_s", 100.0, "orders/s"),
    ]
    (ratio,) = ratios(figures)
    assert (ratio.name, ratio.value) == ("orders_to_raw_insert_ratio", 0.1)
    assert (ratio.target, ratio.met) == (">= 0.5", False)
    assert "[target >= 0.5: NOT met]" in ratio.line()
