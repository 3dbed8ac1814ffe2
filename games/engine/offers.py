"""H-TRADE transactions: an offer to one rival, accepted, declined or lapsed.

An offer is the offering player's Trade action; it is an event ("OfferMade") and nothing is
paid yet. The rival answers with AcceptOffer or DeclineOffer at any moment of the action rounds,
on turn or not, and the answer costs no action. Acceptance is checked against the state at that
moment and is atomic: if either side cannot pay every item, it is refused whole.

House readings (docs/rules.md, H-TRADE):
- The offer lapses when the action rounds of the year it was made end (winter begins), or as
  soon as either side can no longer pay what is public (AP, FP, Blanks, the Polis) or the
  offering player can no longer pay their coins. Whether the rival still holds the coins asked
  of them is checked only when they accept: a lapse would give their screen away (H-SCREEN).
- A handed-over Polis must be a non-native Polis with no hero (King, Navigator, Builder) on it.
  Its Fortifications and trade links stay with it (S-FORT); the giver's phalanxes on it go
  back to the giver's supply (H-PIECES), so the new controller receives it empty.
"""

from __future__ import annotations

from typing import Any

from . import data
from .commands import AcceptOffer, Bundle, DeclineOffer, OfferTrade
from .economy import add_coins, has_coins, remove_coins
from .events import Event, RuleViolation
from .expansion import reserved_for_link
from .fold import applies
from .state import GameState, TradeOffer

EMPTY = Bundle().payload()


def is_empty(bundle: dict[str, Any]) -> bool:
    return not (
        bundle["ap"] or bundle["fp"] or bundle["blanks"] or any(bundle["coins"].values()) or bundle["polis"]
    )


def handover_problem(state: GameState, faction: str, space: str) -> RuleViolation | None:
    """H-TRADE, S-FORT: a handed-over Polis is yours, not a Native Polis, and has no hero on it."""
    polis = state.board.get(space)
    if polis is None or polis.owner != faction:
        return RuleViolation(
            "H-TRADE", "%(space)s is not a Polis of %(player)s.", space=space, player=faction
        )
    if data.TILES[polis.tile_id].native_of is not None:
        return RuleViolation("H-TRADE", "A Native Polis cannot be handed over (%(space)s).", space=space)
    pending = state.pending_choice
    if pending is not None and pending.link_from == space:
        return RuleViolation(
            "H-TRADE",
            "%(space)s awaits the trade link of a Choice Expand; it cannot change hands now.",
            space=space,
        )
    if polis.king or polis.navigators or polis.builders:
        return RuleViolation(
            "H-TRADE", "Heroes stand on %(space)s; a Polis is handed over without them.", space=space
        )
    return None


def payment_problem(
    state: GameState, faction: str, bundle: dict[str, Any], check_coins: bool = True
) -> RuleViolation | None:
    """What `faction` cannot pay of `bundle` now (the first thing), or None when all of it can be paid."""
    player = state.players[faction]
    fp_owed, blanks_owed = reserved_for_link(state, faction)  # S-EXP-LINK: a pending link's FP is spoken for
    for item, have in (
        ("ap", player.ap),
        ("fp", player.fp - fp_owed),
        ("blanks", player.blanks - blanks_owed),
    ):
        if bundle[item] > have:
            return RuleViolation(
                "H-TRADE",
                "%(player)s cannot pay %(n)d %(item)s (has %(have)d).",
                player=faction,
                n=bundle[item],
                item=item.upper() if item != "blanks" else "Blanks",
                have=have,
            )
    if check_coins and not has_coins(player.coins_behind_screen, bundle["coins"]):
        return RuleViolation(
            "H-TRADE", "%(player)s does not hold the coins named in the offer.", player=faction
        )
    if bundle["polis"] is not None:
        return handover_problem(state, faction, bundle["polis"])
    return None


def decide_offer(state: GameState, cmd: OfferTrade) -> list[Event]:
    """H-TRADE: offer a transaction to one rival (the Trade action); the offering side must be able to pay."""
    if cmd.to == cmd.player or cmd.to not in state.players:
        raise RuleViolation("H-TRADE", "An offer goes to one rival in this game, not to %(to)s.", to=cmd.to)
    give, take = cmd.give.payload(), cmd.take.payload()
    if is_empty(give) and is_empty(take):
        raise RuleViolation("H-TRADE", "An offer must give or ask something.")
    problem = payment_problem(state, cmd.player, give) or (
        take["polis"] and handover_problem(state, cmd.to, take["polis"])
    )
    if problem:
        raise problem
    payload = {"player": cmd.player, "to": cmd.to, "offer": state.next_offer_id, "give": give, "take": take}
    return [Event("OfferMade", {**payload, "year": state.year})]


