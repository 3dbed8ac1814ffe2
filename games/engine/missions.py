"""Mission Cards: the deck, the hands dealt at setup, the Oracle and the objective cards (H-MISSIONS).

Rules: H-SETUP (3 cards each, drawn at random), H-SCREEN (a hand is secret to everyone but its
owner until the game ends; the undrawn deck is secret too, since it would give the hands away),
H-ACTIONS Oracle (draw one card for 1 coin from behind the screen), and the objective cards,
claimed automatically at the end of the owner's own turn. The winter cards are resolved by
mission_scoring.py.
"""

from __future__ import annotations

from typing import Any

from . import data
from .board import is_space
from .commands import Command, Oracle
from .economy import add_coins, controlled_poleis, remove_coins
from .events import Event, RuleViolation
from .fold import applies
from .rng import GameRng
from .state import GameState
from .versions import SEED_WINS, plays_by

BLANK = "blank"  # an Oracle paid with a Blank instead of a screened coin (S-BLANK: a Blank is a coin)


def card(card_id: str) -> data.MissionCardData:
    return data.MISSION_CARDS[card_id]


def deck_of(rules_version: int | None) -> tuple[str, ...]:
    """H-MISSIONS: the Mission deck a game under `rules_version` deals (H-RULES-VERSION: from version 2 on,
    no card turns on Mints, S-INC)."""
    return data.mission_deck(plays_by(rules_version, SEED_WINS))


def in_force_id(card_id: str, rules_version: int | None) -> str:
    """The card a held card counts as under `rules_version`: from version 2 on, a Mints objective of a
    game begun under version 1 counts as its replacement (data.REPLACED_CARDS); else the card itself."""
    return data.REPLACED_CARDS.get(card_id, card_id) if plays_by(rules_version, SEED_WINS) else card_id


def card_in_force(state: GameState, card_id: str) -> data.MissionCardData | None:
    """What a held card asks for under the rules the game is played under now (in_force_id); None for an
    id no version knows."""
    return data.MISSION_CARDS.get(in_force_id(card_id, state.rules_version))


def draw_cards(deck: list[str], count: int, rng: GameRng) -> list[str]:
    """Draw `count` cards at random from the sorted remaining deck, one at a time; `deck` is not changed."""
    left, drawn = sorted(deck), []
    for _ in range(min(count, len(left))):
        drawn.append(left.pop(rng.randbelow(len(left), "card")))
    return drawn


def deal_hands(seat_order: list[str], rng: GameRng, rules_version: int | None) -> dict[str, list[str]]:
    """H-SETUP: every player is dealt 3 Mission Cards at random, in seat order.

    The hands go into "GameStarted" (`mission_hands`); event_view shows each player only their
    own, and the undrawn deck (the data file's cards less the hands) never appears in a view.
    """
    deck, hands = list(deck_of(rules_version)), {}
    for faction in seat_order:
        hands[faction] = draw_cards(deck, data.MISSION_CARDS_PER_PLAYER, rng)
        deck = [c for c in deck if c not in hands[faction]]
    return hands


def form_deck(state: GameState, hands: dict[str, list[str]]) -> None:
    """Fold the dealt hands (H-SETUP): the deck is every card of the game's rules version not in a hand."""
    dealt = {c for cards in hands.values() for c in cards}
    state.mission_deck = [c for c in deck_of(state.rules_version) if c not in dealt]
    state.mission_discard = []
    for faction, cards in hands.items():
        state.players[faction].mission_cards = list(cards)


# --- H-ACTIONS: Oracle -------------------------------------------------------------------------


def oracle_coin_choices(state: GameState, faction: str) -> list[str]:
    """What may pay for an Oracle: a design behind the screen, or a Blank (S-BLANK)."""
    player = state.players[faction]
    return sorted(d for d, n in player.coins_behind_screen.items() if n) + ([BLANK] if player.blanks else [])


