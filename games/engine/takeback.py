"""H-TAKEBACK: taking back the last order of the game, when it drew nothing and revealed nothing.

The player who gave the last order may take it back until the next order of the game is given, if
its batch drew no randomness (no die, coin, tile or card, no salt) and revealed nothing (no Mission
Card claimed, no trade answered, no winter reveal, not the end). Nothing is deleted: the take-back
is an event of its own, "OrderTakenBack", appended after the batch. It carries the state's fields
as they were before the order (`restore`), so the fold puts them back without knowing the log; the
verifier decides the take-back again from the state before the batch and compares (replay.py).

A sealed winter order is not taken back: it is sealed again until the reveal (winter.decide_commit).
The restore names screens and hands, so `view.event_view` shows it to nobody before the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .events import Event, RuleViolation
from .fold import applies
from .record import ORDER_GIVEN, RANDOMNESS_DRAWN
from .state import GameState, PendingChoice, Player, Polis, TradeOffer
from .versions import RULES_VERSION, TAKE_BACK, rules_version_of

ORDER_TAKEN_BACK = "OrderTakenBack"

# The events a batch may hold and still be taken back: each only moves what the order paid for or
# the turn, and shows nobody anything they could not see before. Any other event refuses it.
QUIET_EVENTS = frozenset(
    {
        ORDER_GIVEN,
        RANDOMNESS_DRAWN,
        "PlayerPassed",
        "PhalanxesRecruited",
        "FortificationBuilt",
        "GovernmentReformed",
        "BuilderRecruited",
        "UnitsMoved",
        "PolisConquered",  # an empty Polis taken without a battle (a battle rolls dice)
        "PolisFounded",  # from the discard pile, with no treasure to draw (a deck tile is a draw)
        "TradeLinkBuilt",
        "ChoiceTilesDrawn",  # both from the discard pile, face up already
        "TilesDiscarded",
        "NeutralTraded",
        "OfferMade",
        "OfferLapsed",
        "TurnBegan",
        "WinterBegan",
        "BuildersFortified",
        "PhalanxesReinforced",
        "YearBegan",
    }
)


def _drawn(label: str) -> RuleViolation:
    """What the player is told for the first kind of draw in the batch (RandomnessDrawn's labels)."""
    if label == "die":
        return RuleViolation("H-TAKEBACK", "Dice were rolled: the order stands.")
    if label == "tile":
        return RuleViolation("H-TAKEBACK", "A tile was drawn from the deck: the order stands.")
    if label == "coin":
        return RuleViolation("H-TAKEBACK", "Coins were drawn from the bag: the order stands.")
    if label == "card":
        return RuleViolation("H-TAKEBACK", "A Mission Card was drawn: the order stands.")
    return RuleViolation("H-TAKEBACK", "Something was drawn at random: the order stands.")


def _shown(event_type: str) -> RuleViolation:
    """What the player is told for the first event of the batch that is not quiet."""
    if event_type in ("MissionCardClaimed", "MissionCardRedeemed"):
        return RuleViolation("H-TAKEBACK", "A Mission Card was revealed: the order stands.")
    if event_type == "GameEnded":
        return RuleViolation("H-TAKEBACK", "The game has ended: the order stands.")
    return RuleViolation("H-TAKEBACK", "Something was revealed: the order stands.")


# The state's fields a take-back never puts back: the count of events folded only grows.
_KEPT = ("events_applied",)
_BY_KEY = ("board", "players")  # restored entry by entry, so a batch's restore stays small


def decide_take_back(
    before: GameState, after: GameState, batch: Sequence[Event], order_seq: int, player: str
) -> Event:
    """H-TAKEBACK: "OrderTakenBack" of the order whose batch is `batch` (its "OrderGiven", at seq
    `order_seq`, first; every event of the game after it, table events left out), asked by `player`.
    `before` is the state before the batch, `after` the state now. Raises RuleViolation("H-TAKEBACK")
    with the reason when the order stands; changes nothing."""
    refusal = why_it_stands(batch, player)
    if refusal is not None:
        raise refusal
    given = batch[0].payload
    payload = {
        "player": player,
        "order_seq": order_seq,
        "kind": given["command"]["kind"],
        "restore": restore(before, after),
        "rules_version": RULES_VERSION,
    }
    return Event(ORDER_TAKEN_BACK, payload)


def why_it_stands(batch: Sequence[Event], player: str) -> RuleViolation | None:
    """H-TAKEBACK: why the last order of the game cannot be taken back by `player` (a refusal fit for
    the player, not raised), or None when it can. `batch` as for decide_take_back."""
    if not batch or batch[0].type != ORDER_GIVEN:
        return RuleViolation("H-TAKEBACK", "There is no order to take back.")
    given = batch[0].payload
    if not _plays_by_take_back(given):
        return RuleViolation("H-TAKEBACK", "This game is played under rules without take-backs.")
    if given["player"] != player:
        return moved_on()
    if any(e.type == ORDER_TAKEN_BACK for e in batch):
        return RuleViolation("H-TAKEBACK", "That order was taken back already.")
    if given.get("by", "player") != "player":
        return RuleViolation("H-TAKEBACK", "An order given on your behalf after a deadline stands.")
    kind = given["command"]["kind"]
    if kind == "commit_coins":
        return RuleViolation(
            "H-TAKEBACK", "A sealed winter order is not taken back: seal it again until the reveal."
        )
    if kind in ("accept_offer", "decline_offer"):
        return RuleViolation("H-TAKEBACK", "An answer to a trade offer stands: the other side has it.")
    labels = [d[0] for e in batch if e.type == RANDOMNESS_DRAWN for d in e.payload.get("draws") or ()]
    if labels:
        return _drawn(labels[0])
    loud = next((e.type for e in batch if e.type not in QUIET_EVENTS), None)
    if loud is not None:
        return _shown(loud)
    return None


def why_it_would_stand(batch: Sequence[Event]) -> RuleViolation | None:
    """H-TAKEBACK, before the order is given: why, once given, it could not be taken back, or None.
    `batch` as decide_recorded builds it, for a preview with draws of a seed that is not the game's:
    whether it draws (a battle's dice, a tile from the deck) or reveals something does not depend on
    the seed. A sealed winter order may be sealed again instead (nothing to say)."""
    if not _plays_by_take_back(batch[0].payload):
        return None  # rules without take-backs: no order is offered one, none need a warning
    kind = batch[0].payload["command"]["kind"]
    if kind in ("accept_offer", "decline_offer"):
        return RuleViolation(
            "H-TAKEBACK", "Once given, it cannot be taken back: the other side has your answer."
        )
    if kind == "commit_coins":
        return None
    labels = [d[0] for e in batch if e.type == RANDOMNESS_DRAWN for d in e.payload.get("draws") or ()]
    if labels:
        return _will_draw(labels[0])
    loud = next((e.type for e in batch if e.type not in QUIET_EVENTS), None)
    return None if loud is None else _will_show(loud)


def _will_draw(label: str) -> RuleViolation:
    if label == "die":
        return RuleViolation("H-TAKEBACK", "Once given, it cannot be taken back: dice are rolled.")
    if label == "tile":
        return RuleViolation(
            "H-TAKEBACK", "Once given, it cannot be taken back: a tile is drawn from the deck."
        )
    if label == "coin":
        return RuleViolation(
            "H-TAKEBACK", "Once given, it cannot be taken back: coins are drawn from the bag."
        )
    if label == "card":
        return RuleViolation("H-TAKEBACK", "Once given, it cannot be taken back: a Mission Card is drawn.")
    return RuleViolation("H-TAKEBACK", "Once given, it cannot be taken back: something is drawn at random.")


def _will_show(event_type: str) -> RuleViolation:
    if event_type in ("MissionCardClaimed", "MissionCardRedeemed"):
        return RuleViolation("H-TAKEBACK", "Once given, it cannot be taken back: a Mission Card is revealed.")
    if event_type == "GameEnded":
        return RuleViolation("H-TAKEBACK", "Once given, it cannot be taken back: it ends the game.")
    return RuleViolation("H-TAKEBACK", "Once given, it cannot be taken back: something is revealed.")


def moved_on() -> RuleViolation:
    """H-TAKEBACK: the refusal when the order asked for is no longer the game's last."""
    return RuleViolation(
        "H-TAKEBACK", "The game has moved on: only the last order of the game can be taken back."
    )


def _plays_by_take_back(given: dict[str, Any]) -> bool:
    version = rules_version_of(given)
    return version is not None and version >= TAKE_BACK


def restore(before: GameState, after: GameState) -> dict[str, Any]:
    """The fields of `before` that `after` changed, as JSON: the board and the players entry by
    entry (None: an entry that was not there before), every other field whole."""
    old, new = before.to_dict(), after.to_dict()
    changed: dict[str, Any] = {}
    for name, value in old.items():
        if name in _KEPT or new[name] == value:
            continue
        if name in _BY_KEY:
            keys = set(value) | set(new[name])
            changed[name] = {k: value.get(k) for k in sorted(keys) if value.get(k) != new[name].get(k)}
        else:
            changed[name] = value
    return changed


@applies(ORDER_TAKEN_BACK)
def _order_taken_back(state: GameState, payload: dict[str, Any]) -> None:
    """H-TAKEBACK: the state as it was before the order taken back (only the count of events grows)."""
    for name, value in payload["restore"].items():
        if name == "board":
            _put_back(state.board, value, Polis)
        elif name == "players":
            _put_back(state.players, value, Player)
        elif name == "offers":
            state.offers = [TradeOffer(**o) for o in value]
        elif name == "pending_choice":
            state.pending_choice = PendingChoice(**value) if value else None
        elif isinstance(value, (dict, list)):
            setattr(state, name, _copied(value))
        else:
            setattr(state, name, value)


def _put_back(entries: dict[str, Any], restored: dict[str, Any], cls: type) -> None:
    for key, value in restored.items():
        if value is None:
            entries.pop(key, None)
        else:
            entries[key] = cls(**_copied(value))


def _copied(value: Any) -> Any:
    # The payload is the log's: the state must not share its lists and dicts.
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value
