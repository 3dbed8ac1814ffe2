"""The rulebook in two languages (docs/rules.md and its German twin docs/rules.de.md) and the rule
codes linked in the texts a player reads (H-ORDER: a refusal names the rule it enforces).

The two files are held together here: the same rule IDs, in the same sections, in the same order,
so that every anchor a link points at exists in both languages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.words.rulebook import (
    DEFINITION,
    RULEBOOKS,
    build_rulebook,
    linked_rule_codes,
    rule_ids,
    rulebook,
)

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def outline(language: str) -> list[tuple[str, list[str]]]:
    return [(section.anchor, section.rules) for section in rulebook(language).all_sections()]


def test_both_rulebooks_define_exactly_the_same_rule_ids_each_once() -> None:
    english = DEFINITION.findall(RULEBOOKS["en"].read_text(encoding="utf-8"))
    german = DEFINITION.findall(RULEBOOKS["de"].read_text(encoding="utf-8"))
    assert len(english) == len(set(english)) and len(german) == len(set(german))
    assert set(english) == set(german) == rule_ids()
    assert {"S-MOVE", "H-ORDER", "S-EXP-CHOICE", "H-RULES-VERSION"} <= rule_ids()


def test_both_rulebooks_have_the_same_sections_holding_the_same_rules_in_the_same_order() -> None:
    assert outline("de") == outline("en")
    anchors = [anchor for anchor, _ in outline("en")]
    assert anchors[:6] == ["section-1", "section-2", "section-3", "section-4", "section-5", "section-5-1"]
    assert (
        "section-5-2",
        ["S-MOVE", "S-MOVE-FREE", "S-MOVE-BUILDER", "S-MOVE-NAV", "H-CONVERGENCE", "S-MOVE-ORDER"],
    ) in outline("en")


def test_each_rule_and_section_is_an_anchor_of_its_page_in_both_languages() -> None:
    for language in RULEBOOKS:
        book = rulebook(language)
        page = book.intro + book.body
        for rule in rule_ids():
            assert page.count(f'<p id="{rule}" class="rule">') == 1, (language, rule)
        for section in book.all_sections():
            assert re.search(rf'<h[23] id="{section.anchor}">', page), (language, section.anchor)
    assert rulebook("de").sections[4].title == "5. Aktionen"
    assert rulebook("de").title == "AEGEAPOLIS — die Regeln dieser Ausgabe per E-Mail"


def test_h_order_every_rule_the_engine_refuses_with_is_in_the_rulebook() -> None:
    refused = {
        code
        for path in ENGINE.rglob("*.py")
        for code in re.findall(r'RuleViolation\(\s*"([SH](?:-[A-Z0-9]+)+)"', path.read_text(encoding="utf-8"))
    }
    assert {"S-MOVE", "H-ORDER", "S-EXP"} <= refused
    assert refused <= rule_ids()


def test_the_rulebook_shows_raw_html_as_text_and_keeps_only_links_within_the_page() -> None:
    text = (
        "<!-- a note for maintainers -->\n# Title\n\n## 1. One\n\n"
        '**[S-ONE]** <script>alert("x")</script> <img src=x onerror=alert(1)> see S-ONE and S-NONE; '
        "[the audit](fairness.md), [evil](javascript:alert(1)), [up](#section-1).\n"
    )
    book = build_rulebook(text, "en")
    assert book.title == "Title"
    assert "<script" not in book.body and "&lt;script&gt;" in book.body
    assert "<img" not in book.body and "&lt;img src=x onerror=alert(1)&gt;" in book.body
    assert "maintainers" not in book.intro + book.body
    assert 'href="javascript' not in book.body and 'href="fairness.md"' not in book.body
    assert "the audit" in book.body and '<a href="#section-1">up</a>' in book.body
    assert 'see <a class="rule-link" href="#S-ONE">S-ONE</a> and S-NONE;' in book.body


def test_a_section_without_its_number_is_refused_so_no_anchor_depends_on_a_language() -> None:
    with pytest.raises(ValueError, match="not numbered"):
        build_rulebook("# T\n\n## Actions\n\n**[S-ONE]** x\n", "en")


def test_h_order_a_refusal_links_its_rule_and_escapes_everything_else() -> None:
    text = 'Too many <b>phalanxes</b> & "more" (S-MOVE).'
    assert linked_rule_codes(text, "/rules/de/") == (
        "Too many &lt;b&gt;phalanxes&lt;/b&gt; &amp; &quot;more&quot; ("
        '<a class="rule-link" href="/rules/de/#S-MOVE" target="_blank" rel="noopener">S-MOVE</a>).'
    )


def test_unknown_codes_and_codes_inside_longer_words_stay_text() -> None:
    text = "S-NOPE, H-ORDERS, XS-MOVE, S-MOVE-x and s-move are not rules; S-MOVE-NAV is."
    linked = linked_rule_codes(text, "/rules/en/")
    assert linked.count("<a ") == 1
    assert '<a class="rule-link" href="/rules/en/#S-MOVE-NAV"' in linked
    assert linked.startswith("S-NOPE, H-ORDERS, XS-MOVE, S-MOVE-x and s-move are not rules; ")
    assert linked_rule_codes("", "/rules/en/") == ""
