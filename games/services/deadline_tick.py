"""What the beat task does each minute (docs/long-games.md): reminders before deadlines, default orders after.

Polled from the database (SeatClock), never scheduled as long countdowns. Every step is
idempotent: a reminder is one outbox row per (obligation, seat, point); a default order is
appended only while its seat still owes the order whose deadline passed, under the game's row
lock, so two beat runs or two workers never give it twice. An order that arrives after the
deadline but before the next run is accepted as the player's own.

Default orders (given through `submit_order` with by="system", after a "DeadlinePassed"
event whose actor is "system" and whose reason is "deadline passed"):
- in the action rounds: decline every open trade offer to the player, then Pass;
- answering a pending tile choice (S-EXP-CHOICE): keep the first tile drawn;
- in a scoring winter (H-WINTER-ORDERS): a sealed order committing nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import engine
from games.engine import ChooseTile, CommitCoins, DeclineOffer, GameState, Pass
from games.engine.commands import Command
from games.engine.table import DEADLINE_PASSED
from games.eventstore.store import ConcurrencyError, append_events
from games.mail.outbox import mail_organiser, mail_seat
from games.models import Game, Seat, SeatClock
from games.reading.situation import load_game, must_act
from games.services.orders import GameMovedOn, submit_order
from games.words.clock import deadline_text, parse_reminders, settings_for
from games.words.names import faction_name
from notifications.models import Outbox

DEADLINE_REASON = "deadline passed"
log = logging.getLogger(__name__)


@dataclass
class TickReport:
    defaults: list[tuple[int, str]] = field(default_factory=list)  # (game, faction)
    reminders: int = 0
    failed: list[tuple[int, str]] = field(default_factory=list)  # (game, faction), logged


def default_orders(state: GameState, faction: str) -> list[Command]:
    """The orders given for a player whose deadline passed (see the module docstring)."""
    if state.phase == "winter_orders":
        return [CommitCoins(faction)]
    orders: list[Command] = [DeclineOffer(faction, offer=o.id) for o in state.offers if o.to == faction]
    if state.phase == "choice" and state.pending_choice is not None:
        return [*orders, ChooseTile(faction, keep=state.pending_choice.tiles[0])]
    if state.player_on_turn == faction:
        return [*orders, Pass(faction)]
    return orders


def tick(now: datetime | None = None) -> TickReport:
    """One beat: default orders for every passed deadline, then the reminders now due."""
    now = now or timezone.now()
    report = TickReport()
    active = SeatClock.objects.filter(game__status=Game.Status.ACTIVE, deadline__isnull=False)
    # One seat that fails (logged, and tried again next minute) must not hold up the others: the
    # oldest deadline comes first, so a failure would otherwise stop every game's deadlines.
    for clock in active.filter(deadline__lte=now).select_related("game").order_by("deadline"):
        try:
            if give_default_order(clock.game, clock.faction, now):
                report.defaults.append((clock.game_id, clock.faction))
        except Exception:
            log.exception("default order for %s in game %s failed", clock.faction, clock.game_id)
            report.failed.append((clock.game_id, clock.faction))
    for clock in active.filter(deadline__gt=now).select_related("game"):
        try:
            report.reminders += send_reminder(clock, now)
        except Exception:
            log.exception("reminder for %s in game %s failed", clock.faction, clock.game_id)
            report.failed.append((clock.game_id, clock.faction))
    return report


def give_default_order(game: Game, faction: str, now: datetime) -> bool:
    """Give `faction` its default order if its deadline has passed and it still owes the order."""
    seat = game.seats.get(faction=faction)
    try:
        with transaction.atomic():
            # The game's row first, as every order, vacation and hand-over locks it before it writes
            # the seat clocks: locking the clock first made a player's order at the deadline's
            # second and this wait for each other ("deadlock detected" killed one of them).
            status = Game.objects.select_for_update().filter(pk=game.pk).values_list("status", flat=True)
            if status.first() != Game.Status.ACTIVE:
                return False
            clock = SeatClock.objects.select_for_update().get(game=game, faction=faction)
            loaded = load_game(game)
            if clock.deadline is None or clock.deadline > now or faction not in must_act(loaded.state):
                return False
            passed = engine.Event(
                DEADLINE_PASSED,
                {"player": faction, "reason": DEADLINE_REASON, "obligation": clock.obligation},
            )
            seq = append_events(game, loaded.seq, [passed], actor="system", now=now)[-1].seq
            missed_seq, state = seq, loaded.state
            for command in default_orders(state, faction):
                result = submit_order(game, seat, command, seq, by="system")
                seq, state = result.seq, result.state
            _mail_missed(game, seat, missed_seq, seq, clock.deadline)
    except (GameMovedOn, ConcurrencyError):
        return False  # the player (or another beat) acted first
    return True


def _mail_missed(game: Game, seat: Seat, missed_seq: int, head: int, deadline: datetime | None) -> None:
    settings = settings_for(game)
    with translation.override(seat.language):
        mail_seat(
            game,
            seat,
            "missed",
            missed_seq,
            _("Your deadline passed · %(game)s") % {"game": game.name},
            [
                _(
                    "Your deadline, %(deadline)s, passed without an order, so the server gave"
                    " the default order for you: pass (in a scoring winter: commit nothing;"
                    " a pending tile choice keeps the first tile; open offers to you are declined)."
                )
                % {"deadline": deadline_text(deadline, game, settings, reader=seat)},
            ],
            reply_seq=head,
        )
    missed = SeatClock.objects.get(game=game, faction=seat.faction).missed_in_a_row
    if settings.alert_organiser and missed == settings.missed_turns_alert:
        with translation.override(game.language):
            mail_organiser(
                game,
                seat,
                "absent",
                missed_seq,
                _("%(player)s missed %(n)s turns in a row · %(game)s")
                % {"game": game.name, "player": seat.name, "n": missed},
                [
                    _(
                        "%(player)s (%(faction)s) has missed %(n)s deadlines in a row; the server"
                        " gave the default orders. You can hand the seat to a substitute"
                        " on the game's deadline page."
                    )
                    % {"player": seat.name, "faction": faction_name(seat.faction), "n": missed}
                ],
            )


def send_reminder(clock: SeatClock, now: datetime) -> int:
    """Queue the latest reminder point that has passed, once per obligation (outbox key); 1 if queued."""
    if clock.since_seq is None or clock.due_since is None:
        return 0  # no obligation open (its points are counted from its start)
    settings = settings_for(clock.game_id)
    try:
        points = parse_reminders(settings.reminders)
    except ValueError:
        return 0
    passed = [i for i, p in enumerate(points, 1) if p.at(clock.due_since, clock.deadline) <= now]
    if not passed:
        return 0
    index = max(passed, key=lambda i: points[i - 1].at(clock.due_since, clock.deadline))
    seat = clock.game.seats.get(faction=clock.faction)
    sent = Outbox.objects.filter(
        game_id=clock.game_id, seq=clock.since_seq, seat_id=seat.pk, kind__startswith="reminder-"
    ).values_list("kind", flat=True)
    if any(
        _point_at(points, kind, clock) >= points[index - 1].at(clock.due_since, clock.deadline)
        for kind in sent
    ):
        return 0  # this point, or a later one, was mailed already
    head = load_game(clock.game).seq
    deadline = deadline_text(clock.deadline, clock.game, settings, reader=seat)
    with transaction.atomic(), translation.override(seat.language):
        mail_seat(
            clock.game,
            seat,
            f"reminder-{index}",
            clock.since_seq,
            _("Reminder: your order is due by %(deadline)s · %(game)s")
            % {"game": clock.game.name, "deadline": deadline},
            [
                _(
                    "Your order is still missing. The deadline is %(deadline)s; after it the server gives"
                    " your default order (pass)."
                )
                % {"deadline": deadline}
            ],
            reply_seq=head,
        )
    return 1


def _point_at(points, kind: str, clock: SeatClock) -> datetime:
    number = int(kind.removeprefix("reminder-"))
    if not 1 <= number <= len(points):
        return clock.deadline
    return points[number - 1].at(clock.due_since, clock.deadline)
