"""A production start refuses a weak SECRET_KEY as Django's deploy check security.W009 judges one
(docs/operations.md, "What production refuses to start without"): fewer than 50 characters, fewer
than 5 distinct ones, or startproject's "django-insecure-" prefix."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest
from django.core.checks.security.base import check_secret_key
from django.test import override_settings

from aegea_pbem.security_config import weak_key_refusal
from tests.aegea_pbem.support import ROOT, settings_with

HOW_TO_MAKE_ONE = "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
LOOPBACK = [("SITE_URL", "127.0.0.1")]
PUBLIC = [("SITE_URL", "play.example.com")]


def test_debug_off_refuses_a_one_letter_key_and_says_how_to_make_one(tmp_path):
    """Finding: weak SECRET_KEY. DEBUG=0 with SECRET_KEY=x started, and its signed links (seat
    links, sign-in links, reply addresses) could be forged by anyone who guessed it; now every
    process refuses as it reads the settings, saying what is wrong and how to make a key."""
    result = settings_with(tmp_path, DEBUG="0", SECRET_KEY="x")

    assert result.returncode != 0 and "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY is too weak to serve others" in result.stderr
    assert "it is 1 character long (at least 50 are needed)" in result.stderr
    assert "it has 1 distinct character (at least 5 are needed)" in result.stderr
    assert HOW_TO_MAKE_ONE in result.stderr


def test_manage_py_check_in_production_refuses_a_short_key_without_showing_it(tmp_path):
    """The refusal as an operator sees it, with AEGEA_PRODUCTION=1; the key is not printed."""
    key = "Short-But-Varied-Key-0123456789"
    env = {
        "PATH": os.environ["PATH"],
        "AEGEA_VAR_DIR": str(tmp_path),
        "AEGEA_PRODUCTION": "1",
        "SECRET_KEY": key,
    }
    check = [sys.executable, "manage.py", "check"]
    result = subprocess.run(check, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)

    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"it is {len(key)} characters long (at least 50 are needed)" in output
    assert key not in output


def test_a_key_made_as_the_refusal_says_starts_in_production(tmp_path):
    """What the refusal keeps working: the key `make bench` and the docs make (token_urlsafe(50))."""
    key = secrets.token_urlsafe(50)

    assert settings_with(tmp_path, AEGEA_PRODUCTION="1", SECRET_KEY=key).returncode == 0
    bench = settings_with(tmp_path, DEBUG="0", SECRET_KEY=key, DJANGO_SETTINGS_MODULE="bench.settings")
    assert bench.returncode == 0, bench.stderr


def test_a_short_key_of_ones_own_still_serves_the_loopback_with_debug_on(tmp_path):
    """What stays: DEBUG on serves only this machine (make run), whatever key it is given."""
    assert settings_with(tmp_path, SECRET_KEY="x").returncode == 0


@pytest.mark.parametrize(
    "key",
    [
        "x",
        "a9" * 24 + "Zq",  # 50 long, 4 distinct
        "Ab3-_" * 9 + "Ab3-",  # 49 long, 5 distinct
        "django-insecure-" + secrets.token_urlsafe(50),
    ],
)
@pytest.mark.parametrize(("places", "debug"), [(LOOPBACK, False), (PUBLIC, False), (PUBLIC, True)])
def test_weak_keys_are_the_ones_djangos_deploy_check_warns_of(key, places, debug):
    """Mirrors security.W009, asked of Django itself for each key: both call the same keys weak
    at a production start (DEBUG off, or a place off the loopback)."""
    with override_settings(SECRET_KEY=key, SECRET_KEY_FALLBACKS=[]):
        django_warns = bool(check_secret_key(None))

    refusal = weak_key_refusal(key, places, embedded_key=False, debug=debug)

    assert django_warns and refusal is not None and HOW_TO_MAKE_ONE in refusal


@pytest.mark.parametrize("key", ["Ab3-_" * 10, secrets.token_urlsafe(50), "a-real-key-" * 6])
def test_strong_keys_pass_as_they_pass_djangos_deploy_check(key):
    with override_settings(SECRET_KEY=key, SECRET_KEY_FALLBACKS=[]):
        assert check_secret_key(None) == []

    assert weak_key_refusal(key, PUBLIC, embedded_key=False, debug=False) is None


def test_the_embedded_key_and_debug_on_the_loopback_are_not_asked():
    """The embedded key has its own refusals (named above in settings.py); DEBUG on the loopback is
    one person's machine."""
    assert weak_key_refusal("insecure", PUBLIC, embedded_key=True, debug=False) is None
    assert weak_key_refusal("x", LOOPBACK, embedded_key=False, debug=True) is None
