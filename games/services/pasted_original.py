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
from collections.abc import Iterable
from dataclasses import dataclass

RUN = 5  # consecutive words shared with a mailed email: the pasted original has begun
SHORTEST_SECRET = 3  # a secret line of fewer words ("Mission Cards:") is too common to cut on
WORD = re.compile(r"\w+")
EMAIL_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# A client's separator: "-----Oryginalna wiadomość-----", "__________", "-------- Původní zpráva --------".
SEPARATOR = re.compile(r"^\W*(?:[-_=*]{3,}.*[-_=*]{3,}|[-_=*]{5,})\W*$")
# A header line: a label of one to three words, then a colon and a value ("Wysłano: …", "Enviado el: …").
HEADER = re.compile(r"^[^\W\d_][\w.'’ -]{0,30}?\s?[:：](?:\s|$)")
# A date or time in a header or an attribution: "2026", "10:00", "30.11.26".
WHEN = re.compile(r"\b(?:19|20)\d\d\b|\b\d{1,2}[:.]\d\d\b")
ATTRIBUTION_LINES = 4  # an attribution ("Em qua., 30 de nov. de 2026 … escreveu:") wrapped in up to four


@dataclass(frozen=True)
class Written:
    """A reply's own words (`text`), and whether a pasted original was cut from below them."""

    text: str
    cut: bool


def words(text: str) -> list[str]:
    """The text's words, normalised: case folded, compatibility forms unified, punctuation dropped."""
    return [_normal(m.group()) for m in WORD.finditer(text)]


def word_runs(texts: Iterable[str], run: int = RUN) -> set[tuple[str, ...]]:
    """Every run of `run` consecutive normalised words in any of `texts`."""
    runs = set()
    for text in texts:
        found = words(text)
        runs.update(tuple(found[i : i + run]) for i in range(len(found) - run + 1))
    return runs


def writers_words(
    text: str, mailed_runs: set[tuple[str, ...]], secret_lines: Iterable[str], run: int = RUN
) -> Written:
    """H-SCREEN: `text` up to the pasted original (see the module docstring): before the first run of
    `run` words in `mailed_runs` and the first of `secret_lines`, less the client's header above it
    (or at its end, above an original quoted with "> ", which the reply reading left out)."""
    spans = [(_normal(m.group()), m.start()) for m in WORD.finditer(text)]
    found = [word for word, _ in spans]
    start = _first_run(found, mailed_runs, run)
    for secret in filter(lambda s: len(s) >= SHORTEST_SECRET, (words(line) for line in secret_lines)):
        at = _first_sequence(found, secret)
        if at is not None and (start is None or at < start):
            start = at
    lines = text[: spans[start][1] if start is not None else len(text)].split("\n")
    if start is not None and not WORD.search(lines[-1]):  # what the cut line held before it: quote marks
        lines.pop()
    # The client's header stays when the original below it was quoted and so not read as words.
    kept = "\n".join(_without_client_header(lines)).strip()
    return Written(kept, cut=start is not None or kept != text.strip())


def _normal(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold()


def _first_run(found: list[str], runs: set[tuple[str, ...]], run: int) -> int | None:
    return next((i for i in range(len(found) - run + 1) if tuple(found[i : i + run]) in runs), None)


def _first_sequence(found: list[str], sequence: list[str]) -> int | None:
    n = len(sequence)
    return next((i for i in range(len(found) - n + 1) if found[i : i + n] == sequence), None)


def _without_client_header(lines: list[str]) -> list[str]:
    """`lines` less the client's header at their end: its separator, its "From:/Sent:/To:/Subject:"
    block in any language, or its attribution line (wrapped too), told by an address, a date or a
    separator; blank lines between such blocks go too. A writer's own last line is kept."""
    while True:
        while lines and not lines[-1].strip():
            lines.pop()
        start = _header_start(lines)
        if start is None:
            return lines
        del lines[start:]


def _header_start(lines: list[str]) -> int | None:
    """Where a client's header block or attribution ends `lines`, if one does."""
    found = [start for start in (_header_block(lines), _attribution(lines)) if start is not None]
    return min(found, default=None)


def _header_block(lines: list[str]) -> int | None:
    """The earliest line from which every line is a separator, a header or holds an address, with an
    address, a date or a separator among them, and which starts after a blank line, with a separator
    or with an address ("From: AEGEAPOLIS <…>"): a writer's "Deal: …" just above it is theirs."""
    start = None
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i].strip(" >\t")
        if not line or not (SEPARATOR.match(line) or HEADER.match(line) or EMAIL_ADDRESS.search(line)):
            break
        block = [part.strip(" >\t") for part in lines[i:]]
        begins = (i > 0 and not lines[i - 1].strip()) or SEPARATOR.match(line) or EMAIL_ADDRESS.search(line)
        if begins and any(SEPARATOR.match(p) or EMAIL_ADDRESS.search(p) or WHEN.search(p) for p in block):
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
