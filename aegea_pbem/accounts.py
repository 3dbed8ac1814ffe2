"""The organisers' password reset, its link built from SITE_URL.

Django's own reset builds the link in the email from the request's Host header; a forged Host (one
ALLOWED_HOSTS lets through, or a proxy passes on) would mail an organiser a link to the forger's
site carrying a valid reset token. The public address is SITE_URL, so the link is built from it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm


class SiteUrlPasswordResetForm(PasswordResetForm):
    def save(self, **kwargs: Any) -> None:
        """Send the reset emails with links to SITE_URL, whatever host the request named."""
        site = urlsplit(settings.SITE_URL)
        kwargs["domain_override"] = site.netloc
        kwargs["use_https"] = site.scheme == "https"
        super().save(**kwargs)
