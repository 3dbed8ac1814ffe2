"""The front door (docs/front-door.md): sign-in links, a game gathering its players, invitations.

A `SignInRequest` is one emailed sign-in link: its token is the row's id signed with the site's
key (games/services/sign_in.py), never stored, good until `expires` and once. A `Gathering` is a
game before its opening: how many seats it wants, whether strangers may take one (an open game in
the lobby). Each `Invitation` is one seat asked of one address: pending, accepted (with the name,
language and time zone the player chose), declined or lapsed. Seats are made from the accepted
invitations when the game begins (games/services/invitations.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .store import Game


class SignInRequest(models.Model):
    """One sign-in link mailed to `email` (its outbox row is keyed by this row's id)."""

    email = models.EmailField(_("email"))
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, default="en")
    created = models.DateTimeField(_("created"), auto_now_add=True)
    expires = models.DateTimeField(_("expires"))
    used = models.DateTimeField(_("used"), null=True, blank=True)
    # Where the person was going when asked to sign in (a local path, checked again on use): the
    # link lands them there, e.g. on the lobby's seat they chose (docs/front-door.md "Sign-in").
    next_path = models.CharField(_("next page"), max_length=300, blank=True, default="")

    def __str__(self) -> str:
        return f"sign-in {self.pk} for {self.email}"


class Gathering(models.Model):
    """A game gathering its players: it begins when every seat has accepted (or the organiser says)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="gathering")
    seats = models.PositiveSmallIntegerField(_("seats"), default=4)
    published = models.BooleanField(_("open to anyone in the lobby"), default=False)
    began = models.DateTimeField(_("began"), null=True, blank=True)

    def __str__(self) -> str:
        return f"gathering of game {self.game_id}"


class Invitation(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        LAPSED = "lapsed", _("Lapsed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("email"))
    faction = models.CharField(_("faction"), max_length=16, blank=True, default="")  # "": drawn at the start
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PENDING)
    name = models.CharField(_("name"), max_length=100, blank=True, default="")
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, default="en")
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")
    created = models.DateTimeField(_("created"), auto_now_add=True)
    expires = models.DateTimeField(_("expires"))
    answered = models.DateTimeField(_("answered"), null=True, blank=True)
    reminders_sent = models.PositiveSmallIntegerField(_("reminders sent"), default=0)
    # The faction draw of a "random" seat, [label, n, value] of GameRng(seed, -1): a copy of its entry
    # in the log's "FactionsDrawn", which names no one (docs/front-door.md "Invitations").
    draw = models.JSONField(_("faction draw"), default=list, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"invitation {self.pk} to game {self.game_id} ({self.status})"


class SubstituteWanted(models.Model):
    """The organiser seeks a substitute for a seat in the lobby (docs/front-door.md "Open games")."""

    seat = models.OneToOneField("games.Seat", on_delete=models.CASCADE, related_name="substitute_wanted")
    created = models.DateTimeField(_("created"), auto_now_add=True)
    filled = models.DateTimeField(_("filled"), null=True, blank=True)

    def __str__(self) -> str:
        return f"substitute wanted for seat {self.seat_id}"


class SubstituteOffer(models.Model):
    """A signed-in person offers to take over a seat; the organiser accepts one (the hand-over)."""

    wanted = models.ForeignKey(SubstituteWanted, on_delete=models.CASCADE, related_name="offers")
    email = models.EmailField(_("email"))
    name = models.CharField(_("name"), max_length=100)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    accepted = models.BooleanField(_("accepted"), default=False)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"offer {self.pk} for seat {self.wanted.seat_id}"
