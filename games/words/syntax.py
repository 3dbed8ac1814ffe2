"""The words of the order syntax of email replies (games/services/inbox/order_syntax.py,
docs/email-orders.md): the keywords in English and German, the other words they fold to, the filler people
write around an order, and reading one word, a number or a space. The parsers of the orders (order_syntax,
card_syntax, trade_syntax) build on these; this module parses no order. The turn emails name a player's winter
cards in these words too (winter_hand_words), so that a reply can quote them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from django.utils import translation
from django.utils.translation import gettext as _

from games.engine.data import MISSION_CARDS
from games.words.trade import card_name


class OrderSyntaxError(ValueError):
    """A line that is not an order; `message` is fit to show the player (with the syntax help)."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


KEYWORDS = {
    "pass": "pass", "passen": "pass", "passe": "pass",
    "expand": "expand", "ausbreiten": "expand", "expandieren": "expand",
    "move": "move", "bewegen": "move", "bewegung": "move",
    "recruit": "recruit", "rekrutieren": "recruit",
    "fortify": "fortify", "befestigen": "fortify",
    "commit": "commit_coins", "einsetzen": "commit_coins",
    "keep": "keep", "behalten": "keep", "behalte": "keep",
    "neither": "neither", "keine": "neither",
    "second": "second_tile", "zweites": "second_tile", "zweite": "second_tile",  # H-CHOICE-STEP
    "accept": "accept_offer", "annehmen": "accept_offer",
    "decline": "decline_offer", "ablehnen": "decline_offer",
    "offer": "offer_trade", "anbieten": "offer_trade", "angebot": "offer_trade",
    "reform": "reform", "reformieren": "reform",
    "oracle": "oracle", "orakel": "oracle",
    "trade": "neutral_trade", "handeln": "neutral_trade", "handel": "neutral_trade",
    "builder": "recruit_builder", "baumeister": "recruit_builder",
    "message": "message", "nachricht": "message",
}  # fmt: skip
WORDS = {
    "deck": "deck", "stapel": "deck", "polisstapel": "deck",
    "discard": "discard", "ablage": "discard", "ablagestapel": "discard",
    "choice": "choice", "auswahl": "choice",
    "later": "later", "spaeter": "later",  # H-CHOICE-STEP: "choice later", "Auswahl später"
    "link": "link", "handelsstrasse": "link",
    "blanks": "blanks", "blank": "blanks", "blanko": "blanks", "blankos": "blanks",
    "leermuenze": "blanks", "leermuenzen": "blanks",  # the German emails' word for a Blank
    "king": "king", "koenig": "king",
    "navigators": "navigators", "navigator": "navigators", "navigatoren": "navigators",
    "builders": "builders", "baumeister": "builders",
    "battle": "battle", "kampf": "battle",
    "card": "card", "karte": "card",
    "all": "all", "alle": "all",
    "eule": "owl", "schildkroete": "turtle", "schild": "shield",
    # H-BAG: the plurals the emails write ("2 owls", "2 Eulen"), as a player copies them into a reply
    "owls": "owl", "turtles": "turtle", "shields": "shield", "pegasi": "pegasus",
    "eulen": "owl", "schildkroeten": "turtle", "schilde": "shield",
    "athen": "athens", "korinth": "corinth", "theben": "thebes",
    "tyrannis": "tyranny", "oligarchie": "oligarchy", "demokratie": "democracy",
}  # fmt: skip
SPACE = re.compile(r"^[a-i][1-9]$")
# Words a person writes around an order that name nothing ("move C3 to D4 3 phalanxes", "bewegen
# C3 nach D4 3 mit König", "accept offer no. 1", "reform to democracy", "pass, thanks", "Orakel
# befragen: Eule" as the German page names the Oracle): skipped.
FILLER = frozenset(
    {
        "to", "from", "in", "at", "and", "with", "the", "a", "offer", "no", "nr", "number",
        "phalanx", "phalanxes", "please", "thanks", "thank", "you", "hire", "recruit",
        "nach", "von", "vom", "aus", "auf", "und", "mit", "zu", "zur", "zum",
        "den", "dem", "der", "die", "das", "ein",
        "eine", "angebot", "nummer", "phalangen", "bitte", "danke", "anwerben", "rekrutieren", "befragen",
    }
)  # fmt: skip
PRONOUNS = ("i", "ich")  # "Ich passe", "I pass"


def fold(text: str) -> str:
    """Lower case, German umlauts as ae/oe/ue, ß as ss: "Schildkröte" -> "schildkroete"."""
    text = text.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    return unicodedata.normalize("NFKC", text)


STRIPPED = ",.;:!?#"  # "Pass!", "accept #1", "Reform: democracy"


def known_word(word: str) -> str:
    """A word as the parsers compare it: folded, its punctuation stripped, a German or other
    spelling as the one word it stands for ("Eule" -> "owl", "Blanko" -> "blanks")."""
    folded = fold(word).strip(STRIPPED)
    return WORDS.get(folded, folded)


MAX_DIGITS = 100  # far beyond any count in the game; int() refuses over 4300 digits with a ValueError


def is_number(word: str) -> bool:
    """A whole number int() reads: decimal digits (isdigit() also takes "፩", which int() refuses), and
    not thousands of them. A crash here left a reply failing until it was given up, unanswered."""
    return word.isdecimal() and len(word) <= MAX_DIGITS


def number_at(args: list[str], i: int) -> int:
    """The number at `args[i]` (the word before it names what is missing when it is not one)."""
    if i >= len(args) or not is_number(args[i]):
        raise OrderSyntaxError(_("A number is missing after %(word)s.") % {"word": args[i - 1] if i else ""})
    return int(args[i])


def space_at(args: list[str], i: int) -> str:
    """The board space at `args[i]`, as the engine names it ("d4" -> "D4")."""
    if i >= len(args) or not SPACE.match(args[i]):
        raise OrderSyntaxError(_("A space (A1 to I9) is missing or wrong."))
    return args[i].upper()


# The words each card is named by in the answers' list of the player's winter cards (English, German).
CARD_WORDS = {
    "combo": ("combo", "kombo"), "flush": ("flush", "flush"),
    "monopoly-ap": ("monopoly ap", "monopol ap"), "monopoly-fp": ("monopoly fp", "monopol fp"),
    "monopoly-coins": ("monopoly coins", "monopol muenzen"),
    "coin-multiplier": ("multiplier", "multiplikator"), "extra-scoring": ("extra-scoring", "extra-wertung"),
    "second-coin-scoring": ("second-coin-scoring", "zweite-muenz-wertung"),
}  # fmt: skip


def winter_hand_words(hand: Sequence[str], reply_words: bool = True) -> list[str]:
    """H-MISSIONS: the winter cards in `hand`, each by its name and the words naming it in a reply,
    in the active language: "Combo (card combo)" / "Münzkombo (karte kombo)"; each kind once.
    Without `reply_words` (the service takes no orders by email) the names alone: "Combo"."""
    german = (translation.get_language() or "").startswith("de")
    words = []
    for card_id in hand:
        card = MISSION_CARDS.get(card_id)
        stem = card_id.rsplit("-", 1)[0]
        if card is not None and card.is_winter and stem in CARD_WORDS:
            english, deutsch = CARD_WORDS[stem]
            said = f" ({f'karte {deutsch}' if german else f'card {english}'})" if reply_words else ""
            words.append(f"{card_name(card_id)}{said}")
    return list(dict.fromkeys(words))
