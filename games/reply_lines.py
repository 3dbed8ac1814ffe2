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


def read_reply(text: str | None, html: str | None = None) -> list[str]:
    """The reply's own lines, up to the quoted part: quoted lines ("> ...") and blank lines skipped."""
    body = text if text and text.strip() else _html_text(html or "")
    lines = []
    for raw in body.replace("\r\n", "\n").split("\n"):
        raw = CONTROL.sub("", raw)  # no NUL or other control characters reach the database or a reply
        line = raw.strip()
        if QUOTE_START.match(line) or (raw.startswith("-- ") and not raw.strip("- ")):
            break
        if line.startswith(">") or not line:
            continue
        lines.append(line)
    return lines


def _html_text(html: str) -> str:
    """An HTML-only reply as lines: quoted blocks dropped, paragraphs and breaks as new lines."""
    html = re.sub(r"(?is)<blockquote.*?</blockquote>", "\n", html)
    html = re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", html)
    return strip_tags(html)
