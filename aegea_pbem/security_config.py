"""Reading the security settings from the environment (no Django imports: settings.py uses it)."""

from __future__ import annotations

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
