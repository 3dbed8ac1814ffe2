"""Fault: PostgreSQL restarted under order load (slow; .ci/run runs it).

Not the server the test run uses (restarting that would break every other test): a private
cluster, initdb'd into a temporary directory as the postgres user on port 5440, migrated, put under
order load by another process (tests/reliability/pg_load.py), restarted in the middle, then
checked: every accepted order's events are in the log, the chain is whole, and every due email
was sent exactly once (counted in a file by tests/reliability/recording_backend.py). The load
process has no Redis: its emails wait in the outbox and the sweep sends them once the server is
back (a worker killed while sending is the other fault test).
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.slow

PORT = 5440
LOAD_SECONDS = 12
RESTART_AFTER = 4


def pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found or shutil.which("runuser") is None or os.geteuid() != 0:
        pytest.fail(f"the PostgreSQL restart test needs root, runuser and {name} (Debian's postgresql)")
    return found[-1]


def as_postgres(*args: str, timeout: float = 120) -> None:
    subprocess.run(
        ["runuser", "-u", "postgres", "--", *args],
        check=True,
        timeout=timeout,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )


@pytest.fixture
def private_cluster():
    base = Path(tempfile.mkdtemp(prefix="aegea-pg-"))
    data = base / "data"
    shutil.chown(base, "postgres")
    pg_ctl = pg_bin("pg_ctl")
    as_postgres(pg_bin("initdb"), "-D", str(data), "--auth=trust", "-U", "postgres", "--no-sync")
    options = f"-p {PORT} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off"
    as_postgres(pg_ctl, "-D", str(data), "-o", options, "-l", str(base / "log"), "-w", "start")
    try:
        yield pg_ctl, data, f"postgres://postgres@127.0.0.1:{PORT}/postgres"
    finally:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
            check=False,
            timeout=60,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        shutil.rmtree(base, ignore_errors=True)


def test_postgresql_restarted_under_load_loses_no_accepted_order_and_mails_each_once(
    private_cluster, tmp_path
):
    pg_ctl, data, url = private_cluster
    record = tmp_path / "sent.txt"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "aegea_pbem.settings",
        "DATABASE_URL": url,
        "REDIS_URL": "redis://127.0.0.1:6391/0",  # nobody listens: no worker is woken, the sweep sends
        "EMAIL_BACKEND": "tests.reliability.recording_backend.RecordingBackend",
        "AEGEA_MAIL_RECORD": str(record),
        "AEGEA_VAR_DIR": str(tmp_path),
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"],
        cwd=settings.BASE_DIR,
        env=env,
        check=True,
        timeout=300,
    )
    out = tmp_path / "report.json"
    load = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.pg_load", str(out), str(LOAD_SECONDS)],
        cwd=settings.BASE_DIR,
        env=env,
    )
    ready = Path(f"{out}.ready")
    deadline = time.monotonic() + 120
    while not ready.exists() and load.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(RESTART_AFTER)
    as_postgres(pg_ctl, "-D", str(data), "-m", "fast", "-w", "restart")
    # The load ends with the sweep sending every email, each with its board picture drawn (~0.1 s):
    # ~2,000 emails took ~270 s here in the sixth session, the faster the orders the more of them.
    assert load.wait(timeout=900) == 0
    report = json.loads(out.read_text())

    assert report["database_errors"] > 0  # the restart really hit the load
    assert report["orders"] > 5
    assert all(not missing for missing in report["missing"].values())  # every accepted order is in the log
    assert report["gapless"] and report["chains_ok"]
    assert report["pending"] == 0
    sent = Counter(record.read_text().split())
    assert sorted(sent) == report["outbox"]  # every due email sent ...
    assert set(sent.values()) == {1}  # ... exactly once
