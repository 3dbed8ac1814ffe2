"""A trade offer in an email reply (H-TRADE, docs/email-orders.md), in English and German.

    offer sparta 2 ap 1 owl for 1 fp polis D3
    anbieten sparta 2 ap 1 eule gegen 1 fp polis D3

`offer` (`anbieten`, `angebot`) names the rival, then what you give, `for` (`fuer`, `für`,
`gegen`), then what you ask. A side lists amounts of `ap`, `fp`, `blanks` (`blanko`) and the
coin designs, each as "2 owl" or "owl 2", and at most one `polis SPACE`; `nothing` (`nichts`)
is an empty side. This only reads the words into the dict of the web form
(games/web/forms/trade.py, OfferTradeForm); the engine decides whether the offer is legal (H-TRADE).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine.data import COIN_DESIGNS, FACTION_IDS
from games.words.syntax import SPACE, OrderSyntaxError, is_number

FOR = ("for", "fuer", "gegen")
NOTHING = ("nothing", "nichts")
AMOUNTS = ("ap", "fp", "blanks", *COIN_DESIGNS)


def parse_offer(args: list[str]) -> dict[str, Any]:
    """H-TRADE: `args` (folded words after the keyword) -> {"kind": "offer_trade", to, give, take}."""
    if not args or args[0] not in FACTION_IDS:
        raise OrderSyntaxError(_("Name the rival after offer: offer sparta 1 ap for 1 fp."))
    split = [i for i, word in enumerate(args) if word in FOR]
    if len(split) != 1:
        raise OrderSyntaxError(
            _('Write what you give, then "for", then what you ask: offer sparta 1 ap for 1 fp.')
        )
    give, take = args[1 : split[0]], args[split[0] + 1 :]
    return {"kind": "offer_trade", "to": args[0], "give": _bundle(give), "take": _bundle(take)}


def _bundle(words: list[str]) -> dict[str, Any]:
    """One side of the offer, e.g. ["2", "ap", "owl", "1", "polis", "d3"]."""
    bundle: dict[str, Any] = {"ap": 0, "fp": 0, "blanks": 0, "coins": {}, "polis": None}
    if not words:
        raise OrderSyntaxError(_('A side of the offer is empty: write "nothing" if you mean it.'))
    if len(words) == 1 and words[0] in NOTHING:
        return bundle
    i = 0
    while i < len(words):
        word, after = words[i], words[i + 1] if i + 1 < len(words) else ""
        if word == "polis":
            if not SPACE.match(after) or bundle["polis"]:
                raise OrderSyntaxError(_("After polis, name one space (A1 to I9)."))
            bundle["polis"] = after.upper()
        elif word in AMOUNTS and is_number(after):
            _add(bundle, word, int(after))
        elif is_number(word) and after in AMOUNTS:
            _add(bundle, after, int(word))
        else:
            raise OrderSyntaxError(
                _('"%(word)s" is not understood in an offer: write e.g. 2 ap, 1 owl, polis D3.')
                % {"word": word[:40]}
            )
        i += 2
    return bundle


def _add(bundle: dict[str, Any], name: str, count: int) -> None:
    if name in COIN_DESIGNS:
        bundle["coins"][name] = bundle["coins"].get(name, 0) + count
    else:
        bundle[name] += count
