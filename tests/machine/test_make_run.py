"""`make run` delivers every email or refuses to start (the embedded default never stalls).

Finding: with REDIS_URL pointing at a Redis that does not answer, `make run` said "tasks run eagerly",
eagerbeat refused to start ("REDIS_URL is set…"), the web process queued every email for a broker
nobody read, and nothing ever swept: no turn email, the game stalled. These start `make run` itself,
as a new user does, each on a scratch SQLite database, mailbox and free port.
"""

from __future__ import annotations

import email
import html
import os
import re
import signal
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_env(tmp_path: Path, port: int, redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CI"}}
    env |= {
        "REDIS_URL": redis_url,
        "DATABASE_URL": f"sqlite:///{tmp_path}/run.sqlite3",
        "MAILBOX_DIR": str(tmp_path / "mailbox"),
        "HOST": "127.0.0.1",
        "PORT": str(port),
    }
    return env


@pytest.fixture
def started(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int, Path]]:
    """`REDIS_URL= make run`: the embedded mode, forced although a Redis answers on this machine."""
    port = free_port()
    log = tmp_path / "make-run.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            ["make", "--no-print-directory", "run"],
            cwd=REPO,
            env=run_env(tmp_path, port, ""),
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 180
        while "AEGEAPOLIS is running" not in log.read_text() or not answers(port):
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.5)
        yield process, port, tmp_path
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def answers(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
    except OSError as error:
        return getattr(error, "code", None) is not None
    return True


def mails(mailbox: Path) -> list[email.message.Message]:
    if not mailbox.exists():
        return []
    return [email.message_from_bytes(path.read_bytes()) for path in sorted(mailbox.iterdir())]


def test_make_run_with_a_redis_that_does_not_answer_refuses_to_start_and_says_what_to_change(
    tmp_path: Path,
) -> None:
    """Finding: a REDIS_URL that does not answer stalled every game silently. Now `make run` stops at
    once, before it creates anything, and names both ways out."""
    dead = f"redis://127.0.0.1:{free_port()}/0"
    done = subprocess.run(
        ["make", "--no-print-directory", "run"],
        cwd=REPO,
        env=run_env(tmp_path, free_port(), dead),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode != 0
    assert f"REDIS_URL={dead} does not answer" in done.stderr
    assert "REDIS_URL= make run" in done.stderr
    assert not (tmp_path / "run.sqlite3").exists()


def test_make_run_in_the_embedded_mode_mails_the_next_player_after_an_order_on_the_web(started) -> None:
    """REDIS_URL= (empty) means the embedded mode: the demo's emails arrive, and after a Pass given
    through the emailed link the next player's turn email is in the mailbox."""
    process, port, tmp_path = started
    mailbox = tmp_path / "mailbox"
    first = mails(mailbox)
    assert len(first) == 2, [m["Subject"] for m in first]

    links = re.findall(rf"http://127\.0\.0\.1:{port}/play/\S+", (tmp_path / "make-run.log").read_text())
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    for link in links:
        with opener.open(link, timeout=30) as page:
            text, address = page.read().decode(), page.geturl()
        if 'id="order-pass"' in text:
            break
    else:
        pytest.fail("no player's page has the Pass order")
    form = text[text.index('id="order-pass"') :]
    fields = {
        "csrfmiddlewaretoken": re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1],
        "expected_seq": re.search(r'name="expected_seq" value="(\d+)"', form)[1],
        "kind": "pass",
    }
    request = urllib.request.Request(address, data=urllib.parse.urlencode(fields).encode(), method="POST")
    request.add_header("Referer", address)
    with opener.open(request, timeout=30) as answer:
        assert answer.status == 200
        assert "order-error" not in html.unescape(answer.read().decode())

    deadline = time.monotonic() + 60
    while len(mails(mailbox)) < 3:
        assert time.monotonic() < deadline, "no turn email after the order"
        time.sleep(0.5)
    turn = mails(mailbox)[-1]
    assert "turn" in turn["Subject"].lower()
    assert process.poll() is None
