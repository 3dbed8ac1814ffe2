"""Events in plain words, for the player page and the turn emails (issue 4).

`describe(event_type, payload, viewer)` tells one event as `viewer` may know it: coins behind
another player's screen and others' sealed winter orders stay hidden (H-SCREEN,
H-WINTER-ORDERS) until they are revealed. Messages are English source strings for gettext.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

FACTION_NAMES = {
    "athens": gettext_lazy("Athens"),
    "sparta": gettext_lazy("Sparta"),
    "corinth": gettext_lazy("Corinth"),
    "thebes": gettext_lazy("Thebes"),
}
RANKING_NAMES = {
    "poleis": gettext_lazy("Poleis"),
    "coins": gettext_lazy("Coins"),
    "mint": gettext_lazy("Mint"),
}
SOURCE_NAMES = {"deck": gettext_lazy("the deck"), "discard": gettext_lazy("the discard pile")}
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


def coins_text(coins: dict[str, int]) -> str:
    """E.g. "2 owl, 1 turtle"; "no coins" when empty."""
    parts = [f"{count} {design}" for design, count in sorted(coins.items()) if count]
    return ", ".join(parts) if parts else _("no coins")


def _units(d: dict[str, Any]) -> str:
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


Teller = Callable[[dict[str, Any], str | None], str]


def _started(p: dict[str, Any], viewer: str | None) -> str:
    order = ", ".join(faction_name(f) for f in p["seat_order"])
    return _("The game began. Seat order: %(order)s.") % {"order": order}


def _income(p: dict[str, Any], viewer: str | None) -> str:
    values = {"player": faction_name(p["player"]), "ap": p["ap"], "fp": p["fp"]}
    if viewer == p["player"]:
        values["coins"] = coins_text(p["coins"])
        return _("You received %(ap)s AP, %(fp)s FP and %(coins)s.") % values
    return _("%(player)s received %(ap)s AP, %(fp)s FP and coins behind their screen.") % values


def _passed(p: dict[str, Any], viewer: str | None) -> str:
    if p.get("automatic"):
        return _("%(player)s passed automatically (no Polis left).") % {"player": faction_name(p["player"])}
    return _("%(player)s passed.") % {"player": faction_name(p["player"])}


def _founded(p: dict[str, Any], viewer: str | None) -> str:
    values = {"player": faction_name(p["player"]), "space": p["space"], "tile": p["tile"], "n": p["garrison"]}
    return (
        _("%(player)s expanded to %(space)s: a neutral Polis (%(tile)s) with a garrison of %(n)s.") % values
    )


def _moved(p: dict[str, Any], viewer: str | None) -> str:
    targets = "; ".join(f"{d['space']} ({_units(d)})" for d in p["destinations"])
    values = {
        "player": faction_name(p["player"]),
        "origin": p["origin"],
        "targets": targets,
        "fp": p["fp_paid"],
    }
    return _("%(player)s moved from %(origin)s to %(targets)s for %(fp)s FP.") % values


def _battle(p: dict[str, Any], viewer: str | None) -> str:
    winner = p["attacker"] if p["winner"] == "attacker" else p["defender"]
    values = {
        "space": p["space"],
        "attacker": faction_name(p["attacker"]),
        "defender": faction_name(p["defender"]),
        "winner": faction_name(winner),
        "al": p["attacker_losses"],
        "dl": p["defender_losses"],
    }
    return (
        _(
            "Battle at %(space)s: %(attacker)s attacked %(defender)s and %(winner)s won "
            "(losses: attacker %(al)s, defender %(dl)s)."
        )
        % values
    ) + _kings(p)


def _kings(p: dict[str, Any]) -> str:
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
    return "".join(f" {line}" for line in lines)


def _conquered(p: dict[str, Any], viewer: str | None) -> str:
    values = {"player": faction_name(p["player"]), "space": p["space"]}
    if p.get("loot") and viewer == p["player"]:
        values["loot"] = coins_text(p["loot"])
        return _("You conquered %(space)s and took its treasure: %(loot)s.") % values + _kings(p)
    return _("%(player)s conquered %(space)s.") % values + _kings(p)


def _sealed(p: dict[str, Any], viewer: str | None) -> str:
    if viewer == p["player"]:
        values = {"coins": coins_text(p["coins"]), "blanks": p.get("blanks", 0)}
        return _("You sealed your winter order: %(coins)s and %(blanks)s Blanks.") % values
    return _("%(player)s submitted a sealed winter order.") % {"player": faction_name(p["player"])}


def _revealed(p: dict[str, Any], viewer: str | None) -> str:
    parts = [
        _("%(player)s committed %(coins)s and %(blanks)s Blanks")
        % {"player": faction_name(f), "coins": coins_text(o["coins"]), "blanks": o["blanks"]}
        for f, o in p["orders"].items()
    ]
    return _("The winter orders were revealed: %(orders)s.") % {"orders": "; ".join(parts)}


def _ranked(p: dict[str, Any], viewer: str | None) -> str:
    scores = ", ".join(f"{faction_name(f)} +{vp} VP" for f, vp in p["vp"].items()) or _("nobody ranked")
    name = RANKING_NAMES.get(p["ranking"], p["ranking"])
    return _("%(ranking)s ranking: %(scores)s.") % {"ranking": name, "scores": scores}


def _ended(p: dict[str, Any], viewer: str | None) -> str:
    winners = ", ".join(faction_name(f) for f in p["winners"])
    return _("The game ended. Winner: %(winners)s.") % {"winners": winners}


TELLERS: dict[str, Teller] = {
    "GameStarted": _started,
    "ScenarioLoaded": lambda p, v: _("The game began from a prepared position."),
    "YearBegan": lambda p, v: _("The year %(year)s began.") % {"year": year_label(p["year"])},
    "IncomeReceived": _income,
    "TurnBegan": lambda p, v: (
        _("%(player)s is on turn (action round %(round)s).")
        % {"player": faction_name(p["player"]), "round": p["action_round"]}
    ),
    "PlayerPassed": _passed,
    "PhalanxesRecruited": lambda p, v: (
        _("%(player)s recruited %(n)s phalanxes in %(space)s.")
        % {"player": faction_name(p["player"]), "n": p["phalanxes"], "space": p["space"]}
    ),
    "FortificationBuilt": lambda p, v: (
        _("%(player)s fortified %(space)s.") % {"player": faction_name(p["player"]), "space": p["space"]}
    ),
    "PolisFounded": _founded,
    "TradeLinkBuilt": lambda p, v: (
        _("%(player)s built a trade link between %(a)s and %(b)s.")
        % {"player": faction_name(p["player"]), "a": p["spaces"][0], "b": p["spaces"][1]}
    ),
    "ChoiceTilesDrawn": lambda p, v: (
        _("%(player)s drew two tiles for %(space)s and chooses one.")
        % {"player": faction_name(p["player"]), "space": p["space"]}
    ),
    "TilesDiscarded": lambda p, v: (
        _("%(player)s discarded %(tiles)s.")
        % {"player": faction_name(p["player"]), "tiles": ", ".join(p["tiles"])}
    ),
    "UnitsMoved": _moved,
    "BattleFought": _battle,
    "PolisConquered": _conquered,
    "WinterBegan": lambda p, v: (
        (_("Winter of %(year)s: a scoring winter.") if p.get("scoring") else _("Winter of %(year)s."))
        % {"year": year_label(p["year"])}
    ),
    "WinterOrderSealed": _sealed,
    "WinterOrdersRevealed": _revealed,
    "RankingScored": _ranked,
    "PhalanxesReinforced": lambda p, v: (
        _("%(player)s received %(n)s phalanxes as reinforcement in %(space)s.")
        % {"player": faction_name(p["player"]), "n": p["phalanxes"], "space": p["space"]}
    ),
    "GameEnded": _ended,
}


def describe(event_type: str, payload: dict[str, Any], viewer: str | None) -> str:
    """One event in plain words, as `viewer` (a faction, or None for a spectator) may know it."""
    teller = TELLERS.get(event_type)
    if teller is None:
        return _("%(event)s happened.") % {"event": event_type}
    return teller(payload, viewer)


def command_label(command: Any) -> str:
    """An order in plain words, for the list of suggested orders on the player page."""
    d = command.to_dict()
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
        targets = "; ".join(f"{x['space']} ({_units(x)})" for x in d["destinations"])
        return _("Move from %(origin)s to %(targets)s") % {"origin": d["origin"], "targets": targets}
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
            return _("Keep tile %(tile)s") % {"tile": d["keep"]}
        return _("Keep neither tile")
    if kind == "commit_coins":
        coins = dict(d.get("coins") or [])
        return _("Commit %(coins)s and %(blanks)s Blanks") % {
            "coins": coins_text(coins),
            "blanks": d.get("blanks", 0),
        }
    return str(kind)
