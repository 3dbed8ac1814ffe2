"""Where the service is served: the embedded key and DEBUG only ever on this machine's loopback.

settings.py refuses a SITE_URL or ALLOWED_HOSTS off the loopback for them as it loads; the servers'
own addresses are known only to the servers, so runserver (aegea_pbem/management/commands/runserver.py)
and gunicorn (gunicorn.conf.py, read from the directory gunicorn starts in) ask `bind_refusal` before
they listen. The dev mailbox asks `served_on_loopback` of every request (docs/operations.md, "What
production refuses to start without").
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port

from aegea_pbem.security_config import is_loopback, loopback_refusal


def bind_refusal(hosts: Iterable[str], what: str) -> str | None:
    """Why a server must not listen on `hosts` (its bind addresses, `what` names them in the
    message) under the current settings, or None."""
    return loopback_refusal(
        [(what, host) for host in hosts],
        embedded_key=settings.SECRET_KEY == settings.DEFAULT_SECRET_KEY,
        debug=settings.DEBUG,
    )


def served_on_loopback(request: HttpRequest) -> bool:
    """Whether the request comes from this machine and names a loopback host: not another
    machine, and not a page elsewhere that had its name resolved to 127.0.0.1 (DNS rebinding)."""
    host, _port = split_domain_port(request.get_host())
    return is_loopback(request.META.get("REMOTE_ADDR", "")) and is_loopback(host)
