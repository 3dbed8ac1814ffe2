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
