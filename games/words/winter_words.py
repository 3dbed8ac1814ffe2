"""Winter and the Mission Cards in plain words (docs/order-loop.md): sealed orders, their reveal,
the rankings, the cards dealt, drawn and scored (S-WINTER, S-RANK, H-MISSIONS, H-WINTER-ORDERS).

Like every teller of events.py, each gets the payload already redacted for its viewer
(engine.event_view): another player's sealed order and Mission Cards reach it only as hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.view import HIDDEN
from games.words.names import RANKING_NAMES, blanks_text, coins_text, faction_name
from games.words.told import Told
from games.words.trade import card_name, card_names


class ToldScoring(Told):
    """A ranking of a scored winter: a page or an email that shows the scoreboard (_scoreboard.html)
    shows it there, in a table, instead of as a sentence."""

    scoring = True


def _scoring(
    teller: Callable[[dict[str, Any], str | None], str],
) -> Callable[[dict[str, Any], str | None], str]:
    return lambda p, viewer: ToldScoring(teller(p, viewer))


def _committed_blanks(n: int) -> str:
    """ "no coins and no Blanks", not "... and 0 Blanks" (S-BLANK)."""
    return blanks_text(n) if n else _("no Blanks")


def _sealed(p: dict[str, Any], viewer: str | None) -> str:
    values = {"player": faction_name(p["player"])}
    if "coins" in p:  # the sealer's own order, or any once the game is over (H-END)
        values |= {"coins": coins_text(p["coins"]), "blanks": _committed_blanks(p.get("blanks", 0))}
        if viewer == p["player"]:
            told = _("You sealed your winter order: %(coins)s and %(blanks)s.") % values
        else:
            told = _("%(player)s sealed a winter order: %(coins)s and %(blanks)s.") % values
        return told + _sealed_card(p)
    return _("%(player)s submitted a sealed winter order.") % values


def _sealed_card(p: dict[str, Any]) -> str:
    """H-MISSIONS: the winter Mission Card the sealed order redeems, and the coins given with it."""
    card = p.get("mission_card")
    if not card:
        return ""
    values = {"card": card_name(card)}
    given = [coins_text(p["card_coins"])] if p.get("card_coins") else []
    given += [blanks_text(p["card_blanks"])] if p.get("card_blanks") else []
    if given:
        values["coins"] = ", ".join(given)
        return " " + _("Mission Card redeemed: %(card)s, with %(coins)s.") % values
    return " " + _("Mission Card redeemed: %(card)s.") % values


def _revealed(p: dict[str, Any], viewer: str | None) -> str:
    parts = [
        _("%(player)s committed %(coins)s and %(blanks)s")
        % {
            "player": faction_name(f),
            "coins": coins_text(o["coins"]),
            "blanks": _committed_blanks(o["blanks"]),
        }
        for f, o in p["orders"].items()
    ]
    return _("The winter orders were revealed: %(orders)s.") % {"orders": "; ".join(parts)}


def _ranked(p: dict[str, Any], viewer: str | None) -> str:
    scores = ", ".join(f"{faction_name(f)} +{vp} VP" for f, vp in p["vp"].items()) or _("nobody ranked")
    name = RANKING_NAMES.get(p["ranking"], p["ranking"])
    return _("%(ranking)s ranking: %(scores)s.") % {"ranking": name, "scores": scores}


def _dealt(p: dict[str, Any], viewer: str | None) -> str:
    # H-MISSIONS: which cards a player holds is theirs alone to know.
    if viewer == p["player"]:
        return _("You were dealt the Mission Cards %(cards)s.") % {"cards": card_names(p["cards"])}
    cards = p["cards"]
    values = {"player": faction_name(p["player"]), "n": cards if isinstance(cards, int) else len(cards)}
    return (
        ngettext(
            "%(player)s was dealt %(n)s Mission Card.",
            "%(player)s was dealt %(n)s Mission Cards.",
            values["n"],
        )
        % values
    )


def _oracle(p: dict[str, Any], viewer: str | None) -> str:
    if viewer == p["player"]:
        return _("You consulted the Oracle and drew the Mission Card %(card)s.") % {
            "card": card_name(p["card"])
        }
    if p["card"] != HIDDEN:  # H-END: shown once the game is over
        values = {"player": faction_name(p["player"]), "card": card_name(p["card"])}
        return _("%(player)s consulted the Oracle and drew the Mission Card %(card)s.") % values
    return _("%(player)s consulted the Oracle and drew a Mission Card.") % {
        "player": faction_name(p["player"])
    }


def _mission_scored(p: dict[str, Any], viewer: str | None) -> str:
    # H-RULES-VERSION: a Mints card of a game begun under version 1 is claimed as the card it counts as.
    card = card_name(p["counts_as"]) if "counts_as" in p else card_name(p["card"])
    values = {"player": faction_name(p["player"]), "card": card, "vp": p["vp"]}
    told = _("%(player)s scored the Mission Card %(card)s: %(vp)s VP.") % values
    why = ZERO_VP_WHY.get(p.get("kind", "")) if p["vp"] == 0 else None
    return f"{told} {why(p)}" if why else told


# H-MISSIONS: why a redeemed card scored 0 VP, by its kind: it did its work elsewhere (a Combo or
# Flush scores at least 1 VP, a Monopoly its printed VP).
ZERO_VP_WHY: dict[str, Callable[[dict[str, Any]], str]] = {
    "coin_multiplier": lambda p: _("Its worth is in the Coin ranking: the committed coins counted double."),
    "second_coin_scoring": lambda p: _("Its worth is the second Coin ranking that follows."),
    "extra_scoring": lambda p: (
        _("It pays the Poleis ranking's VP once more, and %(player)s scored none there.")
        % {"player": faction_name(p["player"])}
    ),
}


WINTER_TELLERS: dict[str, Callable[[dict[str, Any], str | None], str]] = {
    "WinterOrderSealed": _sealed,
    "WinterOrdersRevealed": _revealed,  # what each committed: the table shows only how many
    "RankingScored": _scoring(_ranked),
    "MissionCardsDealt": _dealt,
    "MissionCardDrawn": _oracle,
    "MissionCardClaimed": _mission_scored,
    "MissionCardRedeemed": _mission_scored,  # a sentence: it says why a card scored 0 VP
}
