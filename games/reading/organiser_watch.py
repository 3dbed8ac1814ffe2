"""What the organiser's game and deadlines pages tell about a game (the organiser audit): who owes
an order, since when and until when, what happens at the deadline, and, once the game has ended,
who won."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import DeadlineSettings, Game, GameProgress, Seat, SeatClock
from games.reading.delivery_problems import problems_by_seat
from games.reading.situation import load_game
from games.words.clock import deadline_text, settings_for
from games.words.names import faction_name


def watch(game: Game) -> dict[str, Any]:
    """What the organiser's game and deadlines pages both show (templates/games/_waiting.html)."""
    return {
        "waiting": waiting_seats(game),
        "default_order_note": default_order_note(game),
        "final_result": final_result(game),
    }


def waiting_seats(game: Game) -> list[dict[str, Any]]:
    """The seats that owe an order now, in seat order, with since and until when (the game's zone)."""
    settings = settings_for(game)
    clocks = {c.faction: c for c in SeatClock.objects.filter(game=game).exclude(obligation="")}
    names = {s.faction: s.name for s in game.seats.all()}
    return [
        {
            "faction_name": faction_name(faction),
            "name": names.get(faction, ""),
            **_owed(clocks.get(faction), game, settings),
        }
        for faction in _owing(game, clocks)
    ]


def seat_rows(game: Game) -> list[dict[str, Any]]:
    """Every seat once, in seat order (the deadlines page): its player, address and delivery
    problems, since and until when it owes an order (blank when it owes none; the game's zone),
    and its missed turns in a row, which a seat keeps after its turn has passed."""
    settings = settings_for(game)
    clocks = {c.faction: c for c in SeatClock.objects.filter(game=game)}
    owing = set(_owing(game, {f: c for f, c in clocks.items() if c.obligation}))
    problems = problems_by_seat(game)
    rows = []
    for seat in _in_seat_order(game):
        owed = _owed(clocks.get(seat.faction), game, settings)
        if seat.faction not in owing:
            owed.update(since="", deadline="")
        rows.append(
            {
                "faction_name": faction_name(seat.faction),
                "name": seat.name,
                "email": seat.email,
                "problems": problems.get(seat.pk, []),
                **owed,
            }
        )
    return rows


def _in_seat_order(game: Game) -> list[Seat]:
    """The game's seats in the seat order drawn at the start (H-SETUP), which every round follows,
    as "Who must act" lists them; a game without a log yet (none) in the order they were created."""
    seats = list(game.seats.all())
    order = load_game(game).state.seat_order if game.events.exists() else []
    return sorted(seats, key=lambda s: order.index(s.faction) if s.faction in order else len(order))


def _owing(game: Game, open_clocks: dict[str, SeatClock]) -> list[str]:
    """Who owes an order now: the read model's must_act, or before it exists the open clocks."""
    progress = GameProgress.objects.filter(game=game).first()
    return progress.must_act if progress else list(open_clocks)


def _owed(clock: SeatClock | None, game: Game, settings: DeadlineSettings) -> dict[str, Any]:
    """Since and until when a seat owes its order, and its missed turns (the organiser: the game's zone)."""
    if clock is None:
        return {"since": "", "deadline": "", "missed": 0}
    return {
        "since": deadline_text(clock.due_since, game, settings, reader=None),
        "deadline": deadline_text(clock.deadline, game, settings, reader=None),
        "missed": clock.missed_in_a_row,
    }


def default_order_note(game: Game) -> str:
    """What happens when a deadline passes, and when the organiser hears of it."""
    settings = settings_for(game)
    note = _(
        "When a deadline passes, the seat gets a default order: in an action round it passes (and"
        " declines the trade offers made to it), a tile choice keeps the first tile drawn, a sealed"
        " winter order commits nothing. The game then goes on."
    )
    if settings.alert_organiser:
        note += " " + ngettext(
            "You are mailed after %(n)s missed turn in a row.",
            "You are mailed after %(n)s missed turns in a row.",
            settings.missed_turns_alert,
        ) % {"n": settings.missed_turns_alert}
    return note


def final_result(game: Game) -> str:
    """'Winner: Athens. Final score: Athens 32, Sparta 27.' once the game has ended, else ''."""
    progress = GameProgress.objects.filter(game=game).first()
    if progress is None or progress.phase != "ended":
        return ""
    return result_text(progress.winners, progress.vp)


def result_text(winners: list[str], vp: dict[str, int]) -> str:
    """H-END: 'Winner: Athens. Final score in VP: Athens 32, Sparta 27.' (the organiser's and the
    player's page of an ended game)."""
    score = ", ".join(f"{faction_name(f)} {v}" for f, v in sorted(vp.items(), key=lambda item: -item[1]))
    return ngettext(
        "Winner: %(winners)s. Final score in VP: %(score)s.",
        "Winners: %(winners)s. Final score in VP: %(score)s.",
        len(winners),
    ) % {"winners": ", ".join(faction_name(f) for f in winners), "score": score}
