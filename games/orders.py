"""The order loop's services (issue 4): create a game, submit an order, say what a player sees.

Every way in — web form, JSON API, management commands — goes through `submit_order`:
load the state, let the engine decide, append the events at the seq the order was decided
on, and write the outbox rows for whoever must act now, all in one transaction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from notifications.services import enqueue

from . import engine
from .engine import GameRng, GameState, RuleViolation
from .engine import data as engine_data
from .engine.commands import Command
from .links import seat_url
from .models import Event, Game, Seat
from .narration import describe, faction_name, phase_label, year_label
from .store import ConcurrencyError, LoadedState, append_events, load_state, save_snapshot

SNAPSHOT_EVERY = 100
HAPPENINGS_LIMIT = 40
SETUP_ACTOR = "organiser"


class GameMovedOn(Exception):
    """The order was decided on an old state: another order came first. Nothing was changed."""

    message = gettext_lazy(
        "The game has moved on since you loaded this page. Please look again and re-order."
    )


class GameSetupError(ValueError):
    """A game that cannot be created as asked; `message` is fit to show the organiser."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str
    faction: str
    language: str | None = None

    PATTERN = re.compile(r"^\s*(?P<name>[^<>]+?)\s*<(?P<email>[^<>\s]+)>\s*:\s*(?P<faction>[a-z]+)\s*$")

    @classmethod
    def parse(cls, text: str, language: str | None = None) -> PlayerSpec:
        """Read "Ana <ana@example.com>:athens" (the creategame command's --player)."""
        match = cls.PATTERN.match(text)
        if match is None:
            raise GameSetupError(
                _('Write a player as "Name <email>:faction", not %(text)s.') % {"text": text}
            )
        return cls(match["name"], match["email"], match["faction"], language)


@dataclass(frozen=True)
class OrderResult:
    seq: int  # the game's last seq after the order
    events: list[Event]
    state: GameState


def load_game(game: Game, up_to_seq: int | None = None) -> LoadedState[GameState]:
    """The game's state from its newest snapshot and the events after it."""
    return load_state(
        game,
        initial=GameState,
        fold_from=engine.fold_from,
        from_dict=GameState.from_dict,
        up_to_seq=up_to_seq,
    )


def must_act(state: GameState) -> list[str]:
    """The factions owing an order now: the player on turn, or everyone without a sealed winter order."""
    if state.phase == "winter_orders":
        return [f for f in state.seat_order if f not in state.winter_orders]
    on_turn = state.player_on_turn
    return [on_turn] if on_turn else []


def _obligations(state: GameState) -> set[tuple[Any, ...]]:
    """What each faction owes, so that a still-open obligation (a tile choice) is not mailed twice."""
    if state.phase == "winter_orders":
        return {(f, "winter", state.year) for f in must_act(state)}
    return {(f, "turn", state.year, state.action_round, state.turn_index) for f in must_act(state)}


def _check_players(players: Sequence[PlayerSpec]) -> None:
    factions = [p.faction for p in players]
    if not 2 <= len(players) <= 4:
        raise GameSetupError(_("A game has 2 to 4 players."))
    unknown = [f for f in factions if f not in engine_data.FACTIONS]
    if unknown:
        known = ", ".join(engine_data.FACTION_IDS)
        raise GameSetupError(
            _("Unknown faction %(faction)s; choose from %(known)s.") % {"faction": unknown[0], "known": known}
        )
    if len(set(factions)) != len(factions):
        raise GameSetupError(_("Each faction can be played by one player only."))
    for player in players:
        if not player.name.strip():
            raise GameSetupError(_("Every player needs a name."))
        try:
            validate_email(player.email)
        except ValidationError:
            raise GameSetupError(_("%(email)s is not an email address.") % {"email": player.email}) from None
        if player.language and player.language not in dict(settings.LANGUAGES):
            raise GameSetupError(_("Unknown language %(language)s.") % {"language": player.language})


def create_game(
    players: Sequence[PlayerSpec],
    language: str = "en",
    organiser: AbstractBaseUser | None = None,
    name: str = "",
) -> Game:
    """Create a game, its seats and its opening events (H-SETUP); mail every player a welcome."""
    _check_players(players)
    if language not in dict(settings.LANGUAGES):
        raise GameSetupError(_("Unknown language %(language)s.") % {"language": language})
    with transaction.atomic():
        game = Game.objects.create(name=name.strip(), language=language, organiser=organiser)
        if not game.name:
            game.name = _("Game %(id)s") % {"id": game.pk}
            game.save(update_fields=["name"])
        for p in players:
            Seat.objects.create(
                game=game,
                faction=p.faction,
                name=p.name.strip(),
                email=p.email,
                language=p.language or language,
            )
        opening = engine.new_game({"factions": [p.faction for p in players]}, game.seed)
        rows = append_events(game, 0, opening, actor=SETUP_ACTOR)
        state = engine.fold(opening)
        for seat in game.seats.all():
            _enqueue(game, seat, state, rows[-1].seq, "welcome")
    return game


