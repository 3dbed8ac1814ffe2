"""DEBUG-only: the local mailbox folder, so a person can read the emails players would receive.

It holds every player's email (their links, their addresses), so it is shown only with DEBUG on and
only to a browser on this machine that names it by a loopback host (aegea_pbem/serving.py)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from aegea_pbem.serving import served_on_loopback


def _mailbox(request: HttpRequest) -> Path:
    if not settings.DEBUG or not served_on_loopback(request):
        raise Http404("The mailbox is shown only with DEBUG on, to a browser on this machine (127.0.0.1).")
    return Path(settings.EMAIL_FILE_PATH)


def mailbox(request: HttpRequest) -> HttpResponse:
    folder = _mailbox(request)
    files = (
        sorted(folder.glob("*.log"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.is_dir() else []
    )
    return render(request, "games/mailbox.html", {"folder": folder, "files": [f.name for f in files]})


def mailbox_message(request: HttpRequest, name: str) -> HttpResponse:
    folder = _mailbox(request)
    path = folder / name
    if path.parent != folder or not path.is_file():
        raise Http404("No such message file.")
    return HttpResponse(path.read_text(errors="replace"), content_type="text/plain; charset=utf-8")
