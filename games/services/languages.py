"""Which language a player reads (docs/i18n.md): per seat, chosen on their page, else the browser's.

Emails always use `Seat.language` (set by the organiser, then by the player's own choice).
A page follows the browser's Accept-Language until the player picks a language on it; the
pick is stored on the seat, so their emails switch too.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from games.models import Seat

LANGUAGE_CODES = tuple(code for code, _name in settings.LANGUAGES)


def browser_language(request: HttpRequest) -> str | None:
    """The first language of the request's Accept-Language that the service speaks, or None."""
    for code, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        if code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return None


def page_language(request: HttpRequest, seat: Seat) -> str:
    """The language of a seat's pages: the player's choice, else the browser's, else the seat's."""
    if seat.language_chosen:
        return seat.language
    return browser_language(request) or seat.language


def choose_language(seat: Seat, code: str) -> None:
    """The player picks the language of their pages and emails. ValueError for one we do not speak."""
    if code not in LANGUAGE_CODES:
        raise ValueError(code)
    seat.language = code
    seat.language_chosen = True
    seat.save(update_fields=["language", "language_chosen"])
