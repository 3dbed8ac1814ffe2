"""The rulebook as pages in English and German (/rules/en/, /rules/de/), and the filter that links
the rule codes of refusals and history lines to them (H-ORDER: a refusal names its rule)."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages.storage.base import Message
from django.template import Context, Template
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe

from games.words.rulebook import rule_ids, rulebook

LINK = '<a class="rule-link" href="/rules/{language}/#{rule}" target="_blank" rel="noopener">{rule}</a>'


@pytest.mark.parametrize(
    ("language", "title", "contents", "other"),
    [
        ("en", "AEGEAPOLIS — the rules of this play-by-email edition", "Contents", "/rules/de/"),
        ("de", "AEGEAPOLIS — die Regeln dieser Ausgabe per E-Mail", "Inhalt", "/rules/en/"),
    ],
)
def test_the_rulebook_page_in_each_language_anchors_every_rule_and_section(
    client, language: str, title: str, contents: str, other: str
) -> None:
    response = client.get(f"/rules/{language}/")
    page = response.content.decode()
    assert response.status_code == 200 and response["Content-Language"] == language
    assert f'<html lang="{language}">' in page and f"<h1>{title}</h1>" in page
    assert f'<summary id="contents-title">{contents}</summary>' in page
    assert f'href="{other}"' in page  # the same page in the other language
    for rule in rule_ids():
        assert page.count(f'<p id="{rule}" class="rule">') == 1, rule
        assert f'<a href="#{rule}">{rule}</a>' in page, rule  # in the table of contents
    for section in rulebook(language).all_sections():
        assert f'<h{section.level} id="{section.anchor}">' in page
        assert f'<a class="toc-section" href="#{section.anchor}">{escape(section.title)}</a>' in page
    # The strict CSP holds: nothing inline.
    assert "<script" not in page and not re.search(r"\sstyle=", page)
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_german_page_reads_in_the_games_german_words(client) -> None:
    page = client.get("/rules/de/").content.decode()
    assert '<h3 id="section-5-2">Bewegung</h3>' in page
    assert "Festungsanlage" in page and "Leermünze" in page and "Heimatpolis" in page
    assert "<td>Ägina</td>" in page and "<td>Schildkröte</td>" in page
    assert "Fortification" not in page and "house rule" not in page


@pytest.mark.parametrize(
    ("accept", "where"),
    [("de-DE,de;q=0.9", "/rules/de/"), ("en-GB,en;q=0.9", "/rules/en/"), ("fr-FR,fr;q=0.9", "/rules/en/")],
)
def test_rules_opens_the_rulebook_in_the_readers_language(client, accept: str, where: str) -> None:
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 302 and response["Location"] == where
    assert "Accept-Language" in response["Vary"]


def test_a_rulebook_in_a_language_the_site_does_not_speak_is_not_found(client) -> None:
    assert client.get("/rules/fr/").status_code == 404
    assert client.post("/rules/en/").status_code == 405


def render(text: object, language: str) -> str:
    with translation.override(language):
        return Template("<p>{{ text|rule_links }}</p>").render(Context({"text": text}))


def test_h_order_rule_links_links_known_codes_to_the_page_in_the_active_language() -> None:
    german = "Du bewegst 2 Navigatoren aus C3, aber dort gibt es nur 1. (S-MOVE)"
    assert render(german, "de") == (
        "<p>Du bewegst 2 Navigatoren aus C3, aber dort gibt es nur 1. ("
        + LINK.format(language="de", rule="S-MOVE")
        + ")</p>"
    )
    assert LINK.format(language="en", rule="H-ORDER") in render("Unknown kind of order: x. (H-ORDER)", "en")


def test_rule_links_escapes_the_text_and_leaves_unknown_codes_as_text() -> None:
    text = 'Expand to <script>alert("I9")</script> & S-NOWHERE (S-EXP)'
    assert render(text, "en") == (
        "<p>Expand to &lt;script&gt;alert(&quot;I9&quot;)&lt;/script&gt; &amp; S-NOWHERE ("
        + LINK.format(language="en", rule="S-EXP")
        + ")</p>"
    )
    assert render("No rule here.", "en") == "<p>No rule here.</p>"


def test_rule_links_reads_a_message_and_leaves_html_already_safe_alone() -> None:
    message = Message(40, "It is not your turn; the game waits for Corinth. (H-YEAR)")
    assert LINK.format(language="en", rule="H-YEAR") in render(message, "en")
    safe = mark_safe('<span title="S-MOVE">S-MOVE</span>')
    assert render(safe, "en") == '<p><span title="S-MOVE">S-MOVE</span></p>'
