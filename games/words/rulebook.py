"""The rulebook as pages (docs/rules.md and its German twin docs/rules.de.md), and rule codes in a
text linked to their place in it.

Every rule is a paragraph that starts with its ID in bold brackets (`**[S-MOVE]**`); the page gives
that paragraph the ID as its anchor (`#S-MOVE`), in every language. The sections are numbered
(`## 5. Actions`) and anchored by their numbers (`#section-5`, its subsections `#section-5-1`, ...),
so an anchor is the same in both languages. The Markdown is rendered with raw HTML off: anything
in the files that looks like HTML is shown as text, never injected (H-ORDER's refusals name these
IDs; the history and the refusals link them with `linked_rule_codes`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from django.utils import translation
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token

DOCS = Path(__file__).resolve().parents[2] / "docs"
# One rulebook per language of the site (settings.LANGUAGES); English is the reference.
RULEBOOKS = {"en": DOCS / "rules.md", "de": DOCS / "rules.de.md"}

# A rule code in running text ("(S-MOVE)", "see H-GOV"): S- or H- and upper-case words joined by
# hyphens, not glued to a longer word.
RULE_CODE = re.compile(r"(?<![\w-])[SH](?:-[A-Z0-9]+)+(?![\w-])")
# A rule's own paragraph starts with its ID in bold brackets.
DEFINITION = re.compile(r"^\*\*\[([SH](?:-[A-Z0-9]+)+)\]\*\*", re.MULTILINE)
# The maintainers' notes (<!-- ... -->) are not part of the page.
COMMENT = re.compile(r"<!--.*?-->\s*", re.DOTALL)
SECTION_NUMBER = re.compile(r"(\d+)\.\s")


@dataclass
class Section:
    """A numbered section (level 2) or one of its subsections (level 3), with the IDs of the rules
    it defines, in their order."""

    anchor: str
    title: str
    level: int
    rules: list[str] = field(default_factory=list)
    subsections: list[Section] = field(default_factory=list)


@dataclass(frozen=True)
class Rulebook:
    """One language's rulebook, ready for the page: its title, the text before the first section,
    the sections (for the table of contents) and the sections' text, both as safe HTML."""

    language: str
    title: str
    intro: SafeString
    sections: list[Section]
    body: SafeString

    def rule_ids(self) -> list[str]:
        """Every rule ID the book defines, in the order of the book."""
        return [rule for section in self.all_sections() for rule in section.rules]

    def all_sections(self) -> list[Section]:
        """The sections and subsections in the order of the book."""
        return [s for section in self.sections for s in (section, *section.subsections)]


@cache
def rule_ids() -> frozenset[str]:
    """The IDs of the rules of docs/rules.md: the codes that become links (its German twin defines
    the same, tests/words/test_rulebook.py)."""
    return _defined(RULEBOOKS["en"].read_text(encoding="utf-8"))


def rulebook(language: str) -> Rulebook:
    """The rulebook in `language` (a key of RULEBOOKS; KeyError otherwise), built once per process:
    the files change only with a deploy."""
    return _built(language)


def linked_rule_codes(text: str, rules_url: str) -> SafeString:
    """`text` as HTML, escaped, with every rule code the rulebook defines turned into a link to its
    rule on the page at `rules_url` (H-ORDER: a refusal names the rule it enforces). Codes the
    rulebook does not define stay text. The link opens another tab: a refusal is the answer to a
    posted order, and going back to it would post the order again."""
    known = rule_ids()
    parts: list[str] = []
    last = 0
    for match in RULE_CODE.finditer(text):
        if match[0] not in known:
            continue
        parts.append(escape(text[last : match.start()]))
        parts.append(
            format_html(
                '<a class="rule-link" href="{}#{}" target="_blank" rel="noopener">{}</a>',
                rules_url,
                match[0],
                match[0],
            )
        )
        last = match.end()
    parts.append(escape(text[last:]))
    return mark_safe("".join(parts))  # every part escaped above


@cache
def _defined(text: str) -> frozenset[str]:
    return frozenset(DEFINITION.findall(text))


@cache
def _built(language: str) -> Rulebook:
    return build_rulebook(RULEBOOKS[language].read_text(encoding="utf-8"), language)


