"""The bench's peer (bench/peer.py) does the same work as our orders, and the alternating rounds
(bench/versus_peer.py) turn both sides' rates into the target ratios."""

from __future__ import annotations

import os

import pytest

from bench.figures import Figure
from bench.orders import Recording, clone_game, record_game, replay_orders
from bench.peer import peer_app
from bench.versus_peer import PeerDisagrees, _check_same, _figures, backend_cpu_seconds, bench_versus_peer
from games.eventstore.log_reading import load_engine_events
from games.models import Game
from games.reading.situation import load_game


def _peer_game(recording: Recording) -> tuple[object, list]:
    template = Game.objects.get(pk=recording.game_id)
    opening = load_engine_events(template, up_to_seq=recording.opening_seq)
    return template.seed, opening


@pytest.mark.django_db
def test_the_peers_events_fold_to_the_state_of_our_log_after_the_same_orders() -> None:
    recording = record_game(stop_after=12)
    seed, opening = _peer_game(recording)
    ours = clone_game(recording)
    replay_orders(ours, recording)
    with peer_app() as app:
        peer_id = app.start(seed, opening)
        heads = [app.order(peer_id, command, seq) for command, seq in recording.orders]
        got = app.repository.get(peer_id)

    assert heads[-1] == load_game(ours).seq == got.seq
    assert got.state.to_dict() == load_game(ours).state.to_dict()
    _check_same(recording, [ours.pk], [peer_id])  # from the stored events alone: no error


@pytest.mark.django_db
def test_a_peer_game_that_did_less_work_than_ours_is_found_out() -> None:
    recording = record_game(stop_after=6)
    seed, opening = _peer_game(recording)
    ours = clone_game(recording)
    replay_orders(ours, recording)
    with peer_app() as app:
        peer_id = app.start(seed, opening)
        for command, seq in recording.orders[:-1]:
            app.order(peer_id, command, seq)

    with pytest.raises(PeerDisagrees):
        _check_same(recording, [ours.pk], [peer_id])


def test_the_ratios_are_the_median_of_the_rounds_ratios_with_the_target_and_moonshot() -> None:
    rates = {
        ("ours", 1): [300.0, 150.0, 310.0],
        ("peer", 1): [100.0, 150.0, 200.0],  # round ratios 3.0, 1.0, 1.55
        ("ours", 4): [400.0, 420.0, 380.0],
        ("peer", 4): [400.0, 400.0, 400.0],
    }
    recording = Recording(game_id=1, opening_seq=10, orders=[])
    figures = {f.name: f for f in _figures(recording, 3, rates, {1: [0.002, 0.004], 4: [0.01]})}

    assert figures["orders_to_peer_ratio"].value == pytest.approx(1.55)
    assert figures["orders_to_peer_ratio"].met is True
    assert "moonshot >= 2: not met" in figures["orders_to_peer_ratio"].detail
    assert figures["orders_4_clients_to_peer_ratio"].value == pytest.approx(1.0)
    assert figures["orders_4_clients_to_peer_ratio"].met is False
    assert figures["orders_per_s"].value == 300.0
    assert figures["peer_orders_per_s_4_clients"].value == 400.0
    assert "[target >= 1.5: NOT met]" in figures["orders_4_clients_to_peer_ratio"].line()


@pytest.mark.django_db(transaction=True)
def test_one_round_times_both_sides_from_1_and_4_clients() -> None:
    figures: list[Figure] = bench_versus_peer(record_game(stop_after=4), rounds=1)

    names = {f.name for f in figures}
    assert {
        "orders_per_s",
        "peer_orders_per_s",
        "orders_per_s_4_clients",
        "peer_orders_per_s_4_clients",
    } <= names
    # (the CPU figures of 4 orders may read 0: the kernel counts a process's CPU in 10 ms ticks)
    assert all(f.value > 0 for f in figures if "cpu" not in f.name and "wait" not in f.name)
    assert {f.name for f in figures if f.target} == {"orders_to_peer_ratio", "orders_4_clients_to_peer_ratio"}


@pytest.mark.django_db(transaction=True)
def test_a_round_says_where_each_sides_order_spends_its_time() -> None:
    """Beside the rates, the CPU per order of each side's clients and of their PostgreSQL backends
    (read from /proc: the test database runs on this machine), and from one client the wait left."""
    figures = {f.name: f for f in bench_versus_peer(record_game(stop_after=4), rounds=1)}

    for side in ("order", "peer"):
        for suffix in ("", "_4_clients"):
            assert figures[f"{side}{suffix}_client_cpu_ms"].value > 0
            assert figures[f"{side}{suffix}_backend_cpu_ms"].value >= 0
        # The wall of one client's orders is their CPU and what is left, the waiting.
        wall = 1000 / figures["orders_per_s" if side == "order" else "peer_orders_per_s"].value
        spent = figures[f"{side}_client_cpu_ms"].value + figures[f"{side}_backend_cpu_ms"].value
        assert figures[f"{side}_wait_ms"].value == pytest.approx(wall - spent)
    assert "order_4_clients_wait_ms" not in figures  # four clients' waits overlap: no such figure


def test_a_backend_that_is_not_a_local_process_has_no_cpu_to_read() -> None:
    assert backend_cpu_seconds(2**22 + 1) is None  # above Linux's highest pid
    assert backend_cpu_seconds(os.getpid()) >= 0
