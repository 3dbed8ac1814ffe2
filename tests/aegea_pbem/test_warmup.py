"""A web process's warm-up as it starts (aegea_pbem/warmup.py, run by aegea_pbem/wsgi.py)."""

from __future__ import annotations

import pytest


def test_a_web_process_warms_up_as_it_starts_without_connecting_to_the_broker():
    """aegea_pbem/wsgi.py runs warm_up: the broker's transport is imported (the first order's nudge
    imports nothing) and the URL resolver's reverse map is built for each language. The broker here
    is a socket that listens but never answers: a connection attempt would show as a pending one."""
    import os
    import socket
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import sys\n"
        "import aegea_pbem.wsgi\n"
        "from notifications.tasks import deliver_pending\n"
        "assert not deliver_pending.app.conf.task_always_eager\n"
        "from django.urls import get_resolver\n"
        "print('kombu.transport.redis' in sys.modules, *sorted(get_resolver()._reverse_dict))\n"
    )
    with socket.socket() as broker:
        broker.bind(("127.0.0.1", 0))
        broker.listen()
        env = {
            **os.environ,
            "REDIS_URL": f"redis://127.0.0.1:{broker.getsockname()[1]}/0",
            "DJANGO_SETTINGS_MODULE": "aegea_pbem.settings",
        }
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=Path(__file__).resolve().parents[2],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        )
        broker.setblocking(False)
        with pytest.raises(BlockingIOError):
            broker.accept()  # nobody connected
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "de", "en"]


def test_an_email_worker_warms_up_when_celery_starts_it_and_a_failed_warm_up_does_not_stop_it(
    monkeypatch, caplog
):
    """games/apps.py connects Celery's worker_init (sent before the worker takes a task) to
    warm_up_worker and to the board's first drawing; a warm-up that fails is logged, not raised."""
    from celery import signals

    from aegea_pbem import warmup
    from games import apps
    from games.board import png

    # Called, not sent: sending worker_init would also install Celery's Django fixup in this process.
    assert apps._warm_up_worker in signals.worker_init._live_receivers(None)
    done = []
    monkeypatch.setattr(warmup, "warm_up_worker", lambda: done.append("worker"))
    monkeypatch.setattr(png, "warm_up", lambda languages: done.append(("board", sorted(languages))))
    apps._warm_up_worker(sender=None)
    assert done == ["worker", ("board", ["de", "en"])]

    def broken(languages: object) -> None:
        raise RuntimeError("no cairo")

    monkeypatch.setattr(png, "warm_up", broken)
    apps._warm_up_worker(sender=None)
    assert "the worker's warm-up failed" in caplog.text


def test_warm_up_worker_compiles_the_email_templates_and_draws_every_empty_board():
    from django.template import engines

    from aegea_pbem.warmup import EMAIL_TEMPLATES, warm_up_worker
    from games.board import parts, png
    from games.engine import board_view, fold, new_game

    png.forget_pictures()
    warm_up_worker()
    png.warm_up(["en", "de"])
    loader = engines["django"].engine.template_loaders[0]
    cached = {key if isinstance(key, str) else key[0] for key in loader.get_template_cache}
    assert {f"emails/{name}.html" for name in EMAIL_TEMPLATES} <= cached
    assert parts.link.cache_info().currsize >= 1
    # Every table of 2, 3 or 4 factions (S-FAC) in both languages: 11 tables, 22 empty boards.
    assert parts.backdrop.cache_info().currsize == 22
    drawn = parts.backdrop.cache_info().misses
    for factions in (["sparta", "thebes"], ["athens", "corinth", "thebes"]):
        view = board_view(fold(new_game({"factions": factions}, "warm")))
        png.render_board_png(view, "de")
    assert parts.backdrop.cache_info().misses == drawn  # a game's first picture draws no empty board
    # H-SETUP: a new game's Native Poleis are drawn already; only its dealt neutral tiles are new.
    printed = parts.tile.cache_info().misses
    png.render_board_png(board_view(fold(new_game({"factions": ["athens", "sparta"]}, "another"))), "en")
    assert parts.tile.cache_info().misses - printed <= 5