def _open_offer(state: GameState, offer_id: int, faction: str) -> TradeOffer:
    if state.phase not in ("actions", "choice"):
        raise RuleViolation("H-TRADE", "Offers are answered only during the action rounds.")
    offer = next((o for o in state.offers if o.id == offer_id), None)
    if offer is None or offer.to != faction:
        raise RuleViolation("H-TRADE", "There is no open offer %(offer)d to you.", offer=offer_id)
    return offer


def decide_accept(state: GameState, cmd: AcceptOffer) -> list[Event]:
    """H-TRADE: accept, checked against the state now and atomic — refused whole if any item can't be paid."""
    offer = _open_offer(state, cmd.offer, cmd.player)
    problem = payment_problem(state, offer.player, offer.give) or payment_problem(state, offer.to, offer.take)
    if problem:
        raise problem
    returned = {
        side: state.board[bundle["polis"]].phalanxes if bundle["polis"] else 0
        for side, bundle in (("give", offer.give), ("take", offer.take))
    }
    payload = {"player": cmd.player, "offer": offer.id, "from": offer.player, "give": offer.give}
    return [Event("OfferAccepted", {**payload, "take": offer.take, "phalanxes_returned": returned})]


def decide_decline(state: GameState, cmd: DeclineOffer) -> list[Event]:
    """H-TRADE: the rival declines; nothing changes hands."""
    offer = _open_offer(state, cmd.offer, cmd.player)
    return [Event("OfferDeclined", {"player": cmd.player, "offer": offer.id, "from": offer.player})]


def lapsed_offers(state: GameState) -> list[Event]:
    """H-TRADE: offers whose year's action rounds are over, or that a side can no longer pay, lapse."""
    events = []
    for offer in state.offers:
        if state.phase not in ("actions", "choice") or state.year != offer.year:
            reason = "deadline"
        elif payment_problem(state, offer.player, offer.give) or payment_problem(
            state, offer.to, offer.take, check_coins=False
        ):
            reason = "unpayable"
        else:
            continue
        events.append(
            Event("OfferLapsed", {"offer": offer.id, "from": offer.player, "to": offer.to, "reason": reason})
        )
    return events


def answers(state: GameState, faction: str) -> list[AcceptOffer | DeclineOffer]:
    """Legal answers of `faction` to the open offers made to them (accept only when it would succeed)."""
    out: list[AcceptOffer | DeclineOffer] = []
    if state.phase not in ("actions", "choice"):
        return out
    for offer in state.offers:
        if offer.to != faction:
            continue
        if not (
            payment_problem(state, offer.player, offer.give) or payment_problem(state, faction, offer.take)
        ):
            out.append(AcceptOffer(faction, offer=offer.id))
        out.append(DeclineOffer(faction, offer=offer.id))
    return out


# --- appliers ----------------------------------------------------------------------------------


@applies("OfferMade")
def _offer_made(state: GameState, p: dict[str, Any]) -> None:
    state.offers.append(
        TradeOffer(p["offer"], p["player"], p["to"], dict(p["give"]), dict(p["take"]), p["year"])
    )
    state.next_offer_id = p["offer"] + 1


def _close(state: GameState, offer_id: int) -> None:
    state.offers = [o for o in state.offers if o.id != offer_id]


def _pay(state: GameState, payer: str, receiver: str, bundle: dict[str, Any], returned: int) -> None:
    giver, taker = state.players[payer], state.players[receiver]
    giver.ap, taker.ap = giver.ap - bundle["ap"], taker.ap + bundle["ap"]
    giver.fp, taker.fp = giver.fp - bundle["fp"], taker.fp + bundle["fp"]
    giver.blanks, taker.blanks = giver.blanks - bundle["blanks"], taker.blanks + bundle["blanks"]
    remove_coins(giver.coins_behind_screen, bundle["coins"])
    add_coins(taker.coins_behind_screen, bundle["coins"])
    if bundle["polis"] is not None:
        polis = state.board[bundle["polis"]]
        polis.owner = receiver  # S-FORT: its Fortifications stay and are the receiver's now
        polis.phalanxes -= returned
        giver.phalanx_supply += returned


@applies("OfferAccepted")
def _offer_accepted(state: GameState, p: dict[str, Any]) -> None:
    _pay(state, p["from"], p["player"], p["give"], p["phalanxes_returned"]["give"])
    _pay(state, p["player"], p["from"], p["take"], p["phalanxes_returned"]["take"])
    _close(state, p["offer"])


@applies("OfferDeclined")
def _offer_declined(state: GameState, p: dict[str, Any]) -> None:
    _close(state, p["offer"])


@applies("OfferLapsed")
def _offer_lapsed(state: GameState, p: dict[str, Any]) -> None:
    _close(state, p["offer"])
