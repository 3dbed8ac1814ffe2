"""What the front door's pages show of a gathering game (docs/front-door.md): the organiser's list
of invitations, an invitation's page, and the lobby of open games. Never a link's token: the
organiser sees addresses and answers, the lobby only the names of who accepted."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.utils.translation import gettext as _

from games.models import Game, Gathering, Invitation, SeatClock, SubstituteWanted
from games.words.clock import settings_for
from games.words.names import faction_name, phase_label, year_label

HOLDING = (Invitation.Status.PENDING, Invitation.Status.ACCEPTED)


def is_gathering(game: Game) -> bool:
    """Whether a game still gathers its players (no opening yet)."""
    return Gathering.objects.filter(game=game, began__isnull=True).exists()


def _faction(invitation: Invitation) -> str:
    return faction_name(invitation.faction) if invitation.faction else _("random")


def gathering_page(game: Game) -> dict[str, Any]:
    """The organiser's page of a gathering game: each invitation (address, faction, answer, the name
    and language chosen), how many seats are free, and whether the game may begin now."""
    gathering = game.gathering
    invitations = list(game.invitations.all())
    held = [i for i in invitations if i.status in HOLDING]
    accepted = [i for i in held if i.status == Invitation.Status.ACCEPTED]
    return {
        "gathering": gathering,
        "invitations": [
            {
                "email": i.email,
                "faction": _faction(i),
                "status": i.get_status_display(),
                "state": i.status,
                "name": i.name,
                # The invitation's language while it waits, the player's own once accepted.
                "language": dict(settings.LANGUAGES).get(i.language, i.language),
            }
            for i in invitations
        ],
        "free_seats": gathering.seats - len(held),
        "accepted": len(accepted),
        "may_begin": len(accepted) >= 2,
        "pace": pace(game),
    }


def profiles_of(emails: list[str]) -> dict[str, int]:
    """The account id of each address that has one (keyed by the address casefolded): the organiser's
    pages link a player's name to their record (/players/<id>/, docs/front-door.md "Reliability")."""
    wanted = {e.casefold() for e in emails if e}
    if not wanted:
        return {}
    query = Q()
    for email in wanted:
        query |= Q(email__iexact=email)
    found: dict[str, int] = {}
    for pk, email in (
        get_user_model().objects.filter(query, is_active=True).order_by("pk").values_list("pk", "email")
    ):
        found.setdefault(email.casefold(), pk)
    return found


def gathering_line(game: Game) -> str:
    """The organiser's list's word for a game still gathering its players ("" for one under way)."""
    gathering = Gathering.objects.filter(game=game, began__isnull=True).first()
    if gathering is None:
        return ""
    accepted = game.invitations.filter(status=Invitation.Status.ACCEPTED).count()
    return _("Gathering players: %(accepted)s of %(seats)s accepted") % {
        "accepted": accepted,
        "seats": gathering.seats,
    }


def pace(game: Game) -> dict[str, Any]:
    """The game's deadlines as the lobby and an invitation tell them."""
    deadlines = settings_for(game)
    return {
        "turn_hours": deadlines.turn_hours,
        "winter_hours": deadlines.winter_hours,
        "time_zone": deadlines.time_zone,
        "skip_weekends": deadlines.skip_weekends,
    }


def invitation_page(invitation: Invitation) -> dict[str, Any]:
    """What the invited person reads before answering: the game, who else accepted, the pace."""
    game = invitation.game
    return {
        "invitation": invitation,
        "game": game,
        "faction": _faction(invitation),
        "players": list(
            game.invitations.filter(status=Invitation.Status.ACCEPTED).values_list("name", flat=True)
        ),
        "pace": pace(game),
        "language_name": dict(settings.LANGUAGES).get(game.language, game.language),
    }


def open_games() -> list[dict[str, Any]]:
    """The lobby: published games still gathering with a free seat, newest first."""
    gatherings = (
        Gathering.objects.filter(published=True, began__isnull=True)
        .select_related("game")
        .annotate(held=Count("game__invitations", filter=Q(game__invitations__status__in=HOLDING)))
        .order_by("-game_id")
    )
    rows = []
    for gathering in gatherings:
        if gathering.held >= gathering.seats:
            continue
        game = gathering.game
        players = game.invitations.filter(status=Invitation.Status.ACCEPTED).values_list("name", flat=True)
        rows.append(
            {
                "game": game,
                "players": list(players),
                "seats": gathering.seats,
                "free": gathering.seats - gathering.held,
                "language": dict(settings.LANGUAGES).get(game.language, game.language),
                "pace": pace(game),
            }
        )
    return rows


def wanted_seats() -> list[dict[str, Any]]:
    """The lobby's seats that need a substitute: the game, the faction, where the game stands."""
    wanted = (
        SubstituteWanted.objects.filter(filled__isnull=True, seat__game__status=Game.Status.ACTIVE)
        .select_related("seat__game__progress")
        .order_by("-pk")
    )
    rows = []
    for row in wanted:
        game = row.seat.game
        progress = getattr(game, "progress", None)
        rows.append(
            {
                "wanted": row,
                "game": game,
                "faction": faction_name(row.seat.faction),
                "when": f"{year_label(progress.year)}, {phase_label(progress.phase, progress.action_round)}"
                if progress
                else "",
                "language": dict(settings.LANGUAGES).get(game.language, game.language),
                "pace": pace(game),
            }
        )
    return rows


def substitute_page(game: Game) -> dict[str, Any]:
    """The organiser's seats of a game under way: missed turns in a row, whether a substitute is
    sought, and the offers to take each over."""
    missed = dict(SeatClock.objects.filter(game=game).values_list("faction", "missed_in_a_row"))
    wanted = {
        w.seat_id: w for w in SubstituteWanted.objects.filter(seat__game=game).prefetch_related("offers")
    }
    seats = []
    for seat in game.seats.all():
        row = wanted.get(seat.pk)
        sought = row is not None and row.filled is None
        seats.append(
            {
                "seat": seat,
                "faction": faction_name(seat.faction),
                "missed": missed.get(seat.faction, 0),
                "sought": sought,
                "offers": [o for o in row.offers.all() if not o.accepted] if sought and row else [],
            }
        )
    return {"seats": seats, "pace": pace(game)}
