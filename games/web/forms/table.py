"""Forms of long games (docs/long-games.md): deadlines, substitutes, messages, vacations, preferences."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import DeadlineSettings, NotificationPreference, Seat
from games.words.clock import parse_reminders, player_time_zones, valid_time_zone
from games.words.names import faction_name


class DeadlineSettingsForm(forms.ModelForm):
    class Meta:
        model = DeadlineSettings
        fields = [
            "turn_hours",
            "winter_hours",
            "time_zone",
            "skip_weekends",
            "reminders",
            "missed_turns_alert",
            "vacation_days",
            "alert_organiser",
        ]
        help_texts = {
            "time_zone": _(
                "The organiser's zone, e.g. Europe/Berlin: weekends are read in it, and deadlines"
                " shown in it to you and to every player who chose no zone of their own."
            ),
            "reminders": _(
                'Points before each deadline, comma-separated: "50%" of the time gone, "2h" before it.'
            ),
            "vacation_days": _("0 to 60 days in any 365 days."),
        }

    def clean_time_zone(self) -> str:
        zone = self.cleaned_data["time_zone"].strip()
        if not valid_time_zone(zone):
            raise forms.ValidationError(_("Unknown time zone; write e.g. Europe/Berlin or UTC."))
        return zone

    def clean_reminders(self) -> str:
        text = self.cleaned_data["reminders"]
        try:
            parse_reminders(text)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None
        return text


class HandOverForm(forms.Form):
    seat = forms.ModelChoiceField(label=_("Seat"), queryset=Seat.objects.none())
    name = forms.CharField(label=_("Substitute's name"), max_length=100)
    email = forms.EmailField(label=_("Substitute's email"))

    def __init__(self, *args: Any, game_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = Seat.objects.filter(game_id=game_id)
        self.fields["seat"].label_from_instance = lambda s: f"{faction_name(s.faction)} ({s.name})"


class MessageForm(forms.Form):
    to = forms.ChoiceField(label=_("To"))
    text = forms.CharField(label=_("Message"), widget=forms.Textarea(attrs={"rows": 3}), max_length=4000)

    def __init__(self, *args: Any, rivals: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["to"].choices = [("all", _("all players")), *[(f, faction_name(f)) for f in rivals]]


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("Days of vacation from now"), min_value=1, max_value=60)


class TimeZoneForm(forms.Form):
    """The zone a player reads times in, among deadlines.player_time_zones; blank follows the
    game's `game_zone`, named by the first choice. Alone, it is the player page's one-tap "Show my
    times in Europe/Berlin" beside the deadline: the same list and refusal as the preferences."""

    # Not required: a post without it (an older page) follows the game's zone, as before.
    time_zone = forms.ChoiceField(
        label=_("Your time zone"),
        required=False,
        help_text=_("Your deadlines, vacation and digest hour are shown in it."),
        error_messages={
            "invalid_choice": _("Unknown time zone; choose one from the list, e.g. Europe/London.")
        },
    )

    def __init__(self, *args: Any, game_zone: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        follow = gettext("the game's time zone (%(zone)s)") % {"zone": game_zone}
        self.fields["time_zone"].choices = [("", follow), *((z, z) for z in player_time_zones())]


class PreferenceForm(TimeZoneForm):
    """How and in which language a player is mailed, and the zone they read times in.

    `game_zone`: the game's zone, named by the first choice (blank: follow it); `zone`: the zone
    the player reads times in now, named by the digest hour's label (games/services/digests.py reads the
    hour in it). Build it with web/table_context.preference_form, which knows both."""

    field_order = ["mode", "digest_hour", "language", "time_zone"]
    mode = forms.ChoiceField(label=_("Emails"), choices=NotificationPreference.Mode.choices)
    digest_hour = forms.IntegerField(label=_("Digest hour (0-23)"), min_value=0, max_value=23, initial=18)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)

    def __init__(self, *args: Any, game_zone: str, zone: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, game_zone=game_zone, **kwargs)
        if zone:
            self.fields["digest_hour"].label = gettext("Digest hour (0-23, %(zone)s time)") % {"zone": zone}


class NewLinkForm(forms.Form):
    """The address a player asks a new link for (games/services/fresh_links.py, /links/new/)."""

    email = forms.EmailField(label=_("Your email address in the game"), max_length=254)