def build_rulebook(text: str, language: str) -> Rulebook:
    """A rulebook from its Markdown `text`: raw HTML in it is shown as text, links leave only for
    places within the page, the maintainers' comments are dropped."""
    text = COMMENT.sub("", text)
    markdown = _markdown()
    tokens = markdown.parse(text)
    with translation.override(language):  # the words the renderer adds (a table's label)
        title, sections = _anchor(tokens)
        first = next((i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"), 0)
        intro = [t for t in tokens[:first] if t.type != "hr"]
        env = {"known": _defined(text), "rule": ""}
        return Rulebook(
            language=language,
            title=title,
            intro=mark_safe(markdown.renderer.render(intro, markdown.options, env)),
            sections=sections,
            body=mark_safe(markdown.renderer.render(tokens[first:], markdown.options, env)),
        )


def _markdown() -> MarkdownIt:
    """CommonMark with tables, raw HTML off (shown as text), links only within the page."""
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    markdown.add_render_rule("text", _text)
    markdown.add_render_rule("link_open", _link_open)
    markdown.add_render_rule("link_close", _link_close)
    markdown.add_render_rule("table_open", _table_open)
    markdown.add_render_rule("table_close", _table_close)
    markdown.add_render_rule("paragraph_open", _paragraph_open)
    return markdown


def _anchor(tokens: list[Token]) -> tuple[str, list[Section]]:
    """The title (the level-1 heading, taken out of the text) and the sections, with the anchors
    set on the headings and on the rules' paragraphs."""
    title = ""
    sections: list[Section] = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            words = _plain(tokens[i + 1])
            if token.tag == "h1":
                title = words
                token.hidden = tokens[i + 1].hidden = tokens[i + 2].hidden = True
                tokens[i + 1].children = []
                continue
            if token.tag == "h2":
                number = SECTION_NUMBER.match(words)
                if number is None:
                    raise ValueError(f"A section of the rulebook is not numbered: {words!r}")
                sections.append(Section(f"section-{number[1]}", words, 2))
                token.attrSet("id", sections[-1].anchor)
            else:
                parent = sections[-1]
                parent.subsections.append(Section(f"{parent.anchor}-{len(parent.subsections) + 1}", words, 3))
                token.attrSet("id", parent.subsections[-1].anchor)
        elif token.type == "paragraph_open" and not token.hidden and sections:
            rule = DEFINITION.match(tokens[i + 1].content)
            if rule:
                token.attrSet("id", rule[1])
                token.attrSet("class", "rule")
                current = sections[-1].subsections[-1] if sections[-1].subsections else sections[-1]
                current.rules.append(rule[1])
    return title, sections


def _plain(inline: Token) -> str:
    return "".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline"))


def _text(self: Any, tokens: list[Token], idx: int, options: Any, env: dict[str, Any]) -> str:
    """Text, escaped, with the codes of the book's rules as links to them."""
    content = tokens[idx].content
    parts: list[str] = []
    last = 0
    for match in RULE_CODE.finditer(content):
        if match[0] in env["known"]:
            parts.append(escapeHtml(content[last : match.start()]))
            parts.append(f'<a class="rule-link" href="#{match[0]}">{match[0]}</a>')
            last = match.end()
    parts.append(escapeHtml(content[last:]))
    return "".join(parts)


def _link_open(self: Any, tokens: list[Token], idx: int, options: Any, env: dict[str, Any]) -> str:
    """A link within the page stays; one to another file of docs/ is not served: its words stay."""
    href = str(tokens[idx].attrGet("href") or "")
    env.setdefault("links", []).append(href.startswith("#"))
    return self.renderToken(tokens, idx, options, env) if href.startswith("#") else ""


def _link_close(self: Any, tokens: list[Token], idx: int, options: Any, env: dict[str, Any]) -> str:
    return self.renderToken(tokens, idx, options, env) if env["links"].pop() else ""


def _paragraph_open(self: Any, tokens: list[Token], idx: int, options: Any, env: dict[str, Any]) -> str:
    if tokens[idx].attrGet("id"):
        env["rule"] = tokens[idx].attrGet("id")  # the rule a following table belongs to
    return self.renderToken(tokens, idx, options, env)


def _table_open(self: Any, tokens: list[Token], idx: int, options: Any, env: dict[str, Any]) -> str:
    """A table scrolls sideways on a phone; the scrolling region is named for keyboard users."""
    label = escapeHtml(_("Table of the rule %(rule)s") % {"rule": env["rule"]})
    opening = f'<div class="table-scroll" tabindex="0" role="region" aria-label="{label}">'
    return opening + self.renderToken(tokens, idx, options, env)


def _table_close(self: Any, tokens: list[Token], idx: int, options: Any, env: dict[str, Any]) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>\n"
