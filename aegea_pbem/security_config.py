"""Reading the security settings from the environment (no Django imports: settings.py uses it)."""

from __future__ import annotations


def parse_rate_limits(text: str) -> dict[str, tuple[int, int]]:
    """ "orders=30/60,links=120/60,logins=10/300" (requests per seconds, per client address);
    "off" or "" for none."""
    if text.strip().lower() in ("", "off", "0"):
        return {}
    limits = {}
    for part in text.split(","):
        kind, _, rate = part.partition("=")
        count, _, seconds = rate.partition("/")
        limits[kind.strip()] = (int(count), int(seconds))
    return limits
