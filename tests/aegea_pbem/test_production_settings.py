"""Production answers only its own host names, mails reset links to SITE_URL, and keeps to https."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {"AEGEA_PRODUCTION": "1", "SECRET_KEY": "s3cret-" * 8}
SHOW = (
    "import json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'aegea_pbem.settings';"
    " from django.conf import settings as s;"
    " print(json.dumps({name: getattr(s, name, None) for name in ("
    "'ALLOWED_HOSTS', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', 'SESSION_COOKIE_SECURE',"
    " 'CSRF_COOKIE_SECURE', 'SECURE_REDIRECT_EXEMPT')}))"
)


def production_settings(tmp_path: Path, **env: str) -> dict:
    """The security settings as a fresh interpreter reads them with only `env` (plus PATH) set."""
    environ = {"PATH": os.environ["PATH"], "AEGEA_VAR_DIR": str(tmp_path), **env}
    result = subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_production_allows_only_the_site_host_and_the_configured_hosts(tmp_path):
    """Finding: production ALLOWED_HOSTS. AEGEA_PRODUCTION=1 answered Host headers localhost,
    127.0.0.1, [::1] and testserver too; now only SITE_URL's host and ALLOWED_HOSTS."""
    site = {**PRODUCTION, "SITE_URL": "https://play.example.com"}

    assert production_settings(tmp_path, **site)["ALLOWED_HOSTS"] == ["play.example.com"]
    configured = production_settings(tmp_path, **site, ALLOWED_HOSTS="www.example.com")
    assert configured["ALLOWED_HOSTS"] == ["www.example.com", "play.example.com"]


def test_the_embedded_default_still_answers_the_local_host_names(tmp_path):
    """What stays: without AEGEA_PRODUCTION the local names (and the test client's) are allowed."""
    hosts = production_settings(tmp_path)["ALLOWED_HOSTS"]

    assert {"localhost", "127.0.0.1", "[::1]", "testserver"} <= set(hosts)


def test_an_https_site_in_production_redirects_http_and_sends_hsts_and_secure_cookies(tmp_path):
    """Finding: https in production. An https SITE_URL had HSTS and secure cookies but answered
    plain http without a redirect; now SECURE_SSL_REDIRECT is on, the health check exempt."""
    https = production_settings(tmp_path, **PRODUCTION, SITE_URL="https://play.example.com")

    assert https["SECURE_SSL_REDIRECT"] is True and https["SECURE_REDIRECT_EXEMPT"] == ["^healthz$"]
    assert https["SECURE_HSTS_SECONDS"] == 31536000
    assert https["SESSION_COOKIE_SECURE"] is True and https["CSRF_COOKIE_SECURE"] is True
    plain = production_settings(tmp_path, **PRODUCTION, SITE_URL="http://127.0.0.1:8000")
    assert plain["SECURE_SSL_REDIRECT"] is False and plain["SECURE_HSTS_SECONDS"] == 0
    proxy = production_settings(
        tmp_path, **PRODUCTION, SITE_URL="https://play.example.com", SECURE_SSL_REDIRECT="0"
    )
    assert proxy["SECURE_SSL_REDIRECT"] is False


@pytest.mark.django_db
@override_settings(SECURE_SSL_REDIRECT=True, SECURE_REDIRECT_EXEMPT=[r"^healthz$"])
def test_the_redirect_sends_pages_to_https_but_answers_the_health_check(client):
    """What the https settings above do to a plain http request: a redirect, the health check exempt."""
    page = client.get("/")

    assert page.status_code == 301 and page["Location"] == "https://testserver/"
    assert client.get(reverse("healthz")).status_code == 200


@pytest.mark.django_db
def test_the_password_reset_link_is_built_from_site_url_not_the_host_header(client, settings):
    """Finding: password reset from the Host header. Django's reset built the link in its email
    from the request's Host, so a forged Host (one ALLOWED_HOSTS lets through) mailed the organiser
    a valid reset token on the forger's site; now the link is SITE_URL's."""
    settings.SITE_URL = "https://play.example.com"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "forger.example"]
    get_user_model().objects.create_user("olga", "olga@example.com", "a-long-password")

    response = client.post(
        reverse("password_reset"), {"email": "olga@example.com"}, HTTP_HOST="forger.example"
    )

    assert response.status_code == 302
    (sent,) = mail.outbox
    assert "forger.example" not in sent.body
    assert "https://play.example.com/accounts/reset/" in sent.body
