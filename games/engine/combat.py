"""Combat and conquest: S-COMBAT, S-COMBAT-EMPTY, S-LOOT, S-FORT, and the heroes who fall (H-HEROES).

`resolve_arrival` is called by movement for every destination the mover does not
control. It rolls every die here and writes it into the events, so the appliers below
only copy results into the state.

Pieces are never in limbo: units bound for a rival Polis stay counted on their origin
until their arrival event takes them off it (the fallen back to their faction's supply,
H-PIECES; the survivors onto the conquered Polis).
"""

from __future__ import annotations

from typing import Any

from .commands import Destination
from .data import HIT_MIN, KING_KILL_VP, MAX_DICE
from .events import Event
from .fold import applies, apply_events
from .fortification import absorb_hits, repaired
from .rng import GameRng
from .state import GameState, Polis


def units(phalanxes: int, king: bool, navigators: int, builders: int) -> dict[str, Any]:
    """The JSON form of a group of units, used in every move and combat payload."""
    return {"phalanxes": phalanxes, "king": king, "navigators": navigators, "builders": builders}


def force_units(force: Destination) -> dict[str, Any]:
    return units(force.phalanxes, force.king, force.navigators, force.builders)


def heroes_of(polis: Polis) -> dict[str, Any]:
    return {"king": polis.king, "navigators": polis.navigators, "builders": polis.builders}


def heroes_in(group: dict[str, Any]) -> dict[str, Any]:
    return {"king": group["king"], "navigators": group["navigators"], "builders": group["builders"]}


NO_HEROES: dict[str, Any] = {"king": False, "navigators": 0, "builders": 0}


def king_killed(victim: str | None, killer: str | None, heroes: dict[str, Any]) -> list[dict[str, Any]]:
    """H-HEROES: a fallen King gives its killer 2 VP; a neutral killer gives nobody VP."""
    if victim is None or not heroes["king"]:
        return []
    return [{"faction": victim, "killer": killer, "vp": KING_KILL_VP if killer else 0}]


def resolve_arrival(
    state: GameState, attacker: str, origin: str, force: Destination, rng: GameRng
) -> list[Event]:
    """Units of `attacker` arrive at a Polis held by a rival or neutral (S-COMBAT-EMPTY, S-COMBAT).

    With no defending phalanx the Polis falls without combat; otherwise a combat is
    fought and, if the attacker wins, the Polis is conquered by the survivors.
    """
    polis = state.board[force.space]
    if polis.phalanxes == 0:
        return [conquest(state, attacker, origin, force.space, force_units(force))]
    battle = fight(state, attacker, origin, force, rng)
    events = [battle]
    if battle.payload["winner"] == "attacker":
        survivors = units(
            battle.payload["attacker_phalanxes_left"], force.king, force.navigators, force.builders
        )
        fought = apply_events(state, [battle])
        events.append(conquest(fought, attacker, origin, force.space, survivors, after_battle=True))
    return events


def conquest(
    state: GameState,
    attacker: str,
    origin: str,
    space: str,
    arriving: dict[str, Any],
    after_battle: bool = False,
) -> Event:
    """S-COMBAT-EMPTY, S-LOOT, S-FORT: the Polis changes hands with its Fortifications and treasure.

    `state` is the position just before the conquest (after the combat, if one was
    fought). Heroes still standing there without a phalanx are captured; after a combat
    they have already fallen with their last phalanx, so nobody is left to capture.
    """
    polis = state.board[space]
    captured = heroes_of(polis)
    return Event(
        "PolisConquered",
        {
            "player": attacker,
            "origin": origin,
            "space": space,
            "previous_owner": polis.owner,
            "units": arriving,
            "loot": dict(sorted(polis.unminted_coins.items())),
            "fortification_hp": list(polis.fortification_hp),
            "after_battle": after_battle,
            "heroes_captured": captured,
            "kings_killed": king_killed(polis.owner, attacker, captured),
        },
    )


def roll_round(rng: GameRng, phalanxes: int) -> tuple[list[int], int]:
    """S-COMBAT: one die per phalanx, at most 4; each 3–6 is a hit."""
    dice = [rng.die() for _ in range(min(phalanxes, MAX_DICE))]
    return dice, sum(1 for d in dice if d >= HIT_MIN)


