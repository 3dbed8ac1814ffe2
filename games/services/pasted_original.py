"""Where the writer's own words end in a reply: the net under the reply reading (H-SCREEN).

A mail client may paste the email being answered below the writer's words unquoted, re-wrapped at
its own width and under a header in a language no reader knows ("-----Oryginalna wiadomość-----",
"Från: … Skickat: …", "Em qua., … escreveu:"). Lines then no longer match the email sent, but its
words, in the same order, still do. So a reply is compared with what its seat was mailed on
normalised words (case, punctuation, whitespace and line breaks ignored): everything from the first
run of RUN consecutive words that any of those emails holds, or from the first of the seat's own
secret lines, on is the pasted original; the client's header just above it (its addresses, dates and
labels) goes with it. Pure text: games/services/relay.py gathers the emails and the secret lines.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import unescape

from django.utils.html import strip_tags

RUN = 5  # consecutive words shared with a mailed email: the pasted original has begun
SHOWN_WORDS = 8  # of what was left out, the writer is shown its start
WORD = re.compile(r"\w+")
EMAIL_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# A client's separator: "-----Oryginalna wiadomość-----", "__________", "-------- Původní zpráva --------".
SEPARATOR = re.compile(r"^\W*(?:[-_=*]{3,}.*[-_=*]{3,}|[-_=*]{5,})\W*$")
# A header line: a label of one to three words, then a colon and a value ("Wysłano: …", "Enviado el: …").
HEADER = re.compile(r"^[^\W\d_][\w.'’ -]{0,30}?\s?(?::(?:\s|$)|：)")
# A date or time in a header or an attribution: "2026", "10:00", "30.11.26".
WHEN = re.compile(r"\b(?:19|20)\d\d\b|\b\d{1,2}[:.]\d\d\b")
ATTRIBUTION_LINES = 4  # an attribution ("Em qua., 30 de nov. de 2026 … escreveu:") wrapped in up to four


@dataclass(frozen=True)
class Written:
    """A reply's own words (`text`); `left_out`: the start of the pasted original cut from below
    them (its first SHOWN_WORDS words), "" when nothing was."""

    text: str
    left_out: str = ""


def html_as_text(html: str) -> str:
    """An HTML part as lines of text: quoted blocks as one "> " line (a player's words, or the quoted
    original), paragraphs and breaks as new lines, entities as the characters they stand for."""
    html = re.sub(r"(?is)<blockquote.*?</blockquote>", "\n> \n", html)
    html = re.sub(r"(?i)<br\s*/?>|</p>|</div>|</tr>|</li>|<hr\b[^>]*>", "\n", html)
    return unescape(strip_tags(html))


def words(text: str) -> list[str]:
    """The text's words, normalised: case folded, compatibility forms unified, punctuation dropped."""
    return [_normal(m.group()) for m in WORD.finditer(text)]


def word_runs(texts: Iterable[str], gaps: Sequence[str] = (), run: int = RUN) -> set[tuple[str, ...]]:
    """Every run of `run` consecutive normalised words in any of `texts`, none across a "> " quote
    line nor across any of `gaps` where a text holds it whole (a player's message as an email
    narrates it: players' words, which a writer may repeat, are no secret of the seat's)."""
    holes = [hole for hole in (words(gap) for gap in gaps) if hole]
    runs = set()
    for text in texts:
        for part in _unquoted_parts(text):
            for found in _split_at(words(part), holes):
                runs.update(tuple(found[i : i + run]) for i in range(len(found) - run + 1))
    return runs


def writers_words(
    text: str, mailed_runs: set[tuple[str, ...]], secret_lines: Iterable[str], run: int = RUN
) -> Written:
    """H-SCREEN: `text` up to the pasted original (see the module docstring): before the first run of
    `run` words in `mailed_runs` and the first of `secret_lines`, less the client's header above it."""
    spans = [(_normal(m.group()), m.start()) for m in WORD.finditer(text)]
    found = [word for word, _ in spans]
    starts = [_first_run(found, mailed_runs, run)]
    starts += [_first_sequence(found, words(line)) for line in secret_lines]
    start = min((at for at in starts if at is not None), default=None)
    if start is None:
        return Written(text.strip())
    lines = text[: spans[start][1]].split("\n")
    if not WORD.search(lines[-1]):  # what the cut line held before the original: quote marks
        lines.pop()
    kept = "\n".join(_without_client_header(lines))  # a prefix of `text`, so the rest was left out
    return Written(kept.strip(), " ".join(text[len(kept) :].split()[:SHOWN_WORDS]))


