"""`manage.py creategame --player "Ana <ana@example.com>:athens" --player ... [--language de]`,
with the deadline settings of docs/long-games.md (`--turn-hours 24 --time-zone Europe/Berlin ...`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _

from games.models import DeadlineSettings
from games.reading.links import seat_url
from games.services.game_setup import GameSetupError, create_game, players_or_problems
from games.web.forms.table import DeadlineSettingsForm

# option -> DeadlineSettings field; the defaults are the model's (docs/long-games.md).
DEADLINE_OPTIONS = {
    "turn_hours": "turn_hours",
    "winter_hours": "winter_hours",
    "time_zone": "time_zone",
    "skip_weekends": "skip_weekends",
    "reminders": "reminders",
    "missed_turns": "missed_turns_alert",
    "vacation_days": "vacation_days",
}


class Command(BaseCommand):
    help = "Create a game, mail every player a welcome with their link, and print the links."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--player",
            action="append",
            required=True,
            metavar='"NAME <EMAIL>:FACTION"',
            help="A player (2 to 4); factions: athens, sparta, corinth, thebes.",
        )
        parser.add_argument("--language", default="en", help="The game's language: en or de (default en).")
        parser.add_argument("--name", default="", help="A name for the game.")
        parser.add_argument("--organiser", default=None, help="Username of the organising account.")
        deadlines = parser.add_argument_group("deadlines (docs/long-games.md)")
        deadlines.add_argument("--turn-hours", type=int, default=None, help="Hours per turn (default 48).")
        deadlines.add_argument(
            "--winter-hours", type=int, default=None, help="Hours for the sealed winter order (default 72)."
        )
        deadlines.add_argument("--time-zone", default=None, help="The organiser's zone, e.g. Europe/Berlin.")
        deadlines.add_argument(
            "--skip-weekends",
            action="store_true",
            default=None,
            help="The clock stops on Saturdays and Sundays.",
        )
        deadlines.add_argument(
            "--reminders", default=None, help='Reminder points, e.g. "50%%,2h" (the default).'
        )
        deadlines.add_argument(
            "--missed-turns",
            type=int,
            default=None,
            help="Missed turns in a row before the organiser is told (3).",
        )
        deadlines.add_argument(
            "--vacation-days", type=int, default=None, help="Vacation days per player (14)."
        )
        deadlines.add_argument(
            "--no-organiser-alerts",
            action="store_true",
            help="Do not mail the organiser about absent players.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        organiser = None
        if options["organiser"]:
            organiser = get_user_model().objects.filter(username=options["organiser"]).first()
            if organiser is None:
                raise CommandError(f"No user named {options['organiser']!r}.")
        language = options["language"] if options["language"] in dict(settings.LANGUAGES) else "en"
        # Every problem at once, as the new-game form shows them, in the game's language.
        with translation.override(language):
            players, errors = players_or_problems(options["player"])
            if language != options["language"]:
                errors.append(
                    "--language: " + _("Unknown language %(language)s.") % {"language": options["language"]}
                )
            form = self._deadline_form(options)
            errors += deadline_problems(form)
        if errors:
            raise CommandError("\n".join(errors))
        try:
            game = create_game(
                players,
                language,
                organiser=organiser,
                name=options["name"],
                deadlines=form.save(commit=False),
            )
        except GameSetupError as error:
            raise CommandError("\n".join(error.messages)) from None
        self.stdout.write(self.style.SUCCESS(f"Created {game.name} (id {game.pk}). Links:"))
        for seat in game.seats.order_by("id"):
            self.stdout.write(f"  {seat.name} ({seat.faction}): {seat_url(seat)}")

    def _deadline_form(self, options: dict[str, Any]) -> DeadlineSettingsForm:
        """The options checked by the organiser's web form, so both refuse the same with the same words."""
        defaults = DeadlineSettings()
        data = {field: getattr(defaults, field) for field in DEADLINE_OPTIONS.values()}
        data |= {
            field: options[name] for name, field in DEADLINE_OPTIONS.items() if options[name] is not None
        }
        data["alert_organiser"] = not options["no_organiser_alerts"]
        if not data["skip_weekends"]:
            del data["skip_weekends"]  # an unchecked box is absent from a form's data
        if not data["alert_organiser"]:
            del data["alert_organiser"]
        form = DeadlineSettingsForm(data, instance=defaults)
        form.is_valid()  # in the caller's language
        return form


def deadline_problems(form: DeadlineSettingsForm) -> list[str]:
    """The deadline form's errors, each named by its option: '--turn-hours: Ensure ...'."""
    named = [
        f"--{name.replace('_', '-')}: {' '.join(form.errors[field])}"
        for name, field in DEADLINE_OPTIONS.items()
        if field in form.errors
    ]
    return named or ([form.errors.as_text()] if form.errors else [])
