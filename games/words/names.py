"""The game's words for people: names of factions, phases and rankings, years, coins, orders.

Shared by the event narration, the player page, the emails and the organiser pages; every
string is an English source string for gettext.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.words import board_names

FACTION_NAMES = {
    "athens": gettext_lazy("Athens"),
    "sparta": gettext_lazy("Sparta"),
    "corinth": gettext_lazy("Corinth"),
    "thebes": gettext_lazy("Thebes"),
}
RANKING_NAMES = {  # S-WINTER's three rankings, named as in "the Mint ranking"
    "poleis": pgettext_lazy("ranking", "Poleis"),
    "coins": pgettext_lazy("ranking", "Coins"),
    "mint": pgettext_lazy("ranking", "Mint"),
}
SOURCE_NAMES = {"deck": gettext_lazy("the deck"), "discard": gettext_lazy("the discard pile")}
GOVERNMENT_NAMES = {
    "tyranny": gettext_lazy("Tyranny"),
    "oligarchy": gettext_lazy("Oligarchy"),
    "democracy": gettext_lazy("Democracy"),
}
# The languages of the site (settings.LANGUAGES) as a sentence names them: "in German", "auf Englisch".
LANGUAGE_NAMES = {
    "en": pgettext_lazy("language", "English"),
    "de": pgettext_lazy("language", "German"),
}
# The orders by kind (engine/commands.py), as a line of the history names them.
ORDER_KIND_NAMES = {
    "pass": gettext_lazy("Pass"),
    "expand": gettext_lazy("Expand"),
    "choose_tile": gettext_lazy("Choose a tile"),
    "move": gettext_lazy("Move"),
    "recruit": gettext_lazy("Recruit"),
    "fortify": gettext_lazy("Fortify"),
    "reform": gettext_lazy("Reform"),
    "recruit_builder": gettext_lazy("Recruit a Builder"),
    "commit_coins": gettext_lazy("Sealed winter order"),
    "oracle": gettext_lazy("Oracle"),
    "neutral_trade": gettext_lazy("Neutral trade"),
    "offer_trade": gettext_lazy("Trade offer"),
    "accept_offer": gettext_lazy("Accept an offer"),
    "decline_offer": gettext_lazy("Decline an offer"),
}
PHASE_NAMES = {
    "setup": gettext_lazy("setting up"),
    "choice": gettext_lazy("choosing a tile"),
    "winter_orders": gettext_lazy("sealed winter orders"),
    "winter": gettext_lazy("winter"),
    "ended": gettext_lazy("the game has ended"),
}


def faction_name(faction: str | None) -> str:
    if faction is None:
        return str(_("the neutral garrison"))
    return str(FACTION_NAMES.get(faction, faction))


def language_name(code: str) -> str:
    """A language of the site named in the active language ("German" / "Deutsch"); else its code."""
    return str(LANGUAGE_NAMES.get(code, code))


def faction_named(text: str) -> str | None:
    """The faction a person wrote, any case: its id or its name in a language of the site
    ("Athens", "athen", "KORINTH", "thebes"); None for any other word (H-SETUP)."""
    word = text.strip().casefold()
    for faction, name in FACTION_NAMES.items():
        if word == faction:
            return faction
        for code, _language in settings.LANGUAGES:
            with translation.override(code):
                if word == str(name).casefold():
                    return faction
    return None


def organiser_name(organiser: Any) -> str:
    """The organiser as the players' emails name them: the name on their account (asked on the
    organiser's new-game forms), else "The organiser" / "Die Spielleitung"; never their address,
    which an account made by signing in by email has as its user name (docs/front-door.md)."""
    return organiser_own_name(organiser) or str(_("The organiser"))


def organiser_own_name(organiser: Any) -> str:
    """The name on the organiser's account (first and last name), "" when there is none or no organiser."""
    return organiser.get_full_name().strip() if organiser is not None else ""


def year_label(year: int) -> str:
    return _("%(year)s BC") % {"year": year}


def phase_label(phase: str, action_round: int) -> str:
    if phase == "actions":
        return _("action round %(round)s of 3") % {"round": action_round}
    return str(PHASE_NAMES.get(phase, phase))


# H-BAG: the coin designs in running text ("owl"); the board picture names them in board_names.py.
COIN_WORDS = {
    "owl": gettext_lazy("owl"),
    "pegasus": gettext_lazy("pegasus"),
    "shield": gettext_lazy("shield"),
    "turtle": gettext_lazy("turtle"),
}


def tile_name(tile_id: str) -> str:
    """A Polis tile's printed name in the active language (H-TILES), e.g. "miletos" -> "Milet"."""
    return board_names.tile_name(tile_id)


def coin_name(design: str) -> str:
    """A coin design's name in the active language, e.g. "owl" / "Eule"."""
    return str(COIN_WORDS.get(design, design))


# H-BAG: a count of coins of one design, each language's plural ("2 owls", "2 Eulen"): ngettext.
COIN_COUNTS = {
    "owl": lambda n: ngettext("%(n)s owl", "%(n)s owls", n),
    "pegasus": lambda n: ngettext("%(n)s pegasus", "%(n)s pegasi", n),
    "shield": lambda n: ngettext("%(n)s shield", "%(n)s shields", n),
    "turtle": lambda n: ngettext("%(n)s turtle", "%(n)s turtles", n),
}


def coin_count(design: str, n: int) -> str:
    """H-BAG: "1 owl", "2 owls" (German "1 Eule", "2 Eulen"); an unknown design by its id."""
    words = COIN_COUNTS.get(design)
    return words(n) % {"n": n} if words else f"{n} {design}"


def coins_text(coins: dict[str, int]) -> str:
    """E.g. "2 owls, 1 turtle"; "no coins" when empty."""
    parts = [coin_count(design, count) for design, count in sorted(coins.items()) if count]
    return ", ".join(parts) if parts else _("no coins")


def blanks_text(n: int) -> str:
    """S-BLANK: "1 Blank", "2 Blanks", "0 Blanks" (German "1 Leermünze", "2 Leermünzen")."""
    return ngettext("%(n)s Blank", "%(n)s Blanks", n) % {"n": n}


# Words the engine puts into its refusals (RuleViolation params), English in the engine.
ENGINE_WORDS = {
    "phalanxes": gettext_lazy("phalanxes"),
    "Navigators": gettext_lazy("Navigators"),
    "Builders": gettext_lazy("Builders"),
    "Blanks": gettext_lazy("Blanks"),
    "AP": gettext_lazy("AP"),
    "FP": gettext_lazy("FP"),
    "ap": gettext_lazy("AP"),
    "fp": gettext_lazy("FP"),
    "coins": gettext_lazy("coins"),
    "blank": gettext_lazy("Blank"),
}


def units_text(d: dict[str, Any]) -> str:
    parts = [
        ngettext("%(n)d phalanx", "%(n)d phalanxes", d.get("phalanxes", 0)) % {"n": d.get("phalanxes", 0)}
    ]
    if d.get("king"):
        parts.append(_("the King"))
    if d.get("navigators"):
        parts.append(
            ngettext("%(n)d Navigator", "%(n)d Navigators", d["navigators"]) % {"n": d["navigators"]}
        )
    if d.get("builders"):
        parts.append(ngettext("%(n)d Builder", "%(n)d Builders", d["builders"]) % {"n": d["builders"]})
    return ", ".join(parts)
