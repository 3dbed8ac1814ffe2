"""HTTP orders through gunicorn (2 threaded workers) under the loopback load generator (`make bench`).

Each generator thread plays its own clone of the recorded game through the JSON API
(POST /api/games/<id>/orders with the seat's token), in order, so every request is a real,
accepted order. Rate limiting is switched off in the gunicorn processes (RATE_LIMITS=off).
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from django.conf import settings

from bench import loadgen
from bench.figures import Figure, cpu_seconds, machine_busy_seconds, targeted
from bench.orders import Recording, clone_game, replay_orders
from games.reading.links import link_token

BASE_DIR = Path(settings.BASE_DIR)
# The web server as docs/operations.md recommends running it: gunicorn's default sync workers. On
# a quiet machine they served 123 and 124 orders/s (p99 113 and 118 ms) where threaded workers with
# keep-alive served 77 and 93 (p99 176 and 161 ms): the 8 kept connections need not spread evenly
# over the 2 workers, and then one core idles (docs/operations.md).
GUNICORN_ARGS: list[str] = []
HTTP_OVERHEAD_TARGET = "<= 1.5"  # gunicorn's CPU per order over submit_order's own


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(
    port: int, workers: int, log_dir: Path, environment: dict[str, str] | None = None
) -> subprocess.Popen:
    """gunicorn serving the site on 127.0.0.1:`port`, answering /healthz; `environment` overrides the
    bench's own (e.g. rate limits on, for tests/reliability/test_rate_limits_gunicorn.py)."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "aegea_pbem.settings",
        "DEBUG": "0",
        "DB_CONN_MAX_AGE": "60",
        "RATE_LIMITS": "off",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "LOG_LEVEL": "ERROR",
        **(environment or {}),
    }
    log = open(log_dir / "bench-gunicorn.log", "w")  # noqa: SIM115  (closed with the process)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen(
        [
            *(str(gunicorn), "aegea_pbem.wsgi", "-w", str(workers), *GUNICORN_ARGS),
            *("-b", f"127.0.0.1:{port}", "--timeout", "60"),
        ],
        cwd=BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"gunicorn did not start (see {log.name})") from None
            time.sleep(0.2)


def child_pids(parent: int) -> list[int]:
    """The processes whose parent is `parent` (gunicorn's workers of its master), from /proc."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # gone meanwhile
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
                children.append(int(entry.name))
    return children


def submit_cpu_ms(recording: Recording) -> float:
    """The CPU this process spends per order replaying the recording through submit_order (a clone)."""
    game = clone_game(recording, "bench http direct")
    before = time.process_time()
    replay_orders(game, recording)
    return (time.process_time() - before) * 1000 / len(recording.orders)


def order_script(recording: Recording, name: str) -> list[loadgen.Request]:
    game = clone_game(recording, name)
    tokens = {seat.faction: link_token(seat) for seat in game.seats.all()}
    return [
        loadgen.Request(
            "POST",
            f"/api/games/{game.pk}/orders",
            json.dumps({"expected_seq": seq, "command": command.to_dict()}).encode(),
            {"Authorization": f"Bearer {tokens[command.player]}", "Content-Type": "application/json"},
        )
        for command, seq in recording.orders
    ]


def bench_http(
    recording: Recording,
    threads: int = 8,
    workers: int = 2,
    time_limit: float = 30.0,
    log_dir: Path = BASE_DIR / "var",
) -> list[Figure]:
    """Orders/s and latency through gunicorn: `threads` clients, each on its own game; and the CPU
    gunicorn spends per order against submit_order's own (`http_overhead_ratio`), the latter timed
    in this process right before and right after the HTTP load, on clones of the same game."""
    scripts = [order_script(recording, f"bench http {n}") for n in range(threads)]
    direct = [submit_cpu_ms(recording)]
    log_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    server = start_gunicorn(port, workers, log_dir)
    try:
        # The CPU an order cost, besides the rate: a shared machine's other load changes it less
        # than the wall clock. The generator's own share is this process's CPU while it runs.
        pids = [server.pid, *child_pids(server.pid)]
        server_cpu, machine_cpu, client_cpu = cpu_seconds(pids), machine_busy_seconds(), time.process_time()
        result = loadgen.run(port, scripts, time_limit=time_limit)
        server_cpu = cpu_seconds(pids) - server_cpu
        machine_cpu = machine_busy_seconds() - machine_cpu
        client_cpu = time.process_time() - client_cpu
    finally:
        server.terminate()
        server.wait(timeout=30)
    direct.append(submit_cpu_ms(recording))
    accepted = result.statuses.get(201, 0)
    latencies = sorted(result.latencies)
    others = {status: n for status, n in result.statuses.items() if status != 201}
    detail = (
        f"{accepted} orders accepted (201), other answers {others or 'none'}, {len(result.errors)} errors;"
        f" gunicorn {' '.join(['-w', str(workers), *GUNICORN_ARGS])},"
        f" {threads} loopback client threads on {threads} games"
    )
    return [
        Figure("http_orders_per_s", accepted / result.seconds, "orders/s", detail),
        Figure("http_order_p50_ms", statistics.median(latencies) * 1000, "ms"),
        Figure("http_order_p99_ms", latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000, "ms"),
        Figure("http_server_cpu_ms", server_cpu * 1000 / accepted, "ms", "gunicorn's CPU per order"),
        Figure("http_client_cpu_ms", client_cpu * 1000 / accepted, "ms", "the generator's CPU per order"),
        Figure(
            "submit_order_cpu_ms",
            statistics.mean(direct),
            "ms",
            "submit_order's own CPU per order in this process (no HTTP), mean of the runs before and"
            f" after the HTTP load ({direct[0]:.2f}, {direct[1]:.2f})",
        ),
        targeted(
            "http_overhead_ratio",
            server_cpu * 1000 / accepted / statistics.mean(direct),
            "x",
            HTTP_OVERHEAD_TARGET,
            "http_server_cpu_ms / submit_order_cpu_ms",
        ),
        Figure(
            "http_machine_cpu_ms",
            machine_cpu * 1000 / accepted,
            "ms",
            "all cores busy, per order (the database and the generator too)",
        ),
    ]
