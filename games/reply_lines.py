"""Finding the player's own lines in an email reply (issue 6, docs/email-orders.md).

`read_reply(text, html)` keeps the lines the player wrote: quoted lines ("> ...") and blank
lines are skipped, and everything from an attribution ("On ... wrote:", "Am ... schrieb ...:"),
a signature ("-- ") or a forwarded/original-message block on is ignored. What those lines say is
games/order_syntax.py's concern; this module knows nothing of orders.
"""

from __future__ import annotations

import re

from django.utils.html import strip_tags

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")
QUOTE_START = re.compile(
    r"^(on .+ wrote:?|am .+ schrieb .+:?|-+ ?original message ?-+|-+ ?urspr(ue|ü)ngliche nachricht ?-+|"
    r"_{5,}|from: .+|von: .+|-- ?)$",
    re.IGNORECASE,
)
# A phone's signature below the reply: "Sent from my iPhone", "Von meinem iPhone gesendet", "Get Outlook
# for iOS", "Gesendet von Outlook für Android": the end of the player's own words, like "-- ".
PHONE_SIGNATURE = re.compile(
    r"^(sent from my .+|von meinem .+ gesendet|get outlook for .+|gesendet von .+|outlook für .+ beziehen)$",
    re.IGNORECASE,
)
# Gmail and Apple Mail wrap a long attribution: "On 30 Nov 2026, at 10:00, AEGEAPOLIS <" and then
# "orders+…@play.example.com> wrote:" on the next line.
WRAPPED_ATTRIBUTION = re.compile(r"^on .+", re.IGNORECASE)
ATTRIBUTION_END = re.compile(r"wrote:?$", re.IGNORECASE)


def read_reply(text: str | None, html: str | None = None) -> list[str]:
    """The reply's own lines, up to the quoted part: quoted lines ("> ...") and blank lines skipped."""
    body = text if text and text.strip() else _html_text(html or "")
    lines = []
    raws = body.replace("\r\n", "\n").split("\n")
    for i, raw in enumerate(raws):
        raw = CONTROL.sub("", raw)  # no NUL or other control characters reach the database or a reply
        line = raw.strip()
        if QUOTE_START.match(line) or (raw.startswith("-- ") and not raw.strip("- ")):
            break
        if PHONE_SIGNATURE.match(line) or _wrapped_attribution(line, raws[i + 1 :]):
            break
        if line.startswith(">") or not line:
            continue
        lines.append(line)
    return lines


def _wrapped_attribution(line: str, rest: list[str]) -> bool:
    """ "On …" whose next non-blank line ends with "wrote:": an attribution wrapped in two."""
    if not WRAPPED_ATTRIBUTION.match(line):
        return False
    following = next((r.strip() for r in rest if r.strip()), "")
    return bool(ATTRIBUTION_END.search(following)) and not following.startswith(">")


def _html_text(html: str) -> str:
    """An HTML-only reply as lines: quoted blocks dropped, paragraphs and breaks as new lines."""
    html = re.sub(r"(?is)<blockquote.*?</blockquote>", "\n", html)
    html = re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", html)
    return strip_tags(html)
