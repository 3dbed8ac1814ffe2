"""The organiser's new-game form (docs/order-loop.md "Creating a game"): the game's name,
language and players' lines, each line checked by game_setup.read_players."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.services.game_setup import PlayerSpec, read_players
from games.words.names import organiser_own_name


class OrganiserNamed(forms.Form):
    """The organiser's name as the players' emails show it (words.names.organiser_name), first on both
    new-game forms and prefilled with the account's (new_game_initial): an account made by signing
    in by email has none, and its address is no name to show players."""

    organiser_name = forms.CharField(
        label=_("Your name, as the players will see it"),
        max_length=150,  # the account's first_name
        required=False,
        help_text=_("Left blank, their emails call you “the organiser”."),
    )

    def organiser_name_given(self) -> str | None:
        """The name posted (valid form), None when the page had no such field (an older page)."""
        return self.cleaned_data["organiser_name"] if "organiser_name" in self.data else None


def new_game_initial(organiser: Any) -> dict[str, str]:
    """Both new-game forms start in the organiser's own language and with the name on their account."""
    return {"language": translation.get_language(), "organiser_name": organiser_own_name(organiser)}


class NewGameForm(OrganiserNamed):
    name = forms.CharField(
        label=_("Name of the game"),
        max_length=200,
        required=False,
        help_text=_("Left blank, the game is called “Game” and its number, in the game's language."),
    )
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    players = forms.CharField(
        label=_("Players, one a line: Name <email>:faction"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Factions: Athens, Sparta, Corinth, Thebes, in English or German, in any case."),
    )

    def clean_players(self) -> list[PlayerSpec]:
        """The players as PlayerSpecs; refused with every bad line at once, each named by its
        number, and what is wrong with the lines together (too many, an address given twice)."""
        lines = [line for line in self.cleaned_data["players"].splitlines() if line.strip()]
        players, problems = read_players(lines)
        line = gettext("Line %(n)s: %(problem)s")
        errors = [line % {"n": n, "problem": problem} if n else problem for n, problem in problems]
        if errors:
            raise forms.ValidationError(errors)
        return players
