"""A Mission Card in a sealed winter order by email reply (H-MISSIONS, S-WINTER, docs/email-orders.md).

    commit owl 1 card combo owl 1 shield 1 blanks 1
    einsetzen eule 1 karte kombo eule 1 schild 1 blanko 1

After `card` (`karte`) comes the card's name as the player's page and emails print it, in
English or German (folded: lower case, umlauts as ae/oe/ue), and then the coins and Blanks that
go onto the card (a Combo or Flush). Cards of one kind are alike, so the name stands for any copy
in the player's hand: `resolve_card` picks the one held. This only reads words into the dict of
the web form (games/web/forms/trade.py, WinterOrderForm); the engine decides whether the card may
be redeemed (H-MISSIONS: in the hand, a winter card, its terms met; S-WINTER: at most one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engine.data import COIN_DESIGNS, MISSION_CARDS
from games.words.syntax import OrderSyntaxError, is_number, number_at

CARD_WORD = "card"  # "karte" is folded to it (words/syntax.WORDS)
# The printed names (games/words/trade.py CARD_NAMES, English and German) -> the card's id stem.
CARD_NAMES = {
    "combo": "combo", "kombo": "combo", "muenzkombo": "combo",
    "flush": "flush",
    "multiplier": "coin-multiplier", "coin-multiplier": "coin-multiplier",
    "multiplikator": "coin-multiplier", "muenz-multiplikator": "coin-multiplier",
    "muenzmultiplikator": "coin-multiplier",
    "extra-scoring": "extra-scoring", "extra-wertung": "extra-scoring", "extrawertung": "extra-scoring",
    "second-coin-scoring": "second-coin-scoring", "zweite-muenz-wertung": "second-coin-scoring",
    "zweite-muenzwertung": "second-coin-scoring",
}  # fmt: skip
MONOPOLY = ("monopoly", "monopol")
RESOURCES = {"ap": "ap", "fp": "fp", "coins": "coins", "muenzen": "coins"}
STEMS = {card_id.rsplit("-", 1)[0] for card_id in MISSION_CARDS}


def read_card(args: list[str]) -> tuple[str, int]:
    """The card named at the start of `args` (folded words after `card`): (its id stem or id, words read)."""
    if not args:
        raise OrderSyntaxError(_("Name the Mission Card after card: card combo, card monopoly ap."))
    word = args[0]
    if word in STEMS or word in MISSION_CARDS:  # the id itself, as the game's export prints it
        return word, 1
    if word in CARD_NAMES:
        return CARD_NAMES[word], 1
    if word in MONOPOLY:  # "monopoly ap"; "monopol-muenzen" is one word
        word, read = f"{word}-{args[1] if len(args) > 1 else ''}", 2
    else:
        read = 1
    head, _dash, resource = word.partition("-")
    if head in MONOPOLY:
        if resource not in RESOURCES:
            raise OrderSyntaxError(_("After monopoly, name ap, fp or coins: card monopoly ap."))
        return f"monopoly-{RESOURCES[resource]}", read
    raise OrderSyntaxError(_('"%(word)s" is not a Mission Card.') % {"word": word[:40]})


def resolve_card(order: dict[str, Any], hand: Sequence[str]) -> dict[str, Any]:
    """The order with its card name replaced by the id of a card of that kind in `hand`; a card
    not held stays a card of that kind (its first copy), for the engine to refuse (H-MISSIONS)."""
    names = order.get("mission_cards") or []
    if not names:
        return order
    (name,) = names
    stem = name.rsplit("-", 1)[0] if name in MISSION_CARDS else name  # "combo-2" is a Combo too
    held = [c for c in hand if c == name] or [c for c in hand if c.rsplit("-", 1)[0] == stem]
    return {**order, "mission_cards": [held[0] if held else f"{stem}-1"]}


def parse_commit(args: list[str]) -> dict[str, Any]:
    """H-WINTER-ORDERS: "owl 2 blanks 1 card combo owl 1 ..." -> the dict of a CommitCoins order.

    Coins and Blanks before `card` are committed; those after the card's name go onto the card.
    """
    split = args.index(CARD_WORD) if CARD_WORD in args else len(args)
    order: dict[str, Any] = {"kind": "commit_coins", **_coins(args[:split], "coins", "blanks")}
    if split < len(args):
        card, read = read_card(args[split + 1 :])
        order["mission_cards"] = [card]
        order |= _coins(args[split + 1 + read :], "card_coins", "card_blanks")
    return order


def _coins(args: list[str], coins_field: str, blanks_field: str) -> dict[str, Any]:
    """ "owl 2 turtle 1 blanks 1" -> {coins_field: {"owl": 2, "turtle": 1}, blanks_field: 1}."""
    coins: dict[str, int] = {}
    blanks, i = 0, 0
    if args in (["nothing"], ["nichts"]):  # "commit nothing", as the help's "commit" alone
        args = []
    while i < len(args):
        word = args[i]
        if is_number(word) and i + 1 < len(args) and args[i + 1] in (*COIN_DESIGNS, "blanks"):
            word, args = args[i + 1], [*args[:i], args[i + 1], word, *args[i + 2 :]]  # "2 owl" as "owl 2"
        if word in COIN_DESIGNS:
            coins[word] = coins.get(word, 0) + number_at(args, i + 1)
        elif word == "blanks":
            blanks = number_at(args, i + 1)
        else:
            raise OrderSyntaxError(
                _('"%(word)s" is not a coin design (owl, pegasus, shield, turtle).') % {"word": word[:40]}
            )
        i += 2
    return {coins_field: coins, blanks_field: blanks}