def _normal(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold()


def _unquoted_parts(text: str) -> list[str]:
    """The text split at its "> " lines, which quote a player's words."""
    parts, part = [], []
    for line in text.splitlines():
        if line.lstrip().startswith(">"):
            parts.append("\n".join(part))
            part = []
        else:
            part.append(line)
    return [*parts, "\n".join(part)]


def _split_at(found: list[str], holes: list[list[str]]) -> list[list[str]]:
    """`found` cut into the stretches between whole occurrences of any of `holes`."""
    by_first: dict[str, list[list[str]]] = {}
    for hole in holes:  # a long game tells hundreds of messages: look only at those starting here
        by_first.setdefault(hole[0], []).append(hole)
    pieces, i, begin = [], 0, 0
    while i < len(found):
        hole = next((h for h in by_first.get(found[i], ()) if found[i : i + len(h)] == h), None)
        if hole is None:
            i += 1
            continue
        pieces.append(found[begin:i])
        i = begin = i + len(hole)
    return [*pieces, found[begin:]]


def _bare(line: str) -> str:
    """A line without its quote marks, spaces and invisible format characters (a right-to-left
    mark before "من:", a zero-width space), as a header's shape is judged."""
    return "".join(c for c in line if unicodedata.category(c) != "Cf").strip(" >\t\u00a0")


def _first_run(found: list[str], runs: set[tuple[str, ...]], run: int) -> int | None:
    return next((i for i in range(len(found) - run + 1) if tuple(found[i : i + run]) in runs), None)


def _first_sequence(found: list[str], sequence: list[str]) -> int | None:
    n = len(sequence)
    if not n:
        return None
    return next((i for i in range(len(found) - n + 1) if found[i : i + n] == sequence), None)


def _without_client_header(lines: list[str]) -> list[str]:
    """`lines` less the client's header at their end: its separator, its "From:/Sent:/To:/Subject:"
    block in any language, or its attribution line (wrapped too); blank lines between such blocks go
    too. A writer's own last line is kept unless it has a header's shape."""
    while True:
        while lines and not lines[-1].strip():
            lines.pop()
        found = [start for start in (_header_block(lines), _attribution(lines)) if start is not None]
        if not found:
            return lines
        del lines[min(found) :]


def _header_block(lines: list[str]) -> int | None:
    """The earliest line of a header block ending `lines`: "label: value" lines (an address wrapped
    onto a line of its own among them), two at least and with an address or a date among them, or a
    separator; it starts after a blank line, with a separator or with a header naming an address
    ("From: AEGEAPOLIS <…>"), so that a writer's "Deal: …" just above it stays theirs."""
    start = None
    for i in range(len(lines) - 1, -1, -1):
        line = _bare(lines[i])
        headers = [p for p in map(_bare, lines[i:]) if HEADER.match(p)]
        if not line or not (
            SEPARATOR.match(line) or HEADER.match(line) or EMAIL_ADDRESS.fullmatch(line.strip("<>"))
        ):
            break
        begins = (
            (i > 0 and not lines[i - 1].strip())
            or SEPARATOR.match(line)
            or (HEADER.match(line) and EMAIL_ADDRESS.search(line))
        )
        block = "\n".join(lines[i:])
        named = len(headers) >= 2 and (EMAIL_ADDRESS.search(block) or WHEN.search(block))
        if begins and (SEPARATOR.match(line) or named):
            start = i
    return start


def _attribution(lines: list[str]) -> int | None:
    """An attribution ending `lines`: up to ATTRIBUTION_LINES lines ending in a colon, whose first
    names a date or an address ("Em qua., 30 de nov. de 2026 às 10:00, AEGEAPOLIS <…> escreveu:")."""
    if not lines or not lines[-1].rstrip().endswith((":", "：")):
        return None
    for i in range(max(len(lines) - ATTRIBUTION_LINES, 0), len(lines)):
        named = EMAIL_ADDRESS.search(lines[i]) or WHEN.search(lines[i])
        if not named or not all(line.strip() for line in lines[i:]):
            continue
        # Wrapped, the attribution starts after a blank line; alone on its line it may follow the words.
        if i == 0 or not lines[i - 1].strip() or i == len(lines) - 1:
            return i
    return None