def submit_order(game: Game, seat: Seat, command: Command, expected_seq: int) -> OrderResult:
    """Decide `command` for `seat` on the state at `expected_seq` and append its events.

    Raises GameMovedOn when the game is past `expected_seq` (also when another order wins
    the race while this one is decided), RuleViolation when the rules refuse the order;
    in both cases nothing is written and nobody is mailed. In the same transaction as the
    events, every player who must act now gets an outbox row (sealed winter orders: all
    players at once), and everyone gets one when the game ends.
    """
    if seat.game_id != game.pk:
        raise RuleViolation("H-ORDER", "This seat does not play in this game.")
    if command.player != seat.faction:
        raise RuleViolation("H-ORDER", "You can only give orders for %(player)s.", player=seat.faction)
    loaded = load_game(game)
    if loaded.seq != expected_seq:
        raise GameMovedOn()
    rng = GameRng(game.seed, loaded.seq + 1)
    before = loaded.state
    events = [_reveal_seed(e, game) for e in engine.decide(before, command, rng)]
    after = engine.fold_from(before.copy(), events)
    with transaction.atomic():
        try:
            rows = append_events(game, expected_seq, events, actor=seat.faction)
        except ConcurrencyError:
            raise GameMovedOn() from None
        seq = rows[-1].seq
        _notify(game, before, after, seq)
        if seq // SNAPSHOT_EVERY > expected_seq // SNAPSHOT_EVERY:
            save_snapshot(game, seq, after.to_dict())
    return OrderResult(seq=seq, events=rows, state=after)


def _reveal_seed(event: engine.Event, game: Game) -> engine.Event:
    """H-END: the engine cannot know the seed; the GameEnded event reveals it."""
    if event.type == "GameEnded":
        return engine.Event(event.type, {**event.payload, "seed": game.seed})
    return event


def _notify(game: Game, before: GameState, after: GameState, seq: int) -> None:
    seats = list(game.seats.all())
    if after.phase == "ended":
        for seat in seats:
            _enqueue(game, seat, after, seq, "ended")
        return
    new = _obligations(after) - _obligations(before)
    due = {obligation[0] for obligation in new}
    for seat in seats:
        if seat.faction in due:
            _enqueue(game, seat, after, seq, "turn")


def happenings(game: Game, viewer: str | None, up_to_seq: int | None = None) -> list[str]:
    """The events since `viewer`'s previous order (with its outcome), in plain words as they may know them."""
    rows = Event.objects.filter(game=game)
    if up_to_seq is not None:
        rows = rows.filter(seq__lte=up_to_seq)
    if viewer is not None:
        # From the start of the viewer's last order: its outcome (dice, scoring that it
        # triggered) is part of what they need to read, then everything after it.
        last_own = rows.filter(actor=viewer).order_by("-seq").values_list("created", flat=True).first()
        if last_own is not None:
            batch = rows.filter(actor=viewer, created=last_own).order_by("seq").values_list("seq", flat=True)
            rows = rows.filter(seq__gte=batch.first())
    recent = list(rows.order_by("-seq").values_list("type", "payload")[:HAPPENINGS_LIMIT])
    return [describe(event_type, payload, viewer) for event_type, payload in reversed(recent)]


def whose_turn(state: GameState, viewer: str | None = None) -> str:
    """One sentence: who must act now."""
    owing = must_act(state)
    if state.phase == "ended":
        return _("The game has ended.")
    if state.phase == "winter_orders":
        names = ", ".join(faction_name(f) for f in owing)
        return _("Waiting for sealed winter orders from %(players)s.") % {"players": names}
    if viewer is not None and owing == [viewer]:
        return _("It is your turn.")
    return _("%(player)s is on turn.") % {"player": ", ".join(faction_name(f) for f in owing)}


def _enqueue(game: Game, seat: Seat, state: GameState, seq: int, kind: str) -> None:
    with translation.override(seat.language):
        context = {
            "game_name": game.name or str(game.pk),
            "player_name": seat.name,
            "faction_name": faction_name(seat.faction),
            "year_label": year_label(state.year),
            "phase_label": phase_label(state.phase, state.action_round),
            "sealed": state.phase == "winter_orders",
            "whose_turn": whose_turn(state, seat.faction),
            "happenings": happenings(game, seat.faction, up_to_seq=seq) if kind != "welcome" else [],
            "link": seat_url(seat),
            "organiser_name": _organiser_name(game),
            "players_line": ", ".join(
                f"{s.name} ({faction_name(s.faction)})" for s in game.seats.all().order_by("id")
            ),
            "winners_line": ", ".join(faction_name(f) for f in state.winners),
        }
    enqueue(
        game_id=game.pk,
        seq=seq,
        seat_id=seat.pk,
        kind=kind,
        to_email=seat.email,
        language=seat.language,
        template=kind,
        context=context,
    )


def _organiser_name(game: Game) -> str:
    if game.organiser is None:
        return _("The organiser")
    return game.organiser.get_full_name() or game.organiser.get_username()


@dataclass(frozen=True)
class PlayerScreen:
    """Everything the player page and the JSON state show one seat (H-SCREEN via player_view)."""

    seq: int
    state: GameState
    view: dict[str, Any]
    must_act: list[str]
    whose_turn: str
    happenings: list[str]
    legal: list[Command]

    @property
    def year_label(self) -> str:
        return year_label(self.state.year)

    @property
    def phase_label(self) -> str:
        return phase_label(self.state.phase, self.state.action_round)


def player_screen(game: Game, faction: str | None) -> PlayerScreen:
    """The game as `faction` may see it now (None: the organiser, as a spectator)."""
    loaded = load_game(game)
    state = loaded.state
    owing = must_act(state)
    legal = engine.legal_commands(state, faction) if faction in owing else []
    return PlayerScreen(
        seq=loaded.seq,
        state=state,
        view=engine.player_view(state, faction),
        must_act=owing,
        whose_turn=whose_turn(state, faction),
        happenings=happenings(game, faction, up_to_seq=loaded.seq),
        legal=legal,
    )
