"""The game's events in plain words (docs/order-loop.md): setup, turns, war, winter, Mission Cards and trade.

Each teller gets the payload already redacted for its viewer by engine.event_view
(narration.describe), so it says only what the viewer may know (H-SCREEN, H-MISSIONS,
H-WINTER-ORDERS); the order's record and the table's events are told elsewhere
(narration.py, table.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from games.engine.data import INCOME_YEARS
from games.engine.economy import is_income_year
from games.engine.view import HIDDEN
from games.words.battle import told_battle
from games.words.names import (
    GOVERNMENT_NAMES,
    blanks_text,
    coins_text,
    faction_name,
    tile_name,
    units_text,
    year_label,
)
from games.words.winter_words import WINTER_TELLERS

Teller = Callable[[dict[str, Any], str | None], str]

# H-GOV: a reform told whole for each government, not "to" glued to its name: each language puts
# its own article or case before it (German "zur Tyrannis").
GOVERNMENT_CHANGED = {
    "tyranny": gettext_lazy("%(player)s changed its government to Tyranny."),
    "oligarchy": gettext_lazy("%(player)s changed its government to Oligarchy."),
    "democracy": gettext_lazy("%(player)s changed its government to Democracy."),
}


def _started(p: dict[str, Any], viewer: str | None) -> str:
    order = ", ".join(faction_name(f) for f in p["seat_order"])
    return _("The game began. Seat order: %(order)s.") % {"order": order}


def _year_began(year: int) -> str:
    """S-INC: a year without income says so, and when the Poleis pay: a new player read 430 BC's
    "The year began." and an empty purse as income gone missing."""
    if is_income_year(year):
        return _("The year %(year)s began.") % {"year": year_label(year)}
    years = ", ".join(str(y) for y in sorted(INCOME_YEARS, reverse=True))
    return _("The year %(year)s began: no income this Spring (the Poleis pay in %(years)s BC).") % {
        "year": year_label(year),
        "years": years,
    }


def _income(p: dict[str, Any], viewer: str | None) -> str:
    values = {"player": faction_name(p["player"]), "ap": p["ap"], "fp": p["fp"]}
    if viewer == p["player"]:
        values["coins"] = coins_text(p["coins"])
        told = _("You received %(ap)s AP, %(fp)s FP and %(coins)s.") % values
    elif p["coins"] != HIDDEN:  # H-END: shown once the game is over
        values["coins"] = coins_text(p["coins"])
        told = _("%(player)s received %(ap)s AP, %(fp)s FP and %(coins)s.") % values
    else:
        told = _("%(player)s received %(ap)s AP, %(fp)s FP and coins behind their screen.") % values
    return told + _government_bonus(p) + _economy(p)


def _government_bonus(p: dict[str, Any]) -> str:
    """H-GOV: the government's bonus, told apart from what the Poleis print ("+1 AP for Tyranny.");
    an income older than the bonus carries none."""
    bonus = p.get("bonus") or {}
    government = str(GOVERNMENT_NAMES.get(p.get("government", ""), p.get("government", "")))
    told = []
    if bonus.get("ap"):
        told.append(_("+%(n)s AP for %(government)s.") % {"n": bonus["ap"], "government": government})
    if bonus.get("fp"):
        told.append(_("+%(n)s FP for %(government)s.") % {"n": bonus["fp"], "government": government})
    if bonus.get("blanks"):
        n = bonus["blanks"]
        told.append(
            ngettext("+%(n)s Blank for %(government)s.", "+%(n)s Blanks for %(government)s.", n)
            % {"n": n, "government": government}
        )
    return "".join(f" {line}" for line in told)


def _economy(p: dict[str, Any]) -> str:
    """H-FACTION: the faction's own income (Thebes' economy), told apart from what its Poleis paid (S-INC:
    a Polis pays its print, nothing more); its coins stay behind the screen like the others."""
    economy = p.get("economy")
    if not economy:
        return ""
    values = {"player": faction_name(p["player"]), "n": economy["owed"]}
    if economy["coins"] == HIDDEN:
        values["coins"] = ngettext("%(n)s coin", "%(n)s coins", economy["owed"]) % values
    else:
        values["coins"] = coins_text(economy["coins"])
    told = ECONOMY_WORDS.get(p["player"], ECONOMY_WORDS[""])
    return " " + str(told) % values


# H-FACTION: Thebes is the faction with an economy of its own (data.FACTIONS); "" for any other.
ECONOMY_WORDS = {
    "thebes": gettext_lazy("Thebes' economy: +%(coins)s."),
    "": gettext_lazy("The economy of %(player)s: +%(coins)s."),
}


def _passed(p: dict[str, Any], viewer: str | None) -> str:
    if p.get("automatic"):
        return _("%(player)s passed automatically (no Polis left).") % {"player": faction_name(p["player"])}
    return _("%(player)s passed.") % {"player": faction_name(p["player"])}


def _founded(p: dict[str, Any], viewer: str | None) -> str:
    values = {
        "player": faction_name(p["player"]),
        "space": p["space"],
        "tile": tile_name(p["tile"]),
        "n": p["garrison"],
    }
    return (
        _("%(player)s expanded to %(space)s: a neutral Polis (%(tile)s) with a garrison of %(n)s.") % values
    )


def _moved(p: dict[str, Any], viewer: str | None) -> str:
    targets = "; ".join(f"{d['space']} ({units_text(d)})" for d in p["destinations"])
    values = {
        "player": faction_name(p["player"]),
        "origin": p["origin"],
        "targets": targets,
        "fp": p["fp_paid"],
    }
    return _("%(player)s moved from %(origin)s to %(targets)s for %(fp)s FP.") % values


def _battle(p: dict[str, Any], viewer: str | None) -> str:
    """S-COMBAT: who attacked whom and who won, then every round's dice (words/battle.py)."""
    winner = p["attacker"] if p["winner"] == "attacker" else p["defender"]
    values = {
        "space": p["space"],
        "attacker": faction_name(p["attacker"]),
        "defender": faction_name(p["defender"]),
        "winner": faction_name(winner),
        "al": p["attacker_losses"],
        "dl": p["defender_losses"],
    }
    summary = (
        _(
            "Battle at %(space)s: %(attacker)s attacked %(defender)s and %(winner)s won "
            "(losses: attacker %(al)s, defender %(dl)s)."
        )
        % values
    )
    return told_battle(p, summary, _king_lines(p))


