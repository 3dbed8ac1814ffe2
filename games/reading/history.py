"""A game's history as one reader may know it (docs/order-loop.md): the log in plain words,
and the board at any event.

Every event passes engine.event_view (through narration.describe) before it is told, so the
history hides exactly what the player page hides (H-SCREEN, H-MISSIONS, H-WINTER-ORDERS) and
shows everything once the game has ended (H-END). The board at an event is the state folded up
to that seq from the nearest snapshot (log_reading.load_state), seen through engine.player_view.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.engine.table import TABLE_EVENTS
from games.engine.view import HIDDEN
from games.models import Event, Game
from games.reading.situation import is_over, last_turn_start, load_game
from games.words.names import coins_text, faction_name
from games.words.narration import UNTOLD, describe, is_told
from games.words.trade import card_names

# Payload keys that name the factions an event concerns (the player filter).
PARTY_KEYS = ("player", "attacker", "defender", "from", "to", "previous_owner")


@dataclass(frozen=True)
class HistoryEntry:
    seq: int
    type: str
    created: datetime
    year: int | None
    text: str
    parties: frozenset[str]
    commitment: str  # H-WINTER-ORDERS: a sealed order's commitment, public at once
    taken_back: bool = False  # H-TAKEBACK: of an order's batch that a later OrderTakenBack undid


def _parties(payload: dict[str, Any], actor: str) -> frozenset[str]:
    found = {actor}
    for key in PARTY_KEYS:
        value = payload.get(key)
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list):
            found.update(v for v in value if isinstance(v, str))
    return frozenset(found - {HIDDEN, ""})


def _opening_year(event_type: str, payload: dict[str, Any]) -> int | None:
    if event_type == "ScenarioLoaded":
        return payload.get("state", {}).get("year")
    return engine.GameState().year if event_type == "GameStarted" else None


def history(
    game: Game,
    viewer: str | None,
    *,
    year: int | None = None,
    player: str | None = None,
    since_seq: int | None = None,
) -> list[HistoryEntry]:
    """The told events, oldest first, as `viewer` may know them; filtered by year, player and seq.
    H-TAKEBACK: the events of an order's batch that was taken back stay in the log, and are marked
    (the order's events from its OrderGiven up to the take-back, the table's events between left as
    they are): the same winter is not told as beginning twice without a word why."""
    over = is_over(game)
    entries, current_year = [], None
    undone: list[tuple[int, int]] = []  # (OrderGiven's seq, OrderTakenBack's seq)
    rows = (
        Event.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "type", "payload", "actor", "created")
    )
    for seq, event_type, payload, actor, created in rows.iterator():
        if event_type == engine.ORDER_TAKEN_BACK:
            undone.append((payload["order_seq"], seq))
        current_year = _opening_year(event_type, payload) or current_year
        if event_type == "YearBegan":
            current_year = payload["year"]
        if not is_told(event_type):
            continue
        if (since_seq is not None and seq < since_seq) or (year is not None and current_year != year):
            continue
        shown = engine.event_view(engine.Event(event_type, payload), viewer, over)["payload"]
        # A private message the reader may not read hides its sender too: its actor is the sender.
        parties = _parties(shown, HIDDEN if shown.get("player") == HIDDEN else actor)
        if player is not None and player not in parties:
            continue
        entries.append(
            HistoryEntry(
                seq=seq,
                type=event_type,
                created=created,
                year=current_year,
                text=describe(event_type, payload, viewer, over, game=game),
                parties=parties,
                commitment=shown.get("commitment", "") if event_type == "WinterOrderSealed" else "",
            )
        )
    return [
        replace(entry, taken_back=True)
        if entry.type not in TABLE_EVENTS and any(first <= entry.seq < back for first, back in undone)
        else entry
        for entry in entries
    ]


def years_of(game: Game) -> list[int]:
    """The years the game has reached (for the year filter)."""
    years = Event.objects.filter(game=game, type="YearBegan").values_list("payload__year", flat=True)
    return sorted(set(years), reverse=True)


def default_since(game: Game, viewer: str | None) -> int | None:
    """ "Since my last turn": from the reader's last order on; the organiser reads everything."""
    return last_turn_start(game, viewer) if viewer is not None else None


@dataclass(frozen=True)
class BoardAt:
    seq: int  # the told event whose line the board stands after
    last_seq: int  # the last told event: the board there is the board now
    previous_seq: int  # the told events before and after seq (seq itself at either end)
    next_seq: int
    view: dict[str, Any]
    supplies: list[dict[str, Any]]

    @property
    def now(self) -> bool:
        """The board at the head of the log: nothing told has happened since."""
        return self.seq == self.last_seq


def _told_seq(game: Game, *, before: int | None = None, after: int | None = None, last: bool) -> int | None:
    rows = Event.objects.filter(game=game).exclude(type__in=UNTOLD)
    if before is not None:
        rows = rows.filter(seq__lt=before)
    if after is not None:
        rows = rows.filter(seq__gt=after)
    return rows.order_by("-seq" if last else "seq").values_list("seq", flat=True).first()


def board_at(game: Game, seq: int | None, viewer: str | None) -> BoardAt:
    """The board and each player's supplies just after event `seq` (None: now), as `viewer` may see them.

    The board is named by a told event, a line of the history: an untold one (the record around an
    order: its OrderGiven, its RandomnessDrawn) moves nothing on the board, so `seq` falls back to
    the told event at or before it, and that board is folded up to just before the next told event,
    the head of the log after the last one. So the board after the last line is the board now,
    never "event 6 of 7" under a list whose last line is 6.

    Folded from the nearest snapshot at or before that seq. The board goes through player_view
    (H-SCREEN); once the game has ended the screens and hands are shown at every seq (H-END).
    """
    last_told = _told_seq(game, last=True) or 1
    asked = last_told if seq is None else max(1, min(seq, last_told))
    told = _told_seq(game, before=asked + 1, last=True) or _told_seq(game, last=False) or last_told
    following = _told_seq(game, after=told, last=False)
    up_to = following - 1 if following is not None else None
    state = load_game(game, up_to_seq=up_to).state
    view = engine.player_view(state, viewer)
    if is_over(game):
        full = state.to_dict()["players"]
        for faction, player in view["players"].items():
            player["coins_behind_screen"] = full[faction]["coins_behind_screen"]
            player["mission_cards"] = full[faction]["mission_cards"]
    supplies = [
        {
            "faction": faction,
            "faction_name": faction_name(faction),
            "vp": p["vp"],
            "ap": p["ap"],
            "fp": p["fp"],
            "blanks": p["blanks"],
            "phalanx_supply": p["phalanx_supply"],
            "screen": _("hidden")
            if p["coins_behind_screen"] == HIDDEN
            else coins_text(p["coins_behind_screen"]),
            "cards": p["mission_cards"]
            if isinstance(p["mission_cards"], int)
            else card_names(p["mission_cards"]),
        }
        for faction, p in view["players"].items()
    ]
    return BoardAt(
        seq=told,
        last_seq=last_told,
        previous_seq=_told_seq(game, before=told, last=True) or told,
        next_seq=following or told,
        view=view,
        supplies=supplies,
    )
