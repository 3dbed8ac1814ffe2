"""Expand: found a new Polis next to one you control (S-EXP, S-EXP-CHOICE, S-EXP-LINK, H-EXP-LINK,
H-NEUTRAL, H-CHOICES).

The space is named first, then the tile comes from the deck (a random face-down tile) or
the top of the discard pile. The new tile is a neutral Polis with its garrison and
treasure; the expanding player must conquer it by Move. With the Choice upgrade the
player sees two tiles and answers with ChooseTile (the game waits on the same player).
The upgrades' FP may be paid partly in Blanks (S-BLANK): the Blanks named in the order pay
the Choice first, when the tiles are drawn, and the rest pays the link when it is built.
"""

from __future__ import annotations

from typing import Any

from . import choice_step, data
from .board import adjacent, neighbours
from .commands import ChooseTile, Expand
from .events import Event, RuleViolation
from .fold import applies
from .payment import check_blanks, short_of_points
from .rng import GameRng
from .setup import draw_neutral_polis, draw_tile, place_neutral_polis
from .state import GameState, PendingChoice


def expand_cost(faction: str, choice: bool, link: bool) -> int:
    """S-EXP-CHOICE +1 FP (H-FACTION: Athens 0, from data), S-EXP-LINK +1 FP; at most 2 FP."""
    return (data.FACTIONS[faction].choice_cost_fp if choice else 0) + (data.LINK_FP if link else 0)


def expandable_spaces(state: GameState, faction: str) -> list[str]:
    """S-EXP: empty spaces adjacent (8 directions) to a Polis the faction controls."""
    spaces = {
        n
        for space, polis in state.board.items()
        if polis.owner == faction
        for n in neighbours(space)
        if n not in state.board
    }
    return sorted(spaces)


def reserved_for_link(state: GameState, faction: str) -> tuple[int, int]:
    """S-EXP-LINK, S-BLANK: the FP and Blanks a pending Choice Expand of `faction` still owes for its
    trade link (paid when the tile is placed); nothing else may spend them meanwhile (H-TRADE)."""
    pending = state.pending_choice
    if pending is None or pending.player != faction or pending.link_from is None:
        return 0, 0
    return data.LINK_FP - pending.link_blanks, pending.link_blanks


def _check_piles(state: GameState, sources: list[str]) -> None:
    """S-EXP: each source named must still hold a tile for its draw (two draws from one pile need two).

    Checked with the rest of the order, before `_take` draws anything from the seed: no draw is
    made for an order that is then refused.
    """
    if sources.count("deck") > len(state.deck):
        raise RuleViolation("S-EXP", "The Polis deck is empty.")
    if sources.count("discard") > len(state.discard):
        raise RuleViolation("S-EXP", "The discard pile is empty.")


def _take(state: GameState, sources: list[str], rng: GameRng) -> list[str]:
    """Draw one tile per source in turn (`_check_piles` has checked there are enough); a second
    discard draw takes the next tile down."""
    deck, discard, tiles = list(state.deck), list(state.discard), []
    for source in sources:
        if source == "deck":
            tile = draw_tile(deck, rng)
            deck.remove(tile)
        else:
            tile = discard.pop()
        tiles.append(tile)
    return tiles


def _sources(cmd: Expand) -> list[str]:
    return [cmd.source] if cmd.second_source is None else [cmd.source, cmd.second_source]


def _check_expand(state: GameState, cmd: Expand) -> None:
    if cmd.space in state.board:
        raise RuleViolation("S-EXP", "%(space)s is not empty.", space=cmd.space)
    if cmd.space not in expandable_spaces(state, cmd.player):
        raise RuleViolation("S-EXP", "%(space)s is not next to a Polis you control.", space=cmd.space)
    if cmd.link_from is not None:
        link_polis = state.board.get(cmd.link_from)
        if link_polis is None or link_polis.owner != cmd.player or not adjacent(cmd.link_from, cmd.space):
            raise RuleViolation(
                "H-EXP-LINK",
                "A trade link joins the new Polis to an adjacent Polis you control; %(link)s is not one.",
                link=cmd.link_from,
            )
    if cmd.choice_step:
        choice_step.check_version(state)
        if cmd.second_source is not None:
            raise RuleViolation(
                "S-EXP-CHOICE", "Name the second tile's source now or after the first tile, not both."
            )
    choice = cmd.second_source is not None
    cost = expand_cost(cmd.player, choice, cmd.link_from is not None)
    player = state.players[cmd.player]
    check_blanks(player, cost, cmd.blanks)
    if cost - cmd.blanks > player.fp:
        if cmd.blanks:
            raise short_of_points(
                "S-EXP-CHOICE" if choice else "S-EXP-LINK", cost, "FP", player.fp, cmd.blanks
            )
        raise RuleViolation(
            "S-EXP-CHOICE" if choice else "S-EXP-LINK",
            "This Expand costs %(cost)d FP; you have %(fp)d.",
            cost=cost,
            fp=state.players[cmd.player].fp,
        )
    _check_piles(state, _sources(cmd))


def founding_events(
    state: GameState,
    player: str,
    space: str,
    tile: str,
    source: str,
    link_from: str | None,
    rng: GameRng,
    link_blanks: int = 0,
) -> list[Event]:
    """Place `tile` on `space` as a neutral Polis (H-NEUTRAL) and build the link if ordered (S-EXP-LINK);
    `link_blanks` of the link's FP are paid in Blanks (S-BLANK)."""
    neutral = draw_neutral_polis(space, tile, state.bag, rng)
    events = [Event("PolisFounded", {"player": player, "source": source, **neutral})]
    if link_from is not None:
        paid = {"fp": data.LINK_FP - link_blanks, "blanks": link_blanks}
        events.append(
            Event("TradeLinkBuilt", {"player": player, "spaces": sorted([link_from, space]), **paid})
        )
    return events


