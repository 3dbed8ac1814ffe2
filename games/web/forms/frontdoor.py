"""The front door's forms (docs/front-door.md): the sign-in address, a game that gathers its players,
an invitation, and the invited person's answer."""

from __future__ import annotations

from zoneinfo import available_timezones

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games.engine import data as engine_data
from games.models import Seat
from games.web.forms.organiser import OrganiserNamed
from games.words.names import faction_name


class SignInForm(forms.Form):
    email = forms.EmailField(label=_("Your email address"), max_length=254)


class GatheringForm(OrganiserNamed):
    name = forms.CharField(
        label=_("Name of the game"),
        max_length=200,
        required=False,
        help_text=_("Left blank, the game is called “Game” and its number, in the game's language."),
    )
    language = forms.ChoiceField(label=_("Language of the invitations"), choices=settings.LANGUAGES)
    seats = forms.TypedChoiceField(
        label=_("Players"), choices=[(n, str(n)) for n in (2, 3, 4)], coerce=int, initial=4
    )
    published = forms.BooleanField(
        label=_("Open game: list it in the lobby, where anyone signed in may take a free seat"),
        required=False,
    )


def _faction_choices() -> list[tuple[str, str]]:
    return [("", _("Random (drawn when the game begins)"))] + [
        (f, faction_name(f)) for f in engine_data.FACTION_IDS
    ]


class InvitationForm(forms.Form):
    email = forms.EmailField(label=_("Player's email address"), max_length=254)
    faction = forms.ChoiceField(label=_("Faction"), choices=_faction_choices, required=False)
    # One friend reads German, another English: each invitation in its own (the game's, to start).
    language = forms.ChoiceField(
        label=_("Language of the invitation"), choices=settings.LANGUAGES, required=False
    )


class AnswerForm(forms.Form):
    """Accepting a seat: the name the others see, the emails' language and the player's time zone."""

    name = forms.CharField(
        label=_("Your name in the game"), max_length=Seat._meta.get_field("name").max_length
    )
    language = forms.ChoiceField(label=_("Language of your emails"), choices=settings.LANGUAGES)
    time_zone = forms.CharField(
        label=_("Your time zone"), max_length=64, required=False, help_text=_("For example Europe/Berlin.")
    )

    def clean_time_zone(self) -> str:
        zone = self.cleaned_data["time_zone"].strip()
        if zone and zone not in available_timezones():
            raise forms.ValidationError(_("Unknown time zone %(zone)s.") % {"zone": zone})
        return zone


class OfferForm(forms.Form):
    name = forms.CharField(
        label=_("Your name in the game"), max_length=Seat._meta.get_field("name").max_length
    )
