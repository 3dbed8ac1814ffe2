"""Trade offers, the Oracle and Mission Cards in plain words, for the player page and the emails
(H-TRADE, H-MISSIONS).

H-TRADE: an offer's terms are shown to its two sides only (the engine's views already hide the
screened coins from everyone else); H-MISSIONS: a player's own hand is listed on their page.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.data import MISSION_CARDS, ORACLE_COINS
from games.engine.missions import in_force_id
from games.engine.view import HIDDEN
from games.words.names import blanks_text, coin_count, coin_name, faction_name

CARD_TEXTS = {
    "monopoly": gettext_lazy(
        "Monopoly of %(resource)s: 3 VP in a scoring winter if your Poleis print the most"
    ),
    "coin_multiplier": gettext_lazy("Coin multiplier: your committed coins count double in the Coin ranking"),
    "combo": gettext_lazy("Combo: 3 coins of different designs, 4 VP (1 less per Blank)"),
    "flush": gettext_lazy("Flush: 4 coins of one design, 5 VP (1 less per Blank)"),
    "extra_scoring": gettext_lazy("Extra scoring: your Poleis ranking scores again"),
    "second_coin_scoring": gettext_lazy("Second coin scoring: the Coin ranking is scored once more for all"),
    "poleis": gettext_lazy("Objective: control %(target)s Poleis (%(vp)s VP)"),
    "rival_native": gettext_lazy("Objective: control a rival's Native Polis (%(vp)s VP)"),
    "trade_links": gettext_lazy("Objective: hold %(target)s trade links (%(vp)s VP)"),
    "fortifications": gettext_lazy("Objective: have %(target)s Fortifications on your Poleis (%(vp)s VP)"),
    "mints": gettext_lazy("Objective: control %(target)s Mint Poleis (%(vp)s VP)"),  # rules version 1
}
# H-MISSIONS: a card's short name, shown wherever a card is named (the hand's texts start with it).
CARD_NAMES = {
    "monopoly": gettext_lazy("Monopoly of %(resource)s"),
    "coin_multiplier": gettext_lazy("Coin multiplier"),
    "combo": gettext_lazy("Combo"),
    "flush": gettext_lazy("Flush"),
    "extra_scoring": gettext_lazy("Extra scoring"),
    "second_coin_scoring": gettext_lazy("Second coin scoring"),
    "poleis": gettext_lazy("Objective: %(target)s Poleis"),
    "rival_native": gettext_lazy("Objective: a rival's Native Polis"),
    "trade_links": gettext_lazy("Objective: %(target)s trade links"),
    "fortifications": gettext_lazy("Objective: %(target)s Fortifications"),
    "mints": gettext_lazy("Objective: %(target)s Mints"),  # rules version 1 only (H-MISSIONS)
}
RESOURCE_NAMES = {"ap": "AP", "fp": "FP", "coins": gettext_lazy("coins")}


def _card_words(card_id: str, table: dict[str, Any]) -> str:
    card = MISSION_CARDS.get(card_id)
    if card is None:
        return card_id  # not a card of this edition's deck: say what the log says
    values = {"resource": RESOURCE_NAMES.get(card.resource or "", ""), "target": card.target, "vp": card.vp}
    return str(table[card.kind]) % values


def card_text(card_id: str) -> str:
    """What a Mission Card does, e.g. "Combo: 3 coins of different designs, 4 VP (1 less per Blank)"."""
    return _card_words(card_id, CARD_TEXTS)


def card_name(card_id: str) -> str:
    """H-MISSIONS: a Mission Card's name in the active language, e.g. "Monopoly of AP", never its id."""
    return _card_words(card_id, CARD_NAMES)


def card_names(card_ids: list[str]) -> str:
    """Several cards' names, e.g. "Combo, Flush, Objective: 6 Poleis"."""
    return ", ".join(card_name(c) for c in card_ids)


def held_card_words(card_id: str, rules_version: int | None, words: Any = card_name) -> str:
    """H-MISSIONS, H-RULES-VERSION: a card in a hand as it counts now: a Mints objective of a game begun
    under rules version 1 is named as the card it counts as from version 2 on, and says which it was."""
    counts_as = in_force_id(card_id, rules_version)
    if counts_as == card_id:
        return words(card_id)
    return _("%(card)s (this card was %(old)s until rules version 2)") % {
        "card": words(counts_as),
        "old": card_name(card_id),
    }


