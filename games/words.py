"""The game's words for people: names of factions, phases and rankings, years, coins, orders.

Shared by the event narration, the player page, the emails and the organiser pages; every
string is an English source string for gettext.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

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


def year_label(year: int) -> str:
    return _("%(year)s BC") % {"year": year}


def phase_label(phase: str, action_round: int) -> str:
    if phase == "actions":
        return _("action round %(round)s of 3") % {"round": action_round}
    return str(PHASE_NAMES.get(phase, phase))


# H-BAG: the coin designs in running text ("2 owl"); the board picture names them in games/board/names.py.
COIN_WORDS = {
    "owl": gettext_lazy("owl"),
    "pegasus": gettext_lazy("pegasus"),
    "shield": gettext_lazy("shield"),
    "turtle": gettext_lazy("turtle"),
}


def tile_name(tile_id: str) -> str:
    """A Polis tile's printed name in the active language (H-TILES), e.g. "miletos" -> "Milet"."""
    from .board.names import tile_name as name  # the board package imports this module

    return name(tile_id)


def coin_name(design: str) -> str:
    """A coin design's name in the active language, e.g. "owl" / "Eule"."""
    return str(COIN_WORDS.get(design, design))


def coins_text(coins: dict[str, int]) -> str:
    """E.g. "2 owl, 1 turtle"; "no coins" when empty."""
    parts = [f"{count} {coin_name(design)}" for design, count in sorted(coins.items()) if count]
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


def rule_param(key: str, value: Any) -> Any:
    """One value of a RuleViolation's params as the active language names it (factions,
    governments, coin designs, Mission Cards, the engine's unit words); numbers and spaces stay."""
    if not isinstance(value, str):
        return value
    if key in ("player", "to"):
        return faction_name(value)
    if key == "government":
        return str(GOVERNMENT_NAMES.get(value, value))
    if key == "tiles":
        return ", ".join(tile_name(t) for t in value.split(", "))
    if key == "card":  # H-MISSIONS: a card by its name, never its id
        from .trade_words import card_name

        return card_name(value)
    if key in ("coin", "design") and value != "blank":
        return coin_name(value)
    return (
        str(ENGINE_WORDS.get(value, value)) if key in ("kind", "item", "unit", "resource", "coin") else value
    )


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


def command_label(command: Any, cost: tuple[int, str] | None = None) -> str:
    """An order in plain words, for the list of suggested orders on the player page.

    `cost`: what the order costs in AP or FP (games/previews.py order_cost), said before the
    player gives it with one tap. S-BLANK: an order paying part of its cost in Blanks says how many."""
    d = command.to_dict()
    text = _command_text(d)
    if cost:
        text = _("%(order)s: %(cost)d %(points)s") % {"order": text, "cost": cost[0], "points": cost[1]}
    if d["kind"] != "commit_coins" and d.get("blanks"):
        text += ngettext(", paying %(n)s Blank", ", paying %(n)s Blanks", d["blanks"]) % {"n": d["blanks"]}
    return text


def _command_text(d: dict[str, Any]) -> str:
    kind = d["kind"]
    if kind == "pass":
        return _("Pass")
    if kind == "expand":
        source = SOURCE_NAMES.get(d["source"], d["source"])
        text = _("Expand to %(space)s from %(source)s") % {"space": d["space"], "source": source}
        if d.get("second_source"):
            text += _(", choosing between two tiles")
        if d.get("link_from"):
            text += _(", with a trade link from %(space)s") % {"space": d["link_from"]}
        return text
    if kind == "move":
        targets = "; ".join(f"{x['space']} ({units_text(x)})" for x in d["destinations"])
        return _("Move from %(origin)s to %(targets)s") % {"origin": d["origin"], "targets": targets}
    if kind == "recruit" and d.get("navigators"):
        hire = ngettext("hire %(n)s Navigator", "hire %(n)s Navigators", d["navigators"])
        text = _("Recruit in %(space)s: ") % {"space": d["space"]} + hire % {"n": d["navigators"]}
        if d["phalanxes"]:
            text += ngettext(" and %(n)s phalanx", " and %(n)s phalanxes", d["phalanxes"]) % {
                "n": d["phalanxes"]
            }
        return text
    if kind == "reform":
        government = GOVERNMENT_NAMES.get(d["government"], d["government"])
        return _("Reform: change the government to %(government)s") % {"government": government}
    if kind == "recruit_builder":
        return _("Recruit a Builder")
    if kind == "recruit":
        n = d["phalanxes"]
        return ngettext("Recruit %(n)s phalanx in %(space)s", "Recruit %(n)s phalanxes in %(space)s", n) % {
            "n": n,
            "space": d["space"],
        }
    if kind == "fortify":
        return _("Fortify %(space)s") % {"space": d["space"]}
    if kind == "choose_tile":
        if d.get("keep"):
            return _("Keep tile %(tile)s") % {"tile": tile_name(d["keep"])}
        return _("Keep neither tile")
    if kind == "commit_coins":
        from .trade_words import redeemed_card_text  # H-MISSIONS: the card redeemed with the order

        coins = dict(d.get("coins") or [])
        return _("Commit %(coins)s and %(blanks)s Blanks") % {
            "coins": coins_text(coins),
            "blanks": d.get("blanks", 0),
        } + redeemed_card_text(d)
    from .trade_words import trade_command_text  # H-TRADE, H-ACTIONS Oracle

    return trade_command_text(d) or str(kind)
