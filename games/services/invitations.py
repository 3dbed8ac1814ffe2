"""A game that gathers its players by invitation (docs/front-door.md "Invitations").

`gather_game` makes the game with its seats to fill and no events; `invite` asks one address for a
seat (a faction or "random"); `answer_invitation` accepts (the player's name, language and time
zone for this seat) or declines; `begin_gathered_game` opens the game (H-SETUP) with a seat per
accepted invitation when every seat has accepted, or when the organiser says so with at least two;
the "random" seats' factions are drawn then, and the draw is recorded in the game's log.
Each change and the email it causes (games/mail/frontdoor.py) are written in one transaction under
the gathering's row lock, so two answers or an answer and an invitation never race for a seat,
and no email exists for a change that did not commit. `remind_and_lapse` (the beat task) reminds
unanswered invitations and lapses the old ones, which frees their seats.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.engine import data as engine_data
from games.mail.frontdoor import mail_answer_to_organiser, mail_invitation, row_of_token
from games.models import DeadlineSettings, Game, Gathering, Invitation, Seat
from games.services.game_setup import (
    GameSetupError,
    PlayerSpec,
    check_players,
    is_an_address,
    new_game_row,
    same_address,
    seat_and_open,
)

INVITATION_DAYS = 7
REMINDER_HOURS = (48, 120)  # after the invitation was sent, while it is unanswered
# GameRng's position of the "random" factions' draw: no event's seq (engine/seat_draw.py, docs/fairness.md).
SEAT_DRAW_POSITION = engine.SEAT_DRAW_POSITION
Status = Invitation.Status
HOLDING = (Status.PENDING, Status.ACCEPTED)  # an invitation in these holds its seat


class InvitationError(ValueError):
    """An invitation or answer that cannot be made; the message is fit to show the person."""


def gather_game(
    organiser: AbstractBaseUser,
    name: str,
    language: str,
    seats: int,
    published: bool = False,
    deadlines: DeadlineSettings | None = None,
) -> Game:
    """A new game that gathers `seats` players (2 to 4, H-SETUP) by invitation or, `published`, in
    the lobby. No seat and no event yet: the opening is written when it begins."""
    if not 2 <= seats <= 4:
        raise InvitationError(_("A game has 2 to 4 players."))
    if language not in dict(settings.LANGUAGES):
        raise InvitationError(_("Unknown language %(language)s.") % {"language": language})
    with transaction.atomic():
        game = new_game_row(name, language, organiser, deadlines)
        Gathering.objects.create(game=game, seats=seats, published=published)
    return game


def holding(game: Game) -> QuerySet[Invitation]:
    """The invitations that hold a seat (waiting for an answer or accepted)."""
    return game.invitations.filter(status__in=HOLDING)


def _locked(game: Game) -> Gathering:
    gathering = Gathering.objects.select_for_update().filter(game=game).first()
    if gathering is None or gathering.began is not None:
        raise InvitationError(_("This game has begun; its seats are taken."))
    return gathering


def _check_seat(gathering: Gathering, email: str, faction: str) -> None:
    game = gathering.game
    if not is_an_address(email):
        raise InvitationError(_("%(email)s is not an email address.") % {"email": email})
    if faction and faction not in engine_data.FACTIONS:
        raise InvitationError(_("Unknown faction %(faction)s.") % {"faction": faction})
    held = list(holding(game))
    if len(held) >= gathering.seats:
        raise InvitationError(_("Every seat is taken or promised; wait for an answer or a decline."))
    if any(same_address(email, other.email) for other in held):
        raise InvitationError(_("%(email)s is invited already.") % {"email": email})
    if faction and any(other.faction == faction for other in held):
        raise InvitationError(_("That faction is promised to another player."))


def invite(game: Game, email: str, faction: str = "", language: str = "") -> Invitation:
    """Ask `email` for a seat (`faction`, or "" for a random one), with the invitation email in
    `language` (the game's when not given), H-SETUP: one address and one faction per seat."""
    email = email.strip()
    language = language or game.language
    if language not in dict(settings.LANGUAGES):
        raise InvitationError(_("Unknown language %(language)s.") % {"language": language})
    with transaction.atomic():
        gathering = _locked(game)
        _check_seat(gathering, email, faction)
        now = timezone.now()
        invitation = Invitation.objects.create(
            game=game,
            email=email,
            faction=faction,
            language=language,
            expires=now + timedelta(days=INVITATION_DAYS),
        )
        mail_invitation(invitation)
    return invitation


def invitation_of(token: str) -> Invitation:
    """The invitation a link's token names (InvitationError for a forged or mistyped one)."""
    pk = row_of_token("invitation", token)
    invitation = Invitation.objects.select_related("game").filter(pk=pk).first() if pk is not None else None
    if invitation is None:
        raise InvitationError(_("This invitation link is not valid."))
    return invitation


def answer_invitation(
    token: str, accept: bool, name: str = "", language: str = "", time_zone: str = ""
) -> Invitation:
    """Accept (with the seat's name, language and time zone) or decline an invitation; the organiser
    is told; when the last seat is accepted the game begins."""
    invitation = invitation_of(token)
    with transaction.atomic():
        gathering = _locked(invitation.game)
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if invitation.status != Status.PENDING or invitation.expires <= timezone.now():
            raise InvitationError(_("This invitation was answered already or has lapsed."))
        if accept:
            _accept(invitation, name, language, time_zone)
        else:
            invitation.status = Status.DECLINED
            invitation.answered = timezone.now()
            invitation.save(update_fields=["status", "answered"])
        mail_answer_to_organiser(gathering.game, invitation)
        if accept and holding(gathering.game).filter(status=Status.ACCEPTED).count() == gathering.seats:
            _begin(gathering)
    return invitation


def _accept(invitation: Invitation, name: str, language: str, time_zone: str) -> None:
    name = name.strip()
    others = holding(invitation.game).filter(status=Status.ACCEPTED).exclude(pk=invitation.pk)
    if not name:
        raise InvitationError(_("Every player needs a name."))
    if any(other.name.casefold() == name.casefold() for other in others):
        raise InvitationError(_("Another player has that name; choose another."))
    invitation.status = Status.ACCEPTED
    invitation.name = name
    invitation.language = language or invitation.language or invitation.game.language
    invitation.time_zone = time_zone
    invitation.answered = timezone.now()
    invitation.save(update_fields=["status", "name", "language", "time_zone", "answered"])


def take_open_seat(
    game: Game, user: AbstractBaseUser, name: str, language: str, time_zone: str
) -> Invitation:
    """A signed-in person takes a free seat of an open game in the lobby: an invitation to their
    address, accepted at once (a random faction); the game begins when it was the last seat."""
    with transaction.atomic():
        gathering = _locked(game)
        if not gathering.published:
            raise InvitationError(_("This game is not open; its organiser invites its players."))
        email = getattr(user, "email", "") or ""
        _check_seat(gathering, email, "")
        invitation = Invitation.objects.create(game=game, email=email, expires=timezone.now())
        _accept(invitation, name, language, time_zone)
        mail_answer_to_organiser(game, invitation, lobby=True)
        if holding(game).filter(status=Status.ACCEPTED).count() == gathering.seats:
            _begin(gathering)
    return invitation


def begin_gathered_game(game: Game) -> None:
    """The organiser starts with the players who accepted (at least two, H-SETUP); invitations still
    waiting lapse."""
    with transaction.atomic():
        gathering = _locked(game)
        if holding(game).filter(status=Status.ACCEPTED).count() < 2:
            raise InvitationError(_("A game has 2 to 4 players; wait until two have accepted."))
        _begin(gathering)


def _begin(gathering: Gathering) -> None:
    """Open the game (H-SETUP) with the accepted players. The "random" factions are drawn from the
    factions nobody chose by engine.draw_factions (GameRng(seed, SEAT_DRAW_POSITION)) and recorded
    in the game's log ("FactionsDrawn", in the opening, checked by both verifiers: docs/fairness.md);
    each random invitation keeps its faction and draw too, in invitation order (the log names no one)."""
    game = gathering.game
    now = timezone.now()
    game.invitations.filter(status=Status.PENDING).update(status=Status.LAPSED, answered=now)
    accepted = list(game.invitations.filter(status=Status.ACCEPTED).order_by("pk"))
    random_seats = [i for i in accepted if not i.faction]
    drawn = None
    if random_seats:
        chosen = [i.faction for i in accepted if i.faction]
        try:
            drawn = engine.draw_factions(chosen, len(random_seats), game.seed)
        except engine.RuleViolation as violation:  # checked as each invitation was made: never so
            raise InvitationError(violation.message) from None
        for invitation, faction, draw in zip(
            random_seats, drawn.payload["drawn"], drawn.payload["draws"], strict=True
        ):
            invitation.faction, invitation.draw = faction, draw
            invitation.save(update_fields=["faction", "draw"])
    players = [PlayerSpec(i.name, i.email, i.faction, i.language, i.time_zone) for i in accepted]
    try:
        check_players(players)
    except GameSetupError as error:  # e.g. two who accepted chose one name: nothing is written
        raise InvitationError(error.message) from None
    seat_and_open(game, players, factions_drawn=drawn)
    # Each player chose their language on accepting: their pages follow it, not the browser's.
    Seat.objects.filter(game=game).update(language_chosen=True)
    gathering.began = now
    gathering.save(update_fields=["began"])


def remind_and_lapse(now: datetime | None = None) -> int:
    """The beat task: each unanswered invitation of a gathering game is reminded at REMINDER_HOURS
    and lapses at its expiry (its seat free again, the organiser told). Returns the emails queued."""
    now = now or timezone.now()
    queued = 0
    waiting = Invitation.objects.filter(status=Status.PENDING, game__gathering__began__isnull=True)
    for pk in waiting.values_list("pk", flat=True):
        with transaction.atomic():
            invitation = Invitation.objects.select_for_update().select_related("game").get(pk=pk)
            if invitation.status != Status.PENDING:
                continue
            if invitation.expires <= now:
                invitation.status = Status.LAPSED
                invitation.answered = now
                invitation.save(update_fields=["status", "answered"])
                mail_answer_to_organiser(invitation.game, invitation)
                queued += 1
                continue
            due = sum(1 for hours in REMINDER_HOURS if invitation.created + timedelta(hours=hours) <= now)
            if due > invitation.reminders_sent:
                invitation.reminders_sent = due
                invitation.save(update_fields=["reminders_sent"])
                mail_invitation(invitation, reminder=due)
                queued += 1
    return queued