def fight(state: GameState, attacker: str, origin: str, force: Destination, rng: GameRng) -> Event:
    """S-COMBAT, S-FORT: one combat, round by round, every die written into the event.

    The defender fires first, then the attacker, alternating, until one side has no
    phalanxes; so an attacker wiped out in the defender's round never fires. Losses
    are removed after each roll; loss allocation is automatic (H-CHOICES). The
    attacker's hits land on the Fortifications first, one at a time, and spill over
    to the next and then to the phalanxes. Heroes fall with their side's last phalanx.
    """
    polis = state.board[force.space]
    defender = polis.owner
    attacking, defending = force.phalanxes, polis.phalanxes
    fortifications = list(polis.fortification_hp)
    rounds: list[dict[str, Any]] = []
    side = "defender"
    while attacking > 0 and defending > 0:
        if side == "defender":
            dice, hits = roll_round(rng, defending)
            fortification_hits, phalanx_hits = 0, min(hits, attacking)
            attacking -= phalanx_hits
        else:
            dice, hits = roll_round(rng, attacking)
            fortifications, fortification_hits, spill = absorb_hits(fortifications, hits)
            phalanx_hits = min(spill, defending)
            defending -= phalanx_hits
        rounds.append(
            {
                "side": side,
                "dice": dice,
                "hits": hits,
                "fortification_hits": fortification_hits,
                "phalanx_hits": phalanx_hits,
                "fortification_hp": list(fortifications),
                "attacker_phalanxes": attacking,
                "defender_phalanxes": defending,
            }
        )
        side = "attacker" if side == "defender" else "defender"

    attacker_won = defending == 0
    attacker_heroes_lost = NO_HEROES if attacker_won else heroes_in(force_units(force))
    defender_heroes_lost = heroes_of(polis) if attacker_won else NO_HEROES
    return Event(
        "BattleFought",
        {
            "attacker": attacker,
            "defender": defender,
            "origin": origin,
            "space": force.space,
            "attacking": force_units(force),
            "defending": units(polis.phalanxes, polis.king, polis.navigators, polis.builders),
            "fortification_hp_before": list(polis.fortification_hp),
            "rounds": rounds,
            "winner": "attacker" if attacker_won else "defender",
            "attacker_phalanxes_left": attacking,
            "defender_phalanxes_left": defending,
            "attacker_losses": force.phalanxes - attacking,
            "defender_losses": polis.phalanxes - defending,
            "fortification_hp_after": repaired(fortifications),
            "heroes_lost": {"attacker": attacker_heroes_lost, "defender": defender_heroes_lost},
            "kings_killed": (
                king_killed(attacker, defender, attacker_heroes_lost)
                + king_killed(defender, attacker, defender_heroes_lost)
            ),
        },
    )


def _remove_heroes(polis: Polis, heroes: dict[str, Any]) -> None:
    if heroes["king"]:
        polis.king = False
    polis.navigators -= heroes["navigators"]
    polis.builders -= heroes["builders"]


def _kill_kings(state: GameState, kings_killed: list[dict[str, Any]]) -> None:
    for death in kings_killed:
        state.players[death["faction"]].king_alive = False
        if death["killer"] is not None:
            state.players[death["killer"]].vp += death["vp"]


@applies("BattleFought")
def apply_battle_fought(state: GameState, p: dict[str, Any]) -> None:
    """The fallen leave the board: attackers from their origin, defenders from the Polis.

    Fallen phalanxes return to their faction's supply (H-PIECES); neutral ones vanish.
    """
    origin, polis = state.board[p["origin"]], state.board[p["space"]]
    origin.phalanxes -= p["attacker_losses"]
    state.players[p["attacker"]].phalanx_supply += p["attacker_losses"]
    _remove_heroes(origin, p["heroes_lost"]["attacker"])
    polis.phalanxes -= p["defender_losses"]
    if p["defender"] is not None:
        state.players[p["defender"]].phalanx_supply += p["defender_losses"]
    _remove_heroes(polis, p["heroes_lost"]["defender"])
    polis.fortification_hp = list(p["fortification_hp_after"])
    _kill_kings(state, p["kings_killed"])


@applies("PolisConquered")
def apply_polis_conquered(state: GameState, p: dict[str, Any]) -> None:
    """The conqueror's units march in; the Polis, its Fortifications and its loot change hands."""
    origin, polis = state.board[p["origin"]], state.board[p["space"]]
    arriving = p["units"]
    origin.phalanxes -= arriving["phalanxes"]
    _remove_heroes(origin, heroes_in(arriving))
    _remove_heroes(polis, p["heroes_captured"])
    polis.owner = p["player"]
    polis.phalanxes = arriving["phalanxes"]
    polis.king = arriving["king"]
    polis.navigators = arriving["navigators"]
    polis.builders = arriving["builders"]
    polis.fortification_hp = list(p["fortification_hp"])
    screen = state.players[p["player"]].coins_behind_screen
    for design, count in p["loot"].items():
        screen[design] = screen.get(design, 0) + count
    polis.unminted_coins = {}
    _kill_kings(state, p["kings_killed"])
