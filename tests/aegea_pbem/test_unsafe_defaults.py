"""The embedded default key and DEBUG serve only this machine's loopback (docs/operations.md, "What
production refuses to start without"): DEBUG=0 needs a SECRET_KEY, servers off the loopback refuse to
start with the embedded key or DEBUG on, the dev mailbox answers only loopback requests, and the
demo organiser exists only on a loopback DEBUG server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from aegea_pbem.security_config import is_loopback
from aegea_pbem.serving import bind_refusal
from tests.aegea_pbem.support import settings_with

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
REAL_KEY = "a-real-key-" * 6


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(command: list[str], tmp_path: Path, **env: str) -> subprocess.Popen:
    """A server started as an operator would, with only `env` (plus PATH) in its environment."""
    environ = {"PATH": os.environ["PATH"], "AEGEA_VAR_DIR": str(tmp_path), **env}
    return subprocess.Popen(
        command, cwd=ROOT, env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


@pytest.fixture
def servers() -> Iterator[list[subprocess.Popen]]:
    """The servers a test starts; each is stopped (by its own pid) when the test ends."""
    started: list[subprocess.Popen] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def refused(proc: subprocess.Popen) -> str:
    """The output of a server that must exit on its own, refusing to start (one that starts
    instead is stopped and the test fails)."""
    try:
        output, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        output, _ = proc.communicate()
        pytest.fail(f"the server started instead of refusing:\n{output}")
    assert proc.returncode not in (0, None), output
    return output


def answers(proc: subprocess.Popen, port: int) -> bool:
    """Whether the server answers HTTP on 127.0.0.1:port within a minute (any status counts)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            return True
        except urllib.error.HTTPError:
            return True
        except OSError:
            time.sleep(0.2)
    return False


def test_debug_off_without_a_secret_key_refuses_to_start_without_aegea_production(tmp_path):
    """Finding: unsafe defaults. DEBUG=0 with no SECRET_KEY started with the key printed in the
    repository, so anyone could forge its links; now every process (manage.py, gunicorn, Celery)
    refuses as it reads the settings, and says what to set."""
    result = settings_with(tmp_path, DEBUG="0")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "set SECRET_KEY" in result.stderr


def test_manage_py_check_refuses_debug_off_without_a_secret_key(tmp_path):
    """Finding: unsafe defaults. The refusal as an operator sees it from manage.py."""
    proc = start([sys.executable, "manage.py", "check"], tmp_path, DEBUG="0")

    assert "DEBUG=0 refuses the embedded default key: set SECRET_KEY" in refused(proc)


@pytest.mark.parametrize(
    "env, fix",
    [
        ({}, "set SECRET_KEY to a long random string and set DEBUG=0"),
        ({"SECRET_KEY": REAL_KEY}, "set DEBUG=0"),
    ],
)
def test_runserver_on_every_interface_refuses_the_embedded_key_and_debug(tmp_path, env, fix):
    """Finding: unsafe defaults. `runserver 0.0.0.0:PORT` with the embedded key (or DEBUG on, which
    serves every player's email at /dev/mailbox/) started for the whole network; now it refuses
    before it listens and says what to set."""
    port = free_port()
    proc = start([sys.executable, "manage.py", "runserver", "--noreload", f"0.0.0.0:{port}"], tmp_path, **env)

    output = refused(proc)
    assert "CommandError" in output and "0.0.0.0 (runserver's address)" in output and fix in output


def test_gunicorn_on_every_interface_refuses_the_embedded_key(tmp_path):
    """Finding: unsafe defaults. gunicorn bound to 0.0.0.0 with the embedded key served the world;
    now it exits before it binds (gunicorn.conf.py), naming the variable to set."""
    port = free_port()
    proc = start([str(BIN / "gunicorn"), "aegea_pbem.wsgi", "-b", f"0.0.0.0:{port}"], tmp_path)

    output = refused(proc)
    assert "Refusing to start" in output and "0.0.0.0 (gunicorn's bind)" in output
    assert "set SECRET_KEY" in output


