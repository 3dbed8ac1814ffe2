"""Orders and the engine's refusals in plain words: an order as the player page's list of suggested
orders names it, and a RuleViolation's message and parameters in the active language (the engine
writes English templates; docs/i18n.md). Built on the names (names.py) and the trade words
(trade.py), which need nothing of this module.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from games.engine import RuleViolation
from games.words.names import (
    ENGINE_WORDS,
    GOVERNMENT_NAMES,
    SOURCE_NAMES,
    coin_name,
    coins_text,
    faction_name,
    tile_name,
    units_text,
)
from games.words.trade import card_name, redeemed_card_text, trade_command_text

# H-GOV: the Reform order named whole for each government, so that each language puts its own
# article or case before the name (German "zur Tyrannis"), not "to" glued to it.
REFORM_LABELS = {
    "tyranny": gettext_lazy("Reform: change the government to Tyranny"),
    "oligarchy": gettext_lazy("Reform: change the government to Oligarchy"),
    "democracy": gettext_lazy("Reform: change the government to Democracy"),
}


def violation_text(error: RuleViolation) -> str:
    """The engine's English message in the active language, with its parameters re-applied, and the
    rule it enforces named as a rule, "(rule S-MOVE)" / "(Regel S-MOVE)" (H-ORDER): a bare "(S-MOVE)"
    told a new player nothing. The pages link the code to the rulebook (games/web/rule_links.py)."""
    params = {k: rule_param(k, v) for k, v in error.params.items()}
    text = gettext(error.message_template)
    return _("%(text)s (rule %(rule)s)") % {"text": text % params if params else text, "rule": error.rule}


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
        return card_name(value)
    if key in ("coin", "design") and value != "blank":
        return coin_name(value)
    return (
        str(ENGINE_WORDS.get(value, value)) if key in ("kind", "item", "unit", "resource", "coin") else value
    )


def command_label(command: Any, cost: tuple[int, str] | None = None) -> str:
    """An order in plain words, for the list of suggested orders on the player page.

    `cost`: what the order costs in AP or FP (games/reading/previews.py order_cost), said before the
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
        if d.get("choice_step"):
            text += _(", then choosing whether to draw a second tile")
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
        return str(REFORM_LABELS[d["government"]])
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
        if d.get("second_source"):  # H-CHOICE-STEP
            source = SOURCE_NAMES.get(d["second_source"], d["second_source"])
            return _("Draw a second tile from %(source)s") % {"source": source}
        # Both discard orders are offered: the words name the order, or they read twice the same.
        first, last = (tile_name(t) for t in d["discard_order"])
        return _("Keep neither tile: discard %(first)s, then %(last)s (on top)") % {
            "first": first,
            "last": last,
        }
    if kind == "commit_coins":
        coins = dict(d.get("coins") or [])
        return _("Commit %(coins)s and %(blanks)s Blanks") % {
            "coins": coins_text(coins),
            "blanks": d.get("blanks", 0),
        } + redeemed_card_text(d)

    return trade_command_text(d) or str(kind)
