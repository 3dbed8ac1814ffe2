"""Which language a player reads (docs/i18n.md): per seat, chosen on their page, else the browser's.

Emails always use `Seat.language` (set by the organiser, then by the player's own choice).
A page follows the browser's Accept-Language until the player picks a language on it; the
pick is stored on the seat, so their emails switch too. Until then the page and the emails may
differ: the switch then presses no button and says which language the emails come in.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from games.models import Seat
from games.words.names import language_name

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


@dataclass(frozen=True)
class LanguageButton:
    code: str
    name: str  # in its own language ("Deutsch"), as settings.LANGUAGES names it
    pressed: bool


@dataclass(frozen=True)
class LanguageSwitch:
    """The player page's English/Deutsch buttons and the line beside them."""

    buttons: list[LanguageButton]
    note: str  # which language the emails come in, when the page is in another one; else ""


def language_switch(seat: Seat, page: str) -> LanguageSwitch:
    """The switch on a page in `page` (page_language): a button is pressed only when both the pages
    and the emails are in its language, so it never claims what is not so. While a browser's
    language differs from the seat's (no choice yet), none is pressed and the note, in the page's
    language, says which language the emails come in and that a button sets both."""
    buttons = [
        LanguageButton(code, str(name), pressed=code == page == seat.language)
        for code, name in settings.LANGUAGES
    ]
    note = ""
    if page != seat.language:
        with translation.override(page):
            note = _(
                "Your emails about this game come in %(language)s. "
                "Choosing a language here sets both your pages and your emails."
            ) % {"language": language_name(seat.language)}
    return LanguageSwitch(buttons, note)


def chosen_text(code: str) -> str:
    """The confirmation of a choice, in the language just chosen."""
    with translation.override(code):
        return _("Your pages and emails are now in %(language)s.") % {"language": language_name(code)}
