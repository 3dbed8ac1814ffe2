"""What the pages show of the ESP's reports about a seat's emails: the open delivery problems with
the seat's present address, for the player page's banner and the organiser's pages. Recording a
report (and telling the organiser) is games/services/delivery_problems.py; nothing here writes.
"""

from __future__ import annotations

from typing import Any

from games.models import DeliveryProblem, Game, Seat
from games.words.clock import deadline_text, settings_for


def current_problems(seat: Seat) -> list[dict[str, Any]]:
    """The seat's open problems with its present address, for the player page's banner."""
    problems = DeliveryProblem.objects.filter(seat=seat, resolution="")
    return _shown(problems, {seat.pk: seat.email}, seat.game, reader=seat)


def problems_by_seat(game: Game) -> dict[int, list[dict[str, Any]]]:
    """Every seat's open problems with its present address (the organiser's pages), by seat id."""
    emails = dict(game.seats.values_list("pk", "email"))
    found: dict[int, list[dict[str, Any]]] = {}
    for row in _shown(
        DeliveryProblem.objects.filter(seat__game=game, resolution=""), emails, game, reader=None
    ):
        found.setdefault(row["seat_id"], []).append(row)
    return found


def _shown(problems: Any, emails: dict[int, str], game: Game, *, reader: Seat | None) -> list[dict[str, Any]]:
    """`reader`: the seat whose page shows them (its time zone), None for the organiser's pages."""
    settings = settings_for(game)
    return [
        {
            "seat_id": p.seat_id,
            "kind": p.kind,
            "email": p.email,
            "description": p.description,
            "since": deadline_text(p.first_at, game, settings, reader=reader),
        }
        for p in problems.order_by("id")
        if p.email.lower() == emails.get(p.seat_id, "").lower()  # an address edited by hand too
    ]