def decide_expand(state: GameState, cmd: Expand, rng: GameRng) -> list[Event]:
    """S-EXP, S-EXP-CHOICE (first step), H-CHOICE-STEP (the first tile alone), S-EXP-LINK, H-EXP-LINK,
    S-BLANK."""
    _check_expand(state, cmd)
    sources = _sources(cmd)
    if cmd.choice_step:  # H-CHOICE-STEP: show the first tile; the Choice is decided after it
        (tile,) = _take(state, sources, rng)
        return choice_step.first_tile_events(state, cmd, tile)
    if cmd.second_source is None:
        (tile,) = _take(state, sources, rng)
        return founding_events(state, cmd.player, cmd.space, tile, cmd.source, cmd.link_from, rng, cmd.blanks)
    tiles = _take(state, sources, rng)
    # S-EXP-LINK's FP is paid when the tile is placed; the Choice FP now, when both are drawn.
    choice_cost = expand_cost(cmd.player, True, False)
    choice_blanks = min(cmd.blanks, choice_cost)
    payload = {
        "player": cmd.player,
        "space": cmd.space,
        "tiles": tiles,
        "sources": sources,
        "fp": choice_cost - choice_blanks,
        "blanks": choice_blanks,
        "link_from": cmd.link_from,
        "link_blanks": cmd.blanks - choice_blanks,
    }
    return [Event("ChoiceTilesDrawn", payload)]


def decide_choose_tile(state: GameState, cmd: ChooseTile, rng: GameRng) -> list[Event]:
    """S-EXP-CHOICE second step (H-CHOICES): keep one tile, or double-discard both in the chosen order;
    H-CHOICE-STEP: after the first tile alone, keep it or ask for the second."""
    pending = state.pending_choice
    if state.phase != "choice" or pending is None or pending.player != cmd.player:
        raise RuleViolation("S-EXP-CHOICE", "There is no tile choice waiting for you.")
    if len(pending.tiles) == 1:  # H-CHOICE-STEP: one tile seen; keep it or ask for a second
        if cmd.second_source is not None:
            return choice_step.decide_second_tile(state, cmd, rng)
        return choice_step.keep_first_events(state, cmd, rng)
    choice_step.check_no_second(cmd)
    if cmd.keep is None:
        if sorted(cmd.discard_order) != sorted(pending.tiles):
            raise RuleViolation(
                "S-EXP-CHOICE",
                "To keep neither tile, list both (%(tiles)s) in the order they go on the discard pile.",
                tiles=", ".join(pending.tiles),
            )
        # Double-discard: nothing is placed, so no link is built and its FP is not paid.
        return [Event("TilesDiscarded", {"player": cmd.player, "tiles": list(cmd.discard_order)})]
    if cmd.keep not in pending.tiles:
        raise RuleViolation(
            "S-EXP-CHOICE", "You can keep only one of %(tiles)s.", tiles=", ".join(pending.tiles)
        )
    if cmd.discard_order:
        raise RuleViolation("S-EXP-CHOICE", "Give a discard order only when you keep neither tile.")
    other = [t for t in pending.tiles if t != cmd.keep]
    return [
        Event("TilesDiscarded", {"player": cmd.player, "tiles": other}),
        *founding_events(
            state, cmd.player, pending.space, cmd.keep, "choice", pending.link_from, rng, pending.link_blanks
        ),
    ]


# --- appliers ----------------------------------------------------------------------------


def _remove_drawn(state: GameState, tile: str, source: str) -> None:
    (state.deck if source == "deck" else state.discard).remove(tile)


@applies("ChoiceTilesDrawn")
def _choice_tiles_drawn(state: GameState, payload: dict[str, Any]) -> None:
    for tile, source in zip(payload["tiles"], payload["sources"], strict=True):
        _remove_drawn(state, tile, source)
    player = state.players[payload["player"]]
    player.fp -= payload["fp"]
    player.blanks -= payload.get("blanks", 0)  # events older than S-BLANK carry none
    state.pending_choice = PendingChoice(
        player=payload["player"],
        space=payload["space"],
        tiles=list(payload["tiles"]),
        link_from=payload["link_from"],
        link_blanks=payload.get("link_blanks", 0),
    )
    state.phase = "choice"


@applies("TilesDiscarded")
def _tiles_discarded(state: GameState, payload: dict[str, Any]) -> None:
    state.discard.extend(payload["tiles"])  # the last one ends on top
    state.pending_choice = None
    state.phase = "actions"


@applies("PolisFounded")
def _polis_founded(state: GameState, payload: dict[str, Any]) -> None:
    if payload["source"] != "choice":
        _remove_drawn(state, payload["tile"], payload["source"])
    else:  # the kept tile ends the choice (H-CHOICE-STEP: a first tile kept alone discards nothing)
        state.pending_choice = None
        state.phase = "actions"
    place_neutral_polis(state, payload)


@applies("TradeLinkBuilt")
def _trade_link_built(state: GameState, payload: dict[str, Any]) -> None:
    player = state.players[payload["player"]]
    player.fp -= payload["fp"]
    player.blanks -= payload.get("blanks", 0)
    state.trade_links.append(list(payload["spaces"]))
    state.trade_links.sort()
