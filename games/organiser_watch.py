"""What the organiser's game page tells about a game (the organiser audit): who owes an order, since
when and until when, what happens at the deadline, and, once the game has ended, who won."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .deadlines import deadline_text, settings_for
from .models import Game, GameProgress, SeatClock
from .words import faction_name


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
    progress = GameProgress.objects.filter(game=game).first()
    owing = progress.must_act if progress else list(clocks)
    names = {s.faction: s.name for s in game.seats.all()}
    rows = []
    for faction in owing:
        clock = clocks.get(faction)
        rows.append(
            {
                "faction_name": faction_name(faction),
                "name": names.get(faction, ""),
                "since": deadline_text(clock.due_since, game, settings, reader=None) if clock else "",
                "deadline": deadline_text(clock.deadline, game, settings, reader=None) if clock else "",
                "missed": clock.missed_in_a_row if clock else 0,
            }
        )
    return rows


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
    score = ", ".join(
        f"{faction_name(f)} {v}" for f, v in sorted(progress.vp.items(), key=lambda item: -item[1])
    )
    winners = ", ".join(faction_name(f) for f in progress.winners)
    return ngettext(
        "Winner: %(winners)s. Final score in VP: %(score)s.",
        "Winners: %(winners)s. Final score in VP: %(score)s.",
        len(progress.winners),
    ) % {"winners": winners, "score": score}