def _king_lines(p: dict[str, Any]) -> list[str]:
    """H-HEROES: fallen Kings, and the VP their killers gained."""
    lines = []
    for death in p.get("kings_killed", []):
        values = {
            "victim": faction_name(death["faction"]),
            "killer": faction_name(death["killer"]),
            "vp": death["vp"],
        }
        if death["vp"]:
            lines.append(_("The King of %(victim)s fell; %(killer)s gains %(vp)s VP.") % values)
        else:
            lines.append(_("The King of %(victim)s fell.") % values)
    return lines


def _kings(p: dict[str, Any]) -> str:
    return "".join(f" {line}" for line in _king_lines(p))


def _conquered(p: dict[str, Any], viewer: str | None) -> str:
    values = {"player": faction_name(p["player"]), "space": p["space"]}
    if p.get("loot") and viewer == p["player"]:
        values["loot"] = coins_text(p["loot"])
        return _("You conquered %(space)s and took its treasure: %(loot)s.") % values + _kings(p)
    return _("%(player)s conquered %(space)s.") % values + _kings(p)


def _ended(p: dict[str, Any], viewer: str | None) -> str:
    winners = ", ".join(faction_name(f) for f in p["winners"])
    told = ngettext(
        "The game ended. Winner: %(winners)s.", "The game ended. Winners: %(winners)s.", len(p["winners"])
    ) % {"winners": winners}
    return told + _tie_broken(p.get("standings") or [])


def _tie_broken(standings: list[dict[str, Any]]) -> str:
    """H-END: when the most VP are shared, what decided (Poleis controlled, then coins behind the
    screen, all revealed now): "18 VP each" alone left a player unable to tell why another won."""
    tied = [s for s in standings if s["vp"] == standings[0]["vp"]] if standings else []
    if len(tied) < 2:
        return ""
    counts = "; ".join(
        _("%(player)s %(poleis)s, %(coins)s")
        % {
            "player": faction_name(s["player"]),
            "poleis": ngettext("%(n)s Polis", "%(n)s Poleis", s["poleis"]) % {"n": s["poleis"]},
            "coins": ngettext("%(n)s coin", "%(n)s coins", s["coins"]) % {"n": s["coins"]},
        }
        for s in tied
    )
    return " " + _("Tied on VP, decided by Poleis controlled, then coins behind the screen: %(counts)s.") % {
        "counts": counts
    }


def _recruited(p: dict[str, Any], viewer: str | None) -> str:
    """S-RECRUIT, H-HEROES: the phalanxes recruited, and the Navigators hired with them."""
    values = {"player": faction_name(p["player"]), "n": p["phalanxes"], "space": p["space"]}
    told = []
    if p["phalanxes"] or not p.get("navigators"):
        told.append(
            ngettext(
                "%(player)s recruited %(n)s phalanx in %(space)s.",
                "%(player)s recruited %(n)s phalanxes in %(space)s.",
                p["phalanxes"],
            )
            % values
        )
    if p.get("navigators"):
        values["n"] = p["navigators"]
        told.append(
            ngettext(
                "%(player)s hired %(n)s Navigator in %(space)s.",
                "%(player)s hired %(n)s Navigators in %(space)s.",
                p["navigators"],
            )
            % values
        )
    return " ".join(told)


def _offer(template: str) -> Teller:
    """H-TRADE: who offered whom; the terms stay with the two sides (screened coins are secret)."""

    def tell(p: dict[str, Any], viewer: str | None) -> str:
        values = {
            "from": faction_name(p.get("from", p.get("player"))),
            "to": faction_name(p.get("to", p.get("player"))),
            "offer": p["offer"],
        }
        return _(template) % values

    return tell