def bundle_text(bundle: dict[str, Any]) -> str:
    """One side of an offer, e.g. "2 AP, 1 Blank, 1 owl and the Polis D3"; "nothing" when empty."""

    parts = [f"{bundle[k]} {label}" for k, label in (("ap", "AP"), ("fp", "FP")) if bundle.get(k)]
    if bundle.get("blanks"):
        parts.append(blanks_text(bundle["blanks"]))
    coins = bundle.get("coins")
    if coins == HIDDEN:
        parts.append(_("screened coins (hidden)"))
    elif coins:
        parts += [coin_count(design, n) for design, n in sorted(dict(coins).items()) if n]
    if bundle.get("polis"):
        parts.append(_("the Polis %(space)s") % {"space": bundle["polis"]})
    return ", ".join(parts) if parts else _("nothing")


def trade_command_text(d: dict[str, Any]) -> str | None:
    """The plain words of an Oracle, Trade or offer answer (None for other kinds of order)."""

    kind = d["kind"]
    if kind == "oracle":
        coin = _("a Blank") if d["coin"] == "blank" else coin_name(d["coin"])
        paid = ngettext(
            "Consult the Oracle (draw a Mission Card), paying %(n)s coin: %(coin)s",
            "Consult the Oracle (draw a Mission Card), paying %(n)s coins: %(coin)s",
            ORACLE_COINS,
        )
        return paid % {"n": ORACLE_COINS, "coin": coin}
    if kind == "neutral_trade":
        return _("Trade with the neutral Poleis you have trade links to")
    if kind == "offer_trade":
        values = {"to": faction_name(d["to"]), "give": bundle_text(d["give"]), "take": bundle_text(d["take"])}
        return _("Offer %(to)s %(give)s for %(take)s") % values
    if kind == "accept_offer":
        return _("Accept trade offer no. %(offer)s") % {"offer": d["offer"]}
    if kind == "decline_offer":
        return _("Decline trade offer no. %(offer)s") % {"offer": d["offer"]}
    return None


def redeemed_card_text(d: dict[str, Any]) -> str:
    """The Mission Card part of a sealed winter order ("" when it names none)."""
    if not d.get("mission_cards"):
        return ""
    text = _(", redeeming %(card)s") % {"card": card_name(d["mission_cards"][0])}
    spent = dict(d.get("card_coins") or [])
    if spent or d.get("card_blanks"):
        text += _(" with %(coins)s") % {
            "coins": bundle_text({"coins": spent, "blanks": d.get("card_blanks", 0)})
        }
    return text


def offer_rows(view: dict[str, Any], faction: str, legal: list[Any]) -> list[dict[str, Any]]:
    """The open offers to and from `faction`, with the Accept/Decline orders the engine lists as legal."""

    answers = {
        (c.kind, c.offer): json.dumps(c.to_dict())
        for c in legal
        if c.kind in ("accept_offer", "decline_offer")
    }
    rows = []
    for offer in view.get("offers", []):
        if faction not in (offer["player"], offer["to"]):
            continue
        rows.append(
            {
                "id": offer["id"],
                "incoming": offer["to"] == faction,
                "from_name": faction_name(offer["player"]),
                "to_name": faction_name(offer["to"]),
                "give": bundle_text(offer["give"]),
                "take": bundle_text(offer["take"]),
                "year": offer["year"],
                "buttons": [
                    (answers[(kind, offer["id"])], label)
                    for kind, label in (("accept_offer", _("Accept")), ("decline_offer", _("Decline")))
                    if (kind, offer["id"]) in answers
                ],
            }
        )
    return rows


def hand_rows(view: dict[str, Any], faction: str) -> list[dict[str, str]]:
    """H-MISSIONS: the player's own Mission Cards (only their own view lists them): the id for the
    page's markup, the card's words (name and what it does) for the player to read."""
    cards = view.get("players", {}).get(faction, {}).get("mission_cards", [])
    if not isinstance(cards, list):
        return []
    version = view.get("rules_version")
    return [{"id": c, "text": held_card_words(c, version, card_text)} for c in cards]
