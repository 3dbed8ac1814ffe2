"""gunicorn's settings, read from the directory gunicorn starts in (the repository root, as README
shows): only a check before it listens. The embedded key and DEBUG serve only the loopback, and
only gunicorn knows the addresses it binds (aegea_pbem/serving.py)."""

from __future__ import annotations

import os
import sys
from typing import Any

from gunicorn.util import parse_address


def on_starting(server: Any) -> None:
    """Exit with the reason, before any socket is bound, when a bind is off the loopback under the
    embedded key or DEBUG. A Unix socket (`unix:`) or an inherited descriptor counts as local."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aegea_pbem.settings")
    from aegea_pbem.serving import bind_refusal

    hosts = [address[0] for address in map(parse_address, server.cfg.bind) if isinstance(address, tuple)]
    if refusal := bind_refusal(hosts, "gunicorn's bind"):
        server.log.error("Refusing to start: %s", refusal)
        sys.exit(1)
