"""Winter Mission Cards: redeemed in the sealed winter order, resolved in S-WINTER's order (H-MISSIONS).

S-WINTER: (1) Monopoly, Coin multiplier, Coin combos & flushes and Extra scoring act before the
rankings; (2) Poleis, Coins, Mint; (3) Second coin scoring after them. At most one winter card
per player per scoring. S-BLANK: Blanks fill combos and flushes at 1 VP each, and the card's
coins leave with it (coins back into the bag, Blanks to the supply).

House readings (docs/rules.md, H-MISSIONS):
- Monopoly of a resource: the Poleis you control print more of it (AP, FP or coins) than the
  Poleis of each other player; redeeming it without the Monopoly is refused.
- Combo and Flush coins are named in the order apart from the committed coins: they are spent
  on the card and do not count in the rankings.
- Coin multiplier doubles the card owner's value in the Coin ranking (and in any Second coin
  scoring of the same winter); Extra scoring pays the owner's Poleis-ranking VP once more.
"""

from __future__ import annotations

from typing import Any

from . import data
from .commands import CommitCoins
from .economy import add_coins, coin_count, controlled_poleis, remove_coins
from .events import Event, RuleViolation
from .fold import applies
from .missions import discard_card
from .state import GameState

BEFORE_RANKINGS = ("monopoly", "coin_multiplier", "combo", "flush", "extra_scoring")


def printed_total(state: GameState, faction: str, resource: str) -> int:
    """What the faction's Poleis print of `resource` ("ap", "fp" or "coins")."""
    return sum(
        getattr(data.TILES[state.board[s].tile_id], resource) for s in controlled_poleis(state, faction)
    )


def holds_monopoly(state: GameState, faction: str, resource: str) -> bool:
    """H-MISSIONS (house reading): strictly more of the printed resource than every other player."""
    mine = printed_total(state, faction, resource)
    return mine > 0 and all(
        mine > printed_total(state, other, resource) for other in state.seat_order if other != faction
    )


def combo_penalty_vp(card: data.MissionCardData, coins: dict[str, int], blanks: int) -> int:
    """S-BLANK: the card's VP less 1 for each Blank used."""
    return card.vp - blanks if card.kind in ("combo", "flush") else card.vp


def _check_card_coins(card: data.MissionCardData, coins: dict[str, int], blanks: int) -> None:
    if card.kind not in ("combo", "flush"):
        if coins or blanks:
            raise RuleViolation("H-MISSIONS", "Only a Combo or Flush card takes coins.")
        return
    if coin_count(coins) + blanks != card.target:
        raise RuleViolation(
            "H-MISSIONS", "This card takes exactly %(n)d coins (Blanks included).", n=card.target
        )
    if card.kind == "combo" and any(n > 1 for n in coins.values()):
        raise RuleViolation("H-MISSIONS", "A Combo needs 3 different designs; Blanks fill the gaps.")
    if card.kind == "flush" and len(coins) > 1:
        raise RuleViolation("H-MISSIONS", "A Flush needs 4 coins of one design; Blanks fill the gaps.")


def check_winter_card(state: GameState, cmd: CommitCoins) -> None:
    """S-WINTER: at most one card. H-MISSIONS: a winter card from the hand, its terms met."""
    if len(cmd.mission_cards) > 1:
        raise RuleViolation("S-WINTER", "You may redeem at most one winter Mission Card per scoring.")
    if not cmd.mission_cards:
        if cmd.card_coins or cmd.card_blanks:
            raise RuleViolation("H-MISSIONS", "Coins for a card need a Combo or Flush card to go with them.")
        return
    (card_id,) = cmd.mission_cards
    if card_id not in state.players[cmd.player].mission_cards:
        raise RuleViolation("H-MISSIONS", "%(card)s is not in your hand.", card=card_id)
    card = data.MISSION_CARDS[card_id]
    if not card.is_winter:
        raise RuleViolation(
            "H-MISSIONS",
            "%(card)s is an objective card: it is claimed at the end of your turn.",
            card=card_id,
        )
    _check_card_coins(card, dict(cmd.card_coins), cmd.card_blanks)
    if card.kind == "monopoly" and not holds_monopoly(state, cmd.player, card.resource or ""):
        raise RuleViolation(
            "H-MISSIONS", "You do not hold the Monopoly of %(resource)s.", resource=card.resource
        )


