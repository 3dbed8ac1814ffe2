"""The template filter `rule_links`, a builtin of every template (settings TEMPLATES): a text with
every rule code the rulebook defines ("S-MOVE", "H-ORDER") linked to its rule on the rules page in
the page's language, everything else escaped (H-ORDER: a refusal names the rule it enforces)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeData, SafeString

from games.words.rulebook import RULEBOOKS, linked_rule_codes

register = template.Library()


@register.filter
def rule_links(value: Any) -> SafeString | str:
    """`{{ form.order_error|rule_links }}`: the text escaped, its rule codes linked to the rulebook
    in the active language (the page's). HTML already marked safe is left as it is: its codes may
    stand inside tags."""
    text = value if isinstance(value, str) else str(value)
    if isinstance(text, SafeData):
        return text
    language = (translation.get_language() or "en").split("-")[0]
    return linked_rule_codes(text, rules_url(language if language in RULEBOOKS else "en"))


def rules_url(language: str) -> str:
    """The rules page in `language` (a key of games/words/rulebook.RULEBOOKS)."""
    return reverse("games:rules-page", args=[language])
