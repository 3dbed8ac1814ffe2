"""Replies as mail clients write them, in many languages: the corpus of the relay's tests (H-SCREEN).

`reply(style, language, width, words, original)` is the raw email a player sends when they write
`words` above (or below) the email `original` (an EmailMessage as sent to them) in the client
`style`, its header in `language`, the original re-wrapped at `width` columns where the client
re-wraps. The headers' words are each client's own in that language, as they write them; none of
these languages but English is known to the reply reading, so the relay stands alone between the
original and the rival in most of them.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from email.message import EmailMessage as MimeMessage

FROM = "AEGEAPOLIS <turns@aegeapolis.localhost>"


@dataclass(frozen=True)
class Language:
    from_: str
    sent: str
    to: str
    subject: str
    original: str  # Outlook's separator words
    forwarded: str  # a forward's separator words
    wrote: str  # an attribution, with {when} and {who}
    when: str  # a date and time as the client writes it
    phone: str  # a phone's signature
    colon: str = ": "  # after a header's label: Chinese clients write a full-width one


LANGUAGES = {
    "pl": Language("Od", "Wysłano", "Do", "Temat", "Oryginalna wiadomość", "Wiadomość przekazana dalej",
                   "W dniu {when} {who} napisał(a):", "poniedziałek, 30 listopada 2026 10:00",
                   "Wysłane z mojego telefonu"),
    "sv": Language("Från", "Skickat", "Till", "Ämne", "Ursprungligt meddelande", "Vidarebefordrat meddelande",
                   "Den {when} skrev {who}:", "den 30 november 2026 10:00", "Skickat från min telefon"),
    "pt": Language("De", "Enviado", "Para", "Assunto", "Mensagem original", "Mensagem encaminhada",
                   "Em {when}, {who} escreveu:", "seg., 30 de nov. de 2026 às 10:00",
                   "Enviado do meu telemóvel"),
    "cs": Language("Od", "Odesláno", "Komu", "Předmět", "Původní zpráva", "Přeposlaná zpráva",
                   "Dne {when} {who} napsal(a):", "po 30. 11. 2026 v 10:00", "Odesláno z mého telefonu"),
    "fi": Language("Lähettäjä", "Lähetetty", "Vastaanottaja", "Aihe", "Alkuperäinen viesti",
                   "Välitetty viesti", "{who} kirjoitti {when}:", "ma 30.11.2026 klo 10.00",
                   "Lähetetty puhelimestani"),
    "da": Language("Fra", "Sendt", "Til", "Emne", "Oprindelig meddelelse", "Videresendt meddelelse",
                   "Den {when} skrev {who}:", "man. 30. nov. 2026 kl. 10:00", "Sendt fra min telefon"),
    "hu": Language("Feladó", "Elküldve", "Címzett", "Tárgy", "Eredeti üzenet", "Továbbított üzenet",
                   "{who} ezt írta ({when}):", "2026. nov. 30., H 10:00", "Elküldve a telefonomról"),
    "tr": Language("Kimden", "Gönderildi", "Kime", "Konu", "Özgün ileti", "İletilen ileti",
                   "{who}, {when} tarihinde şunu yazdı:", "30 Kas 2026 Pzt 10:00",
                   "Telefonumdan gönderildi"),
    "el": Language("Από", "Στάλθηκε", "Προς", "Θέμα", "Αρχικό μήνυμα", "Προωθημένο μήνυμα",
                   "Στις {when}, ο/η {who} έγραψε:", "Δευ 30 Νοε 2026 στις 10:00",
                   "Στάλθηκε από το τηλέφωνό μου"),
    "ru": Language("От", "Отправлено", "Кому", "Тема", "Исходное сообщение", "Пересылаемое сообщение",
                   "{when}, {who} написал(а):", "пн, 30 нояб. 2026 г. в 10:00",
                   "Отправлено с моего телефона"),
    "ja": Language("差出人", "送信日時", "宛先", "件名", "元のメッセージ", "転送メッセージ",
                   "{when} {who} のメッセージ:", "2026年11月30日(月) 10:00", "iPhoneから送信"),
    "ro": Language("De la", "Trimis", "Către", "Subiect", "Mesaj original", "Mesaj redirecționat",
                   "Pe {when}, {who} a scris:", "lun., 30 nov. 2026 la 10:00", "Trimis de pe telefonul meu"),
    "zh": Language("发件人", "发送时间", "收件人", "主题", "原始邮件", "转发的邮件", "{who} 于 {when} 写道：",
                   "2026年11月30日 周一 10:00", "发自我的手机", colon="："),
    # Right-to-left: the labels begin with a right-to-left mark, as clients write them.
    "ar": Language("\u200fمن", "\u200fتاريخ الإرسال", "\u200fإلى", "\u200fالموضوع", "الرسالة الأصلية",
                   "رسالة محوّلة", "في {when}، كتب {who}:", "الاثنين، 30 نوفمبر 2026 10:00", "أُرسلت من هاتفي"),
    "ko": Language("보낸 사람", "보낸 날짜", "받는 사람", "제목", "원본 메시지", "전달된 메시지",
                   "{when}, {who}님이 작성:", "2026년 11월 30일 (월) 오전 10:00", "내 휴대폰에서 보냄"),
}  # fmt: skip
# What a player writes, in their own language: nothing of it is in any email the game sends.
WORDS = {
    "pl": "Zgoda, zostaję poza D3.",
    "sv": "Okej, jag håller mig borta från D3.",
    "pt": "Combinado, fico fora de D3.",
    "cs": "Platí, do D3 nepůjdu.",
    "fi": "Sovittu, pysyn poissa D3:sta.",
    "da": "Aftale, jeg holder mig ude af D3.",
    "hu": "Rendben, kimaradok a D3-ból.",
    "tr": "Anlaştık, D3'ten uzak duruyorum.",
    "el": "Συμφωνώ, μένω έξω από το D3.",
    "ru": "Договорились, я не иду в D3.",
    "ja": "了解、D3には行きません。",
    "ro": "De acord, stau departe de D3.",
    "zh": "好的，我不去D3。",
    "ar": "موافق، لن أدخل D3.",
    "ko": "좋아요, D3에는 가지 않을게요.",
}
WIDTHS = (60, 72, 76)


def wrapped(text: str, width: int) -> str:
    """The text as a client re-wraps it: each line filled at `width`, long words (links) unbroken."""
    lines = []
    for line in text.splitlines():
        filled = textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)
        lines += filled or [""]
    return "\n".join(lines)


def quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines())


def header_block(lang: Language, subject: str, name: str, with_addresses: bool = True) -> str:
    who = FROM if with_addresses else "AEGEAPOLIS"
    to = f"{name} <{name.lower()}@example.com>" if with_addresses else name
    c = lang.colon
    return f"{lang.from_}{c}{who}\n{lang.sent}{c}{lang.when}\n{lang.to}{c}{to}\n{lang.subject}{c}{subject}"


def _outlook_separator(w, lang, subject, plain, quote, name):
    return f"{w}\n\n-----{lang.original}-----\n{header_block(lang, subject, name)}\n\n{plain}"


def _outlook_line(w, lang, subject, plain, quote, name):
    return f"{w}\n\n{'_' * 32}\n{header_block(lang, subject, name)}\n\n{plain}"


def _outlook_no_addresses(w, lang, subject, plain, quote, name):
    return f"{w}\n\n{header_block(lang, subject, name, with_addresses=False)}\n\n{plain}"


def _webmail_attribution_unquoted(w, lang, subject, plain, quote, name):
    return f"{w}\n\n{lang.wrote.format(when=lang.when, who=FROM)}\n\n{plain}"


def _webmail_attribution_wrapped(w, lang, subject, plain, quote, name):
    attribution = wrapped(lang.wrote.format(when=lang.when, who=FROM), 40)
    return f"{w}\n\n{attribution}\n\n{plain}"


def _gmail_quoted(w, lang, subject, plain, quote, name):
    return f"{w}\n\n{lang.wrote.format(when=lang.when, who=FROM)}\n\n{quote}"


def _bottom_post(w, lang, subject, plain, quote, name):
    return f"{lang.wrote.format(when=lang.when, who=FROM)}\n{quote}\n\n{w}\n"


def _forward(w, lang, subject, plain, quote, name):
    return f"{w}\n\n---------- {lang.forwarded} ---------\n{header_block(lang, subject, name)}\n\n{plain}"


def _phone_signature(w, lang, subject, plain, quote, name):
    return f"{w}\n\n{lang.phone}\n\n{header_block(lang, subject, name)}\n\n{plain}"


def _no_header(w, lang, subject, plain, quote, name):
    return f"{w}\n\n{plain}"


def _same_paragraph(w, lang, subject, plain, quote, name):
    return f"{w}\n{header_block(lang, subject, name)}\n{plain}"


def _signed_name(w, lang, subject, plain, quote, name):
    return f"{w}\n{name}\n\n-----{lang.original}-----\n{header_block(lang, subject, name)}\n{plain}"


TEXT_STYLES = {
    "outlook_separator": _outlook_separator,
    "outlook_line": _outlook_line,
    "outlook_no_addresses": _outlook_no_addresses,
    "webmail_attribution_unquoted": _webmail_attribution_unquoted,
    "webmail_attribution_wrapped": _webmail_attribution_wrapped,
    "gmail_quoted_rewrapped": _gmail_quoted,
    "bottom_post": _bottom_post,
    "forward": _forward,
    "phone_signature": _phone_signature,
    "no_header": _no_header,
    "header_in_same_paragraph": _same_paragraph,
    "signed_then_separator": _signed_name,
}
HTML_STYLES = ("html_only_outlook", "html_only_blockquote")
STYLES = (*TEXT_STYLES, *HTML_STYLES)


def reply(
    style: str, language: str, width: int, words: str, original, address: str, name: str, email: str
) -> bytes:
    """The raw reply of `name` <`email`> to `original` (the EmailMessage the seat was sent; `address`:
    its Reply-To)."""
    lang = LANGUAGES[language]
    message = MimeMessage()
    message["From"] = f"{name} <{email}>"
    message["To"] = address
    message["Subject"] = f"Re: {original.subject}"
    message["Message-ID"] = f"<{style}-{language}-{width}@client.example>"
    if style in HTML_STYLES:
        message.set_content(_html_reply(style, lang, words, original), subtype="html")
    else:
        plain = wrapped(original.body, width)
        text = TEXT_STYLES[style](words, lang, original.subject, plain, quoted(plain), name)
        message.set_content(text)
    return message.as_bytes()


def _html_reply(style: str, lang: Language, words: str, original) -> str:
    (html, _mime), *_ = original.alternatives
    body = html.split("<body", 1)[-1].split(">", 1)[-1].rsplit("</body>", 1)[0]
    labelled = header_block(lang, original.subject, "Ben").replace("<", "&lt;").replace(">", "&gt;")
    header = "<br>".join(
        "<b>{}{}</b>{}".format(*line.partition(lang.colon.strip())) for line in labelled.splitlines()
    )
    if style == "html_only_blockquote":
        attribution = lang.wrote.format(when=lang.when, who="AEGEAPOLIS")
        quote = f"<div>{attribution}</div><blockquote>{body}</blockquote>"
        return f"<html><body><div>{words}</div><br>{quote}</body></html>"
    outlook = f'<div id="appendonsend"></div><hr><div id="divRplyFwdMsg">{header}</div>'
    return f"<html><body><div>{words}</div>{outlook}<div>{body}</div></body></html>"
