"""Finding the player's own lines in an email reply (docs/email-orders.md).

`read_reply(text, html)` keeps the lines the player wrote: quoted lines ("> ...") are skipped, blank
lines kept only as one "" between paragraphs, and everything from an attribution ("On ... wrote:",
"Am ... schrieb ...:"), a signature ("-- ") or a forwarded/original-message block on is ignored.
What those lines say is games/services/inbox/order_syntax.py's concern; this module knows nothing
of orders.
"""

from __future__ import annotations

import re

from mailparser_reply import EmailReplyParser

from games.services.pasted_original import EMAIL_ADDRESS, SEPARATOR, WHEN, html_as_text

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")
# The start of the quoted original, in the clients' words in English, German, French, Spanish,
# Italian and Dutch: a separator ("-----Original Message-----", "-----Message d'origine-----",
# "-----Mensaje original-----", "-----Messaggio originale-----", "-----Oorspronkelijk bericht-----",
# forwarded ones alike), Outlook's header block ("From:", "Von:", "De :", "Da:", "Van:"), or a
# signature ("-- ").
SEPARATOR_WORDS = (
    r"original message|urspr(?:ue|ü)ngliche nachricht|message d'origine|message original|mensaje original|"
    r"messaggio originale|oorspronkelijk bericht|origineel bericht|forwarded message|"
    r"weitergeleitete nachricht|message transf[ée]r[ée]|mensaje reenviado|messaggio inoltrato|"
    r"doorgestuurd bericht"
)
QUOTE_START = re.compile(
    rf"^(-* ?(?:{SEPARATOR_WORDS}) ?-*|_{{5,}}|-{{5,}}|(?:from|von|de|da|van|sent|gesendet|envoy[ée]|enviado|"
    rf"inviato|verzonden|date|datum|to|an|[àa]|para|a|aan|subject|betreff|objet|asunto|oggetto|"
    rf"onderwerp) ?:.*|-- ?)$",
    re.IGNORECASE,
)
# An attribution line: "On … wrote:", "Am … schrieb …:", "Le … a écrit :", "El … escribió:",
# "Il … ha scritto:", "Op … schreef …:", and Apple Mail's "… a écrit :" alone.
ATTRIBUTION = re.compile(
    r"^(?:on|am|le|el|il|op)\b.*(?:wrote|schrieb|a [ée]crit|escribi[óo]|ha scritto|schreef)\b.*:?$|"
    r".*(?:wrote|schrieb|a [ée]crit|escribi[óo]|ha scritto|schreef) ?:$",
    re.IGNORECASE,
)
# A phone's signature below the reply: "Sent from my iPhone", "Von meinem iPhone gesendet", "Get Outlook
# for iOS", "Gesendet von Outlook für Android", "Envoyé de mon iPhone", "Enviado desde mi iPhone",
# "Inviato da iPhone", "Verzonden vanaf mijn iPhone": the end of the player's own words, like "-- ".
PHONE_SIGNATURE = re.compile(
    r"^(sent from my .+|von meinem .+ gesendet|get outlook for .+|gesendet von .+|outlook für .+ beziehen|"
    r"envoy[ée] de mon .+|enviado desde mi .+|inviato da .+|verzonden (?:vanaf|met) .+)$",
    re.IGNORECASE,
)
# Gmail and Apple Mail wrap a long attribution: "On 30 Nov 2026, at 10:00, AEGEAPOLIS <" and then
# "orders+…@play.example.com> wrote:" on the next line (in each of the languages above).
WRAPPED_ATTRIBUTION = re.compile(r"^(?:on|am|le|el|il|op)\b.+", re.IGNORECASE)
ATTRIBUTION_END = re.compile(
    r"(?:wrote|schrieb|a [ée]crit|escribi[óo]|ha scritto|schreef) ?:?$", re.IGNORECASE
)
LIBRARY_LANGUAGES = ["en", "de", "fr", "es", "it", "nl"]


def read_reply(text: str | None, html: str | None = None) -> list[str]:
    """The reply's own lines, up to the quoted part: quoted lines ("> ...") skipped, and blank lines
    but one "" between two paragraphs; the first and the last line are never blank."""
    body = text if text and text.strip() else html_as_text(html or "")
    # mail-parser-reply knows more clients' attributions than the rules below; whatever it leaves,
    # the rules still cut (they know the separators and header blocks it misses, measured on
    # tests/fixtures/replies: docs/email-orders.md).
    body = EmailReplyParser(languages=LIBRARY_LANGUAGES).parse_reply(text=body) or body
    lines = []
    raws = body.replace("\r\n", "\n").split("\n")
    for i, raw in enumerate(raws):
        raw = CONTROL.sub("", raw)  # no NUL or other control characters reach the database or a reply
        line = raw.strip()
        starts_quote = (
            QUOTE_START.match(line)
            or ATTRIBUTION.match(line)
            or _wrapped_attribution(line, raws[i + 1 :])
            or _any_attribution(line, raws[i + 1 :])
        )
        if starts_quote and not any(lines) and _quoted_next(raws[i + 1 :]):
            continue  # a bottom-posted reply: the attribution of the quote above the writer's words
        if starts_quote or (raw.startswith("-- ") and not raw.strip("- ")) or PHONE_SIGNATURE.match(line):
            break
        if line.startswith(">") or not line:
            # A paragraph's end, kept as one blank line between the writer's lines: a client's header
            # above a pasted original starts after one (games/services/pasted_original.py).
            if lines and lines[-1]:
                lines.append("")
            continue
        lines.append(line)
    # A separator in a language the rules do not know, just above the header block they cut at.
    while lines and (not lines[-1] or SEPARATOR.match(lines[-1])):
        lines.pop()
    return lines


def _any_attribution(line: str, rest: list[str]) -> bool:
    """An attribution in any language: a line ending in a colon that names an address or a date and
    time, above a quote ("W dniu 30.11.2026 10:00 AEGEAPOLIS <…> napisał(a):", "> …")."""
    named = EMAIL_ADDRESS.search(line) or WHEN.search(line)
    return line.endswith((":", "：")) and bool(named) and _quoted_next(rest)


def _quoted_next(rest: list[str]) -> bool:
    """The next non-blank line, past a wrapped attribution's second line, is quoted ("> ...")."""
    following = [r.strip() for r in rest if r.strip()]
    if following and not following[0].startswith(">") and ATTRIBUTION_END.search(following[0]):
        following = following[1:]
    return bool(following) and following[0].startswith(">")


def _wrapped_attribution(line: str, rest: list[str]) -> bool:
    """ "On …" whose next non-blank line ends with "wrote:": an attribution wrapped in two."""
    if not WRAPPED_ATTRIBUTION.match(line):
        return False
    following = next((r.strip() for r in rest if r.strip()), "")
    return bool(ATTRIBUTION_END.search(following)) and not following.startswith(">")