def test_make_runs_default_runserver_on_127_0_0_1_starts_with_no_environment(tmp_path, servers):
    """What the unsafe-defaults refusals keep working: `make run` runs runserver on 127.0.0.1
    with no configuration at all: it starts and answers."""
    port = free_port()
    servers.append(
        start([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"], tmp_path)
    )

    assert answers(servers[0], port)


def test_gunicorn_on_the_loopback_starts_with_the_embedded_key(tmp_path, servers):
    """What the unsafe-defaults refusals keep working: the check in gunicorn.conf.py lets a
    loopback bind start."""
    port = free_port()
    servers.append(start([str(BIN / "gunicorn"), "aegea_pbem.wsgi", "-b", f"127.0.0.1:{port}"], tmp_path))

    assert answers(servers[0], port)


def test_a_public_site_url_with_the_embedded_key_refuses_to_start(tmp_path):
    """Finding: unsafe defaults. A SITE_URL (or ALLOWED_HOSTS) off the loopback means others
    follow the links, so the embedded key (and DEBUG) refuse it, whatever server runs."""
    by_site = settings_with(tmp_path, SITE_URL="https://play.example.com")
    by_hosts = settings_with(tmp_path, SECRET_KEY=REAL_KEY, ALLOWED_HOSTS="*")

    assert by_site.returncode != 0 and "play.example.com (SITE_URL)" in by_site.stderr
    assert "set SECRET_KEY" in by_site.stderr and "set DEBUG=0" in by_site.stderr
    assert by_hosts.returncode != 0 and "* (ALLOWED_HOSTS)" in by_hosts.stderr
    assert "set DEBUG=0" in by_hosts.stderr and "set SECRET_KEY" not in by_hosts.stderr


def test_a_real_key_with_debug_off_may_serve_every_interface(settings):
    """What the refusals allow: with a key of its own and DEBUG off, the service serves anywhere."""
    settings.SECRET_KEY, settings.DEBUG = REAL_KEY, False
    assert bind_refusal(["0.0.0.0", "::"], "runserver's address") is None

    settings.DEBUG = True
    assert "0.0.0.0 (runserver's address)" in bind_refusal(["127.0.0.1", "0.0.0.0"], "runserver's address")


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("localhost", True),
        ("LOCALHOST.", True),
        ("0.0.0.0", False),
        ("0", False),
        ("::", False),
        ("", False),
        ("192.168.1.20", False),
        ("localhost.example.com", False),
        ("testserver", False),
        ("*", False),
    ],
)
def test_only_this_machines_addresses_and_localhost_count_as_loopback(host, loopback):
    assert is_loopback(host) is loopback


@pytest.fixture
def mailbox_file(settings, tmp_path):
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.DEBUG = True
    (tmp_path / "20261130-080000-1.log").write_text("Subject: your turn\n\nhello")
    return "20261130-080000-1.log"


def test_the_dev_mailbox_refuses_a_client_on_another_machine_even_with_debug_on(client, mailbox_file):
    """Finding: unsafe defaults. With DEBUG on, /dev/mailbox/ served every player's email (their
    links) to any visitor; now only to a browser on this machine."""
    remote = {"REMOTE_ADDR": "203.0.113.7", "HTTP_HOST": "127.0.0.1:8000"}

    assert client.get(reverse("games:mailbox"), **remote).status_code == 404
    assert client.get(reverse("games:mailbox-message", args=[mailbox_file]), **remote).status_code == 404


def test_the_dev_mailbox_refuses_a_host_name_off_the_loopback(client, mailbox_file, settings):
    """Finding: unsafe defaults. A page elsewhere whose name resolves to 127.0.0.1 (DNS rebinding)
    reaches the loopback server from the visitor's own browser; its Host name gives it away."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "rebound.example"]

    response = client.get(reverse("games:mailbox"), HTTP_HOST="rebound.example")
    assert response.status_code == 404
    assert client.get(reverse("games:mailbox"), HTTP_HOST="localhost:8000").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    "debug, site_url, created",
    [
        (True, "http://127.0.0.1:8000", True),
        (True, "https://play.example.com", False),
        (False, "http://127.0.0.1:8000", False),
    ],
)
def test_the_demo_organiser_is_created_only_for_a_loopback_debug_server(
    settings, capsys, debug, site_url, created
):
    """Finding: unsafe defaults. createdemo made the organiser/aegeapolis account (its password in
    the repository) whenever DEBUG was on, also for a server others reach; now only for DEBUG on a
    loopback SITE_URL."""
    settings.DEBUG, settings.SITE_URL = debug, site_url

    call_command("createdemo")

    assert get_user_model().objects.filter(username="organiser").exists() is created
    assert ("aegeapolis" in capsys.readouterr().out) is created