def sealed_card(cmd: CommitCoins) -> dict[str, Any]:
    """The card part of a sealed winter order (payload of WinterOrderSealed)."""
    return {
        "mission_card": cmd.mission_cards[0] if cmd.mission_cards else None,
        "card_coins": dict(cmd.card_coins),
        "card_blanks": cmd.card_blanks,
    }


def redeemed_cards(state: GameState, kinds: tuple[str, ...]) -> list[tuple[str, data.MissionCardData]]:
    """(faction, card) of the sealed orders naming a card of `kinds`, in seat order."""
    out = []
    for faction in state.seat_order:
        card_id = state.winter_orders.get(faction, {}).get("mission_card")
        if card_id and data.MISSION_CARDS[card_id].kind in kinds:
            out.append((faction, data.MISSION_CARDS[card_id]))
    return out


def coin_multiplier(state: GameState, faction: str) -> int:
    """H-MISSIONS Coin multiplier: the owner's committed coins count double in the Coin ranking."""
    return 2 if any(f == faction for f, _ in redeemed_cards(state, ("coin_multiplier",))) else 1


def _redeemed(state: GameState, faction: str, card: data.MissionCardData, vp: int) -> Event:
    order = state.winter_orders[faction]
    return Event(
        "MissionCardRedeemed",
        {
            "player": faction,
            "card": card.id,
            "kind": card.kind,
            "vp": vp,
            "coins": dict(order.get("card_coins", {})),
            "blanks": order.get("card_blanks", 0),
        },
    )


def before_rankings(state: GameState, poleis_vp: dict[str, int]) -> list[Event]:
    """S-WINTER (1): Monopoly, Coin multiplier, Combos and Flushes, Extra scoring, in seat order.

    `poleis_vp` is what the Poleis ranking about to be scored pays; Extra scoring pays it again.
    """
    events = []
    for faction, card in redeemed_cards(state, BEFORE_RANKINGS):
        order = state.winter_orders[faction]
        if card.kind == "extra_scoring":
            vp = poleis_vp.get(faction, 0)
        else:
            vp = combo_penalty_vp(card, order.get("card_coins", {}), order.get("card_blanks", 0))
        events.append(_redeemed(state, faction, card, vp))
    return events


def after_rankings(state: GameState, coins_ranking: dict[str, Any]) -> list[Event]:
    """S-WINTER (3): each Second-coin-scoring card scores the Coin ranking once more, for everyone."""
    events = []
    for faction, card in redeemed_cards(state, ("second_coin_scoring",)):
        events.append(_redeemed(state, faction, card, 0))
        events.append(Event("RankingScored", {**coins_ranking, "card": card.id}))
    return events


def winter_card_orders(state: GameState, faction: str) -> list[CommitCoins]:
    """Sealed orders redeeming each winter card in hand whose terms can be met (for bots and the page)."""
    player = state.players[faction]
    screen, out = player.coins_behind_screen, []
    for card_id in sorted(set(player.mission_cards)):
        card = data.MISSION_CARDS.get(card_id)
        if card is None or not card.is_winter:
            continue
        if card.kind == "monopoly" and not holds_monopoly(state, faction, card.resource or ""):
            continue
        coins: dict[str, int] = {}
        if card.kind == "combo":
            coins = {d: 1 for d in sorted(screen)[: card.target]}
        elif card.kind == "flush" and screen:
            design = max(sorted(screen), key=lambda d: screen[d])
            coins = {design: min(screen[design], card.target)}
        blanks = card.target - coin_count(coins) if card.kind in ("combo", "flush") else 0
        if blanks > player.blanks:
            continue
        out.append(
            CommitCoins(
                faction, mission_cards=(card_id,), card_coins=tuple(sorted(coins.items())), card_blanks=blanks
            )
        )
    return out


@applies("MissionCardRedeemed")
def _mission_card_redeemed(state: GameState, payload: dict[str, Any]) -> None:
    # S-BLANK: a combo's coins leave with the card — coins into the bag, Blanks to the supply.
    player = state.players[payload["player"]]
    discard_card(state, payload["player"], payload["card"])
    remove_coins(player.coins_behind_screen, payload["coins"])
    add_coins(state.bag, payload["coins"])
    player.blanks -= payload["blanks"]
    player.vp += payload["vp"]
