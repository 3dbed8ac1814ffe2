"""Reading the security settings from the environment (no Django imports: settings.py uses it)."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from ipaddress import IPv4Network, IPv6Network, ip_network


def parse_rate_limits(text: str) -> dict[str, tuple[int, int]]:
    """ "orders=30/60,links=120/60,logins=10/300" (requests per seconds, per bucket: a seat or a client
    address); "off" or "" for none."""
    if text.strip().lower() in ("", "off", "0"):
        return {}
    limits = {}
    for part in text.split(","):
        kind, _, rate = part.partition("=")
        count, _, seconds = rate.partition("/")
        limits[kind.strip()] = (int(count), int(seconds))
    return limits


def parse_trusted_proxies(text: str) -> tuple[IPv4Network | IPv6Network, ...]:
    """ "127.0.0.1,10.0.0.0/8,::1" (addresses and CIDR networks, comma-separated) -> the networks whose
    peers' X-Forwarded-For is believed (aegea_pbem/rate_limits.py); "" for none. A malformed
    entry stops the start: a silently dropped proxy would put every client in one bucket."""
    networks = []
    for part in filter(None, (part.strip() for part in text.split(","))):
        try:
            networks.append(ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"TRUSTED_PROXIES: {part!r} is not an IP address or network") from None
    return tuple(networks)


# Django's deploy check security.W009 (django/core/checks/security/base.py) calls a key weak when it
# is shorter than 50 characters, has fewer than 5 distinct ones, or keeps startproject's prefix;
# its names for these are private, so the rule is written out here.
KEY_MIN_LENGTH = 50
KEY_MIN_DISTINCT = 5
KEY_INSECURE_PREFIX = "django-insecure-"
MAKE_A_KEY = "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"


# The embedded default key is printed in the repository and DEBUG on serves the dev mailbox (every
# player's email) and Django's debug pages: both are for one person on this machine only.
LOOPBACK_NAMES = frozenset({"localhost"})
# Django's test client names itself so; no browser or resolver reaches a server by it.
TEST_CLIENT_HOST = "testserver"


def is_loopback(host: str) -> bool:
    """Whether a host (an address, bare or in brackets, or a name, without a port) is this machine's
    loopback: 127.0.0.0/8, ::1 (also as ::ffff:127.x.x.x) or localhost."""
    host = host.strip().lower().removeprefix("[").removesuffix("]").rstrip(".")
    if host in LOOPBACK_NAMES:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def loopback_refusal(places: Iterable[tuple[str, str]], *, embedded_key: bool, debug: bool) -> str | None:
    """Why the service must not start, or None: with the embedded key or DEBUG on, every place it
    is served at, `(what, host)` pairs such as `("SITE_URL", "play.example.com")` or
    `("runserver's address", "0.0.0.0")`, must be the loopback (docs/operations.md, "What production
    refuses to start without")."""
    if not (embedded_key or debug):
        return None
    outside = [f"{host or '(empty)'} ({what})" for what, host in places if not is_loopback(host)]
    if not outside:
        return None
    unsafe = [
        text for on, text in ((embedded_key, "the embedded default SECRET_KEY"), (debug, "DEBUG on")) if on
    ]
    fixes = [
        text
        for on, text in ((embedded_key, "set SECRET_KEY to a long random string"), (debug, "set DEBUG=0"))
        if on
    ]
    said = " and ".join(unsafe)
    return (
        f"{said[0].upper()}{said[1:]} serve only the loopback address (127.0.0.1, ::1, localhost), not "
        f"{', '.join(outside)}: {' and '.join(fixes)}, or serve on 127.0.0.1 only."
    )


def debug_off_refusal(*, embedded_key: bool, debug: bool) -> str | None:
    """Why DEBUG=0 must not start, or None: off DEBUG the service is meant for others, and the
    embedded key would let anyone forge its signed links."""
    if embedded_key and not debug:
        return (
            "DEBUG=0 refuses the embedded default key: set SECRET_KEY to a long random string, e.g. "
            f"the output of {MAKE_A_KEY}."
        )
    return None


def weak_key_refusal(
    secret_key: str, places: Iterable[tuple[str, str]], *, embedded_key: bool, debug: bool
) -> str | None:
    """Why a production start (DEBUG off, or a place served off the loopback: `places` as for
    `loopback_refusal`) must not use `secret_key`, or None: a key Django's deploy check W009 calls
    weak could be guessed, and with it every signed link forged (docs/operations.md, "What
    production refuses to start without"). The embedded key has refusals of its own; the key itself
    is never written into the message."""
    if embedded_key or (debug and all(is_loopback(host) for _what, host in places)):
        return None
    length, distinct = len(secret_key), len(set(secret_key))
    faults = []
    if length < KEY_MIN_LENGTH:
        faults.append(f"it is {_characters(length)} long (at least {KEY_MIN_LENGTH} are needed)")
    if distinct < KEY_MIN_DISTINCT:
        named = _characters(distinct).replace(" ", " distinct ", 1)
        faults.append(f"it has {named} (at least {KEY_MIN_DISTINCT} are needed)")
    if secret_key.startswith(KEY_INSECURE_PREFIX):
        faults.append(f"it begins with {KEY_INSECURE_PREFIX!r}, startproject's mark of a development key")
    if not faults:
        return None
    return (
        "SECRET_KEY is too weak to serve others (Django's deploy check security.W009 warns of it): "
        f"{'; '.join(faults)}. Make a key with {MAKE_A_KEY} and set SECRET_KEY to its output."
    )


def _characters(n: int) -> str:
    return f"{n} character" if n == 1 else f"{n} characters"