GAME_TELLERS: dict[str, Teller] = {
    **WINTER_TELLERS,  # sealed orders, the rankings and the Mission Cards (winter_words.py)
    "GameStarted": _started,
    "ScenarioLoaded": lambda p, v: _("The game began from a prepared position."),
    "YearBegan": lambda p, v: _year_began(p["year"]),
    "IncomeReceived": _income,
    "TurnBegan": lambda p, v: (
        _("Action round %(round)s: %(player)s to play.")
        % {"player": faction_name(p["player"]), "round": p["action_round"]}
    ),
    "PlayerPassed": _passed,
    "PhalanxesRecruited": _recruited,
    "FortificationBuilt": lambda p, v: (
        _("%(player)s fortified %(space)s.") % {"player": faction_name(p["player"]), "space": p["space"]}
    ),
    "PolisFounded": _founded,
    "TradeLinkBuilt": lambda p, v: (
        _("%(player)s built a trade link between %(a)s and %(b)s.")
        % {"player": faction_name(p["player"]), "a": p["spaces"][0], "b": p["spaces"][1]}
    ),
    "ChoiceTilesDrawn": lambda p, v: (
        # The chooser is told which tiles: an email reply ("keep Milet") cannot choose without them.
        _("You drew %(tiles)s for %(space)s; keep one of them or neither.")
        % {
            "tiles": _("%(a)s and %(b)s") % {"a": tile_name(p["tiles"][0]), "b": tile_name(p["tiles"][1])},
            "space": p["space"],
        }
        if v == p["player"] and len(p.get("tiles") or []) == 2
        else _("%(player)s drew two tiles for %(space)s and chooses one.")
        % {"player": faction_name(p["player"]), "space": p["space"]}
    ),
    "FirstTileDrawn": lambda p, v: (
        # H-CHOICE-STEP: the chooser sees the tile and may keep it or ask for a second.
        _("You drew %(tile)s for %(space)s; keep it or draw a second tile.")
        % {"tile": tile_name(p["tile"]), "space": p["space"]}
        if v == p["player"]
        else _("%(player)s drew a tile for %(space)s and may draw a second.")
        % {"player": faction_name(p["player"]), "space": p["space"]}
    ),
    "SecondTileDrawn": lambda p, v: (
        _("You drew %(tile)s as a second tile for %(space)s; keep one of the two or neither.")
        % {"tile": tile_name(p["tile"]), "space": p["space"]}
        if v == p["player"]
        else _("%(player)s drew a second tile for %(space)s and chooses one.")
        % {"player": faction_name(p["player"]), "space": p["space"]}
    ),
    "TilesDiscarded": lambda p, v: (
        _("%(player)s discarded %(tiles)s.")
        % {"player": faction_name(p["player"]), "tiles": ", ".join(tile_name(t) for t in p["tiles"])}
    ),
    "UnitsMoved": _moved,
    "BattleFought": _battle,
    "PolisConquered": _conquered,
    "WinterBegan": lambda p, v: (
        (
            _("Winter of %(year)s: a scoring winter.")
            if p.get("scoring")
            else _("Winter of %(year)s: no scoring this winter.")
        )
        % {"year": year_label(p["year"])}
    ),
    "PhalanxesReinforced": lambda p, v: (
        ngettext(
            "%(player)s received %(n)s phalanx as reinforcement in %(space)s.",
            "%(player)s received %(n)s phalanxes as reinforcement in %(space)s.",
            p["phalanxes"],
        )
        % {"player": faction_name(p["player"]), "n": p["phalanxes"], "space": p["space"]}
    ),
    "GameEnded": _ended,
    "MissionDeckFormed": lambda p, v: _("The Mission deck was shuffled (%(n)s cards).") % {"n": p["size"]},
    "BuilderRecruited": lambda p, v: (
        _("%(player)s recruited a Builder in %(space)s.")
        % {"player": faction_name(p["player"]), "space": p["space"]}
    ),
    "BuildersFortified": lambda p, v: (
        _("%(player)s's Builders fortified %(space)s.")
        % {"player": faction_name(p["player"]), "space": p["space"]}
    ),
    "GovernmentReformed": lambda p, v: (
        str(GOVERNMENT_CHANGED[p["government"]]) % {"player": faction_name(p["player"])}
    ),
    "NeutralTraded": lambda p, v: (
        _("%(player)s traded with neutral Poleis: %(ap)s AP, %(fp)s FP, %(blanks)s.")
        % {
            "player": faction_name(p["player"]),
            "ap": p["ap"],
            "fp": p["fp"],
            "blanks": blanks_text(p["blanks"]),
        }
    ),
    "OfferMade": _offer(gettext_noop("%(from)s made %(to)s a trade offer (no. %(offer)s).")),
    "OfferAccepted": _offer(gettext_noop("%(to)s accepted the trade offer no. %(offer)s of %(from)s.")),
    "OfferDeclined": _offer(gettext_noop("%(to)s declined the trade offer no. %(offer)s of %(from)s.")),
    "OfferLapsed": _offer(gettext_noop("The trade offer no. %(offer)s of %(from)s to %(to)s lapsed.")),
}
