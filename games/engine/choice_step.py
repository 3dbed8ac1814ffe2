"""The Choice upgrade decided in steps (H-CHOICE-STEP, S-EXP-CHOICE, H-CHOICES; rules version 3).

The player names the space and the first tile's source with `Expand(choice_step=True)`, sees
the first tile, then answers with ChooseTile: keep it (it is placed), or pay the Choice's FP
for a second tile from either source and then keep either tile or discard both in a chosen
order (expansion.decide_choose_tile, as when both tiles were ordered at once). The game waits on
the same player throughout. Under rules versions 1 and 2 neither step exists, so a game
recorded under them replays exactly.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import data
from .commands import ChooseTile, Expand
from .events import Event, RuleViolation
from .fold import applies
from .payment import check_blanks, short_of_points
from .rng import GameRng
from .state import GameState, PendingChoice
from .versions import CHOICE_STEP, plays_by


def check_version(state: GameState) -> None:
    """H-CHOICE-STEP plays from rules version 3 on; an older game orders both tiles at once."""
    if not plays_by(state.rules_version, CHOICE_STEP):
        raise RuleViolation(
            "S-EXP-CHOICE",
            "This game's rules draw both tiles of a Choice at once; name the second source now.",
        )


def first_tile_events(state: GameState, cmd: Expand, tile: str) -> list[Event]:
    """H-CHOICE-STEP: the first tile is drawn and shown; nothing is paid yet but the link's
    Blanks named in the order, reserved (S-EXP-LINK: paid when the tile is placed)."""
    payload = {
        "player": cmd.player,
        "space": cmd.space,
        "tile": tile,
        "source": cmd.source,
        "link_from": cmd.link_from,
        "link_blanks": cmd.blanks,
    }
    return [Event("FirstTileDrawn", payload)]


def second_tile_cost(state: GameState, player: str) -> int:
    """S-EXP-CHOICE: the Choice's FP (H-FACTION: Athens pays none), asked when the second tile is drawn."""
    return data.FACTIONS[player].choice_cost_fp


def decide_second_tile(state: GameState, cmd: ChooseTile, rng: GameRng) -> list[Event]:
    """H-CHOICE-STEP: pay the Choice (FP beyond those the link keeps, S-BLANK) and draw the second
    tile from the source named; the player then keeps either tile or discards both."""
    from .expansion import _check_piles, _take  # the draws are Expand's own (no import cycle)

    pending = state.pending_choice
    assert pending is not None and cmd.second_source is not None
    cost = second_tile_cost(state, cmd.player)
    player = state.players[cmd.player]
    # Only the FP and Blanks the link does not keep are free for the Choice (S-EXP-LINK, S-BLANK).
    link_fp = data.LINK_FP - pending.link_blanks if pending.link_from else 0
    check_blanks(replace(player, blanks=player.blanks - pending.link_blanks), cost, cmd.blanks)
    fp = player.fp - link_fp
    if cost - cmd.blanks > fp:
        raise short_of_points("S-EXP-CHOICE", cost, "FP", max(fp, 0), cmd.blanks)
    _check_piles(state, [cmd.second_source])
    (tile,) = _take(state, [cmd.second_source], rng)
    payload = {
        "player": cmd.player,
        "space": pending.space,
        "tile": tile,
        "source": cmd.second_source,
        "fp": cost - cmd.blanks,
        "blanks": cmd.blanks,
    }
    return [Event("SecondTileDrawn", payload)]


def keep_first_events(state: GameState, cmd: ChooseTile, rng: GameRng) -> list[Event]:
    """H-CHOICE-STEP: the first tile is kept and placed (no Choice paid); the link is built if ordered."""
    from .expansion import founding_events

    pending = state.pending_choice
    assert pending is not None
    (first,) = pending.tiles
    if cmd.keep != first or cmd.discard_order:
        raise RuleViolation(
            "S-EXP-CHOICE",
            "You have seen one tile, %(tile)s: keep it, or ask for a second tile.",
            tile=first,
        )
    return founding_events(
        state, cmd.player, pending.space, first, "choice", pending.link_from, rng, pending.link_blanks
    )


def check_no_second(cmd: ChooseTile) -> None:
    """A second tile can be asked for only while one tile alone is shown."""
    if cmd.second_source is not None:
        raise RuleViolation("S-EXP-CHOICE", "Both tiles are drawn already; keep one or neither.")


# --- appliers ----------------------------------------------------------------------------


@applies("FirstTileDrawn")
def _first_tile_drawn(state: GameState, payload: dict[str, Any]) -> None:
    (state.deck if payload["source"] == "deck" else state.discard).remove(payload["tile"])
    state.pending_choice = PendingChoice(
        player=payload["player"],
        space=payload["space"],
        tiles=[payload["tile"]],
        link_from=payload["link_from"],
        link_blanks=payload["link_blanks"],
    )
    state.phase = "choice"


@applies("SecondTileDrawn")
def _second_tile_drawn(state: GameState, payload: dict[str, Any]) -> None:
    (state.deck if payload["source"] == "deck" else state.discard).remove(payload["tile"])
    player = state.players[payload["player"]]
    player.fp -= payload["fp"]
    player.blanks -= payload["blanks"]
    assert state.pending_choice is not None
    state.pending_choice.tiles.append(payload["tile"])


def second_tile_choices(state: GameState, player: str) -> list[ChooseTile]:
    """H-CHOICE-STEP's legal answers to the first tile alone: keep it, or a second tile from each
    source that holds one, if the Choice can be paid (S-BLANK: Blanks cover what the FP cannot)."""
    pending = state.pending_choice
    if pending is None or len(pending.tiles) != 1 or pending.player != player:
        return []
    out = [ChooseTile(player, keep=pending.tiles[0])]
    supply = state.players[player]
    link_fp = data.LINK_FP - pending.link_blanks if pending.link_from else 0
    fp, blanks = supply.fp - link_fp, supply.blanks - pending.link_blanks
    cost = second_tile_cost(state, player)
    needed = max(0, cost - max(fp, 0))
    if needed > blanks:
        return out
    for source, pile in (("deck", state.deck), ("discard", state.discard)):
        if pile:
            out.append(ChooseTile(player, second_source=source, blanks=needed))
    return out


def step_expands(state: GameState, player: str, spaces: list[str]) -> list[Expand]:
    """H-CHOICE-STEP's Expands (rules version 3 on): the first tile from each source that holds one."""
    if not plays_by(state.rules_version, CHOICE_STEP):
        return []
    sources = [s for s, pile in (("deck", state.deck), ("discard", state.discard)) if pile]
    return [Expand(player, space=space, source=s, choice_step=True) for space in spaces for s in sources]
