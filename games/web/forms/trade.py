"""Order forms for a trade offer and a sealed winter order redeeming a Mission Card (H-TRADE, H-MISSIONS).

Like the other order forms (games/web/forms/orders.py), these only read what the player typed into the
plain dict `command_from_dict` accepts; the engine decides (H-TRADE, H-MISSIONS, S-WINTER).
The answers to offers need no form: every legal one of them is listed among the suggested orders
(the Oracle and the neutral trade have theirs in orders.py).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from games.engine.commands import CommitCoins, OfferTrade
from games.engine.data import COIN_DESIGNS, MISSION_CARDS
from games.web.forms.orders import CommitCoinsForm, OrderForm, _space, _space_field
from games.words.names import coin_name, faction_name
from games.words.trade import card_name

SIDES = (("give", _("You give")), ("take", _("You ask")))


def _amount(label: Any) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, initial=0, required=False)


class OfferTradeForm(OrderForm):
    """H-TRADE: offer one rival AP, FP, Blanks, screened coins and a Polis for theirs (the Trade action)."""

    kind, title = "offer_trade", _("Trade: make an offer to a rival")
    to = forms.ChoiceField(label=_("To"), choices=[])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rivals = [f for f in self.state.seat_order if f != self.faction]
        self.fields["to"].choices = [(f, faction_name(f)) for f in rivals]
        for side, label in SIDES:
            for item, name in (
                ("ap", "AP"),
                ("fp", "FP"),
                ("blanks", _("Blanks")),
                *((d, capfirst(coin_name(d))) for d in COIN_DESIGNS),
            ):
                self.fields[f"{side}_{item}"] = _amount(f"{label}: {name}")
            self.fields[f"{side}_polis"] = _space_field(
                f"{label}: " + str(_("a Polis (space)")), required=False
            )

    def columns(self) -> list[tuple[Any, list[forms.BoundField]]]:
        """The give and the ask side by side, each under its heading ("You give", "You ask")."""
        return [(label, [f for f in self if f.name.startswith(f"{side}_")]) for side, label in SIDES]

    def order_dict(self) -> dict[str, Any]:
        d = self.cleaned_data

        def bundle(side: str) -> dict[str, Any]:
            return {
                "ap": d[f"{side}_ap"] or 0,
                "fp": d[f"{side}_fp"] or 0,
                "blanks": d[f"{side}_blanks"] or 0,
                "coins": {c: d[f"{side}_{c}"] for c in COIN_DESIGNS if d[f"{side}_{c}"]},
                "polis": _space(d[f"{side}_polis"] or ""),
            }

        return {"to": d["to"], "give": bundle("give"), "take": bundle("take")}


class WinterOrderForm(CommitCoinsForm):
    """H-WINTER-ORDERS with H-MISSIONS: the coins to commit, and at most one winter card (S-WINTER)
    with the coins and Blanks a Combo or Flush takes."""

    title = _("Sealed winter order: coins to commit and a Mission Card")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        hand = self.state.players[self.faction].mission_cards
        winter_cards = sorted({c for c in hand if c in MISSION_CARDS and MISSION_CARDS[c].is_winter})
        self.fields["mission_card"] = forms.ChoiceField(
            label=_("Redeem a winter Mission Card"),
            choices=[("", _("none")), *((c, card_name(c)) for c in winter_cards)],  # H-MISSIONS: names
            required=False,
        )
        for design in COIN_DESIGNS:
            self.fields[f"card_{design}"] = _amount(
                _("On the card: %(design)s") % {"design": coin_name(design)}
            )
        self.fields["card_blanks"] = _amount(_("On the card: Blanks"))

    def order_dict(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {
            **super().order_dict(),
            "mission_cards": [d["mission_card"]] if d["mission_card"] else [],
            "card_coins": {c: d[f"card_{c}"] for c in COIN_DESIGNS if d[f"card_{c}"]},
            "card_blanks": d["card_blanks"] or 0,
        }


TRADE_FORMS: dict[str, type[OrderForm]] = {OfferTrade.kind: OfferTradeForm, CommitCoins.kind: WinterOrderForm}