def decide_oracle(state: GameState, cmd: Oracle, rng: GameRng) -> list[Event]:
    """H-ACTIONS Oracle: pay 1 coin from behind the screen (or a Blank), draw one Mission Card.

    The coin goes back into the bag (H-BAG; a Blank to the supply). Refused when the deck is
    empty or the named coin is not there.
    """
    if not state.mission_deck:
        raise RuleViolation("H-ACTIONS", "The Mission Card deck is empty; the Oracle has nothing to give.")
    if cmd.coin not in oracle_coin_choices(state, cmd.player):
        raise RuleViolation(
            "H-ACTIONS", "The Oracle costs 1 coin; you have no %(coin)s to pay with.", coin=cmd.coin
        )
    (drawn,) = draw_cards(state.mission_deck, 1, rng)
    return [Event("MissionCardDrawn", {"player": cmd.player, "card": drawn, "coin": cmd.coin})]


def legal_oracles(state: GameState, faction: str) -> list[Command]:
    if not state.mission_deck:
        return []
    return [Oracle(faction, coin=coin) for coin in oracle_coin_choices(state, faction)]


# --- Objective cards ---------------------------------------------------------------------------


def trade_links_held(state: GameState, faction: str) -> int:
    """Trade links with at least one end on a Polis the faction controls (a link is held from either end)."""
    return sum(1 for link in state.trade_links if any(_owner(state, s) == faction for s in link))


def _owner(state: GameState, space: str) -> str | None:
    polis = state.board.get(space) if is_space(space) else None
    return polis.owner if polis else None


def objective_progress(state: GameState, faction: str, kind: str) -> int:
    """How far the faction is toward an objective of `kind` (compared with the card's target)."""
    poleis = controlled_poleis(state, faction)
    if kind == "poleis":
        return len(poleis)
    if kind == "rival_native":
        return sum(1 for s in poleis if data.TILES[state.board[s].tile_id].native_of not in (None, faction))
    if kind == "trade_links":
        return trade_links_held(state, faction)
    if kind == "fortifications":
        return sum(len(state.board[s].fortification_hp) for s in poleis)
    if kind == "mints":  # rules version 1 only (card_in_force): a Mint counts only for the Mint ranking
        return sum(1 for s in poleis if data.TILES[state.board[s].tile_id].mint)
    raise ValueError(f"not an objective kind: {kind}")


def objectives_claimed(state: GameState, faction: str) -> list[Event]:
    """H-MISSIONS: at the end of the owner's own turn, every objective card in hand that is met is claimed.

    House reading: the claim is automatic (no order needed, nothing to forget); the card is
    shown, scores its VP and leaves the hand. A replaced card (card_in_force) is claimed for what it
    asks now, and the event names that card too ("counts_as").
    """
    events = []
    for card_id in state.players[faction].mission_cards:
        mission = card_in_force(state, card_id)
        if mission is None or mission.is_winter:
            continue
        progress = objective_progress(state, faction, mission.kind)
        if progress >= mission.target:
            payload = {"player": faction, "card": card_id, "kind": mission.kind, "vp": mission.vp}
            if mission.id != card_id:
                payload["counts_as"] = mission.id
            events.append(Event("MissionCardClaimed", {**payload, "progress": progress}))
    return events


# --- appliers ----------------------------------------------------------------------------------


@applies("MissionCardDrawn")
def _mission_card_drawn(state: GameState, payload: dict[str, Any]) -> None:
    player = state.players[payload["player"]]
    if payload["coin"] == BLANK:
        player.blanks -= data.ORACLE_COINS
    else:
        remove_coins(player.coins_behind_screen, {payload["coin"]: data.ORACLE_COINS})
        add_coins(state.bag, {payload["coin"]: data.ORACLE_COINS})
    state.mission_deck.remove(payload["card"])
    player.mission_cards.append(payload["card"])


def discard_card(state: GameState, faction: str, card_id: str) -> None:
    """A redeemed or claimed card leaves the hand face up (public from then on)."""
    state.players[faction].mission_cards.remove(card_id)
    state.mission_discard.append(card_id)


@applies("MissionCardClaimed")
def _mission_card_claimed(state: GameState, payload: dict[str, Any]) -> None:
    discard_card(state, payload["player"], payload["card"])
    state.players[payload["player"]].vp += payload["vp"]
