"""DEBUG-only: the local mailbox folder, so a person can read the emails players would receive."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render


def _mailbox() -> Path:
    if not settings.DEBUG:
        raise Http404("The mailbox is shown only with DEBUG on.")
    return Path(settings.EMAIL_FILE_PATH)


def mailbox(request: HttpRequest) -> HttpResponse:
    folder = _mailbox()
    files = (
        sorted(folder.glob("*.log"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.is_dir() else []
    )
    return render(request, "games/mailbox.html", {"folder": folder, "files": [f.name for f in files]})


def mailbox_message(request: HttpRequest, name: str) -> HttpResponse:
    folder = _mailbox()
    path = folder / name
    if path.parent != folder or not path.is_file():
        raise Http404("No such message file.")
    return HttpResponse(path.read_text(errors="replace"), content_type="text/plain; charset=utf-8")
