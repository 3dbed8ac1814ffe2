"""Seats that need a substitute, offered in the lobby (docs/front-door.md "Open games and the lobby").

The organiser seeks a substitute for a seat (`seek_substitute`: an absent player's, usually); the
lobby lists it; a signed-in person offers to take it over (`offer_to_substitute`, the organiser
mailed in the same transaction); the organiser reads each one's record and accepts one
(`accept_substitute`), which is the hand-over of games/services/substitutes.py: new links, the
event every player sees, the welcome to the substitute.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.mail.frontdoor import mail_offer_to_organiser
from games.models import Game, Seat, SubstituteOffer, SubstituteWanted
from games.services.game_setup import is_an_address, same_address
from games.services.substitutes import HandOverRefused, hand_over_seat


class SubstituteError(ValueError):
    """A substitute that cannot be sought, offered or accepted; the message is fit to show."""


def seek_substitute(seat: Seat) -> SubstituteWanted:
    """List the seat in the lobby as needing a substitute (again, if it was filled before)."""
    if seat.game.status != Game.Status.ACTIVE:
        raise SubstituteError(_("Only a game under way needs a substitute."))
    wanted, _created = SubstituteWanted.objects.update_or_create(seat=seat, defaults={"filled": None})
    return wanted


def offer_to_substitute(wanted: SubstituteWanted, user: AbstractBaseUser, name: str) -> SubstituteOffer:
    """A signed-in person offers to take over the seat; the organiser is told by email."""
    email = getattr(user, "email", "") or ""
    name = name.strip()
    with transaction.atomic():
        wanted = SubstituteWanted.objects.select_for_update().select_related("seat__game").get(pk=wanted.pk)
        seat = wanted.seat
        if wanted.filled is not None or seat.game.status != Game.Status.ACTIVE:
            raise SubstituteError(_("This seat has its substitute."))
        if not name or not is_an_address(email):
            raise SubstituteError(_("Every player needs a name."))
        players = seat.game.seats.values_list("email", flat=True)
        offered = wanted.offers.values_list("email", flat=True)
        if any(same_address(email, other) for other in [*players, *offered]):
            raise SubstituteError(_("%(email)s is invited already.") % {"email": email})
        offer = SubstituteOffer.objects.create(wanted=wanted, email=email, name=name)
        mail_offer_to_organiser(seat.game, offer)
    return offer


def accept_substitute(offer: SubstituteOffer) -> Seat:
    """The organiser hands the seat to the one who offered (games/services/substitutes.py)."""
    with transaction.atomic():
        wanted = (
            SubstituteWanted.objects.select_for_update().select_related("seat__game").get(pk=offer.wanted_id)
        )
        if wanted.filled is not None:
            raise SubstituteError(_("This seat has its substitute."))
        try:
            seat = hand_over_seat(wanted.seat, offer.name, offer.email)
        except HandOverRefused as refused:
            raise SubstituteError(refused.message) from None
        SubstituteOffer.objects.filter(pk=offer.pk).update(accepted=True)
        wanted.filled = timezone.now()
        wanted.save(update_fields=["filled"])
    return seat
