"""The rulebook as pages, one per language (docs/rules.md, docs/rules.de.md): every rule is an
anchor (/rules/de/#S-MOVE), so a refusal or a line of the history can link its rule. Parse,
read games/words/rulebook.py, render."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from games.web.rule_links import rules_url
from games.words.rulebook import RULEBOOKS, rulebook


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """/rules/ opens the rulebook in the reader's language (the browser's, by LocaleMiddleware);
    the fragment (#S-MOVE) stays with the browser across the redirect."""
    language = getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE)
    response = redirect(rules_url(language if language in RULEBOOKS else settings.LANGUAGE_CODE))
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


@require_GET
def rules_page(request: HttpRequest, language: str) -> HttpResponse:
    """The rulebook in `language`, with its table of contents (every section and the rules it
    holds) and links to the same page in the other languages."""
    if language not in RULEBOOKS:
        raise Http404("No rulebook in this language.")
    names = dict(settings.LANGUAGES)
    others = [(code, names[code], rules_url(code)) for code in RULEBOOKS if code != language]
    with translation.override(language):
        response = render(request, "games/rules.html", {"rulebook": rulebook(language), "others": others})
    response["Content-Language"] = language
    return response
