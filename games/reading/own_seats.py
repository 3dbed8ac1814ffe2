"""The games a signed-in person plays (docs/front-door.md "Sign-in"): the seats their account's address
holds, and the seats they accepted in games still gathering their players.

Signing in by the emailed link proves the mailbox, the same proof a seat's emailed link is: so the
account sees the seats whose address is its own (case does not count) and opens each with a fresh
link of the existing kind (games/reading/links.py), never with a token of its own. A seat handed to a
substitute carries the substitute's address from then on, so its former holder no longer sees it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from games.models import Game, Gathering, Invitation, Seat
from games.reading.links import link_token
from games.words.names import faction_name, phase_label, year_label


def _address(user: AbstractBaseUser) -> str:
    return (getattr(user, "email", "") or "").strip()


def played_games(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """The account's seats, newest game first: the game, the seat's name and faction, where the game
    stands (year and phase, or its end) and the seat's id for `seat_of_account`."""
    email = _address(user)
    if not email:
        return []
    seats = (
        Seat.objects.filter(email__iexact=email)
        .select_related("game", "game__progress")
        .order_by("-game_id", "pk")
    )
    rows = []
    for seat in seats:
        game = seat.game
        progress = getattr(game, "progress", None)
        if game.status == Game.Status.ENDED:
            stands = _("The game has ended.")
        elif progress is not None:
            stands = f"{year_label(progress.year)}, {phase_label(progress.phase, progress.action_round)}"
        else:
            stands = game.get_status_display()
        rows.append(
            {
                "seat_id": seat.pk,
                "game": game,
                "name": seat.name,
                "faction": faction_name(seat.faction),
                "stands": stands,
                "must_act": bool(progress and seat.faction in progress.must_act),
            }
        )
    return rows


def seats_waiting(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """The seats the account accepted in games still gathering their players (no page yet: the first
    email brings its link when the game begins)."""
    email = _address(user)
    if not email:
        return []
    accepted = (
        Invitation.objects.filter(
            email__iexact=email, status=Invitation.Status.ACCEPTED, game__gathering__began__isnull=True
        )
        .select_related("game__gathering")
        .order_by("-game_id")
    )
    rows = []
    for invitation in accepted:
        gathering: Gathering = invitation.game.gathering
        taken = invitation.game.invitations.filter(status=Invitation.Status.ACCEPTED).count()
        rows.append(
            {
                "game": invitation.game,
                "name": invitation.name,
                "stands": _("Waiting for players: %(taken)s of %(seats)s seats taken")
                % {"taken": taken, "seats": gathering.seats},
            }
        )
    return rows


def seat_ids_of_account(user: AbstractBaseUser) -> list[int]:
    """The ids of the seats the account's address holds (sign-out drops their seat cookies)."""
    email = _address(user)
    return list(Seat.objects.filter(email__iexact=email).values_list("pk", flat=True)) if email else []


def seat_link_of_account(user: AbstractBaseUser, seat_id: int) -> tuple[int, str] | None:
    """The game id and a fresh link token of seat `seat_id`, if the account's address holds it (None
    otherwise: another's seat, or one handed over to someone else)."""
    email = _address(user)
    seat = Seat.objects.filter(pk=seat_id, email__iexact=email).first() if email else None
    if seat is None:
        return None
    return seat.game_id, link_token(seat)


def seat_held_in_gathering(game: Game, user: AbstractBaseUser) -> str:
    """The status of the account's invitation that holds a seat of a gathering game ("accepted" or
    "pending"), "" when it holds none: the lobby offers no second seat to one who sits there."""
    email = _address(user) if user.is_authenticated else ""
    if not email:
        return ""
    held = (
        game.invitations.filter(
            email__iexact=email, status__in=(Invitation.Status.ACCEPTED, Invitation.Status.PENDING)
        )
        .values_list("status", flat=True)
        .first()
    )
    return held or ""
