"""`manage.py creategame --player "Ana <ana@example.com>:athens" --player ... [--language de]`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.links import seat_url
from games.orders import GameSetupError, PlayerSpec, create_game


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

    def handle(self, *args: Any, **options: Any) -> None:
        organiser = None
        if options["organiser"]:
            organiser = get_user_model().objects.filter(username=options["organiser"]).first()
            if organiser is None:
                raise CommandError(f"No user named {options['organiser']!r}.")
        try:
            players = [PlayerSpec.parse(text) for text in options["player"]]
            game = create_game(players, options["language"], organiser=organiser, name=options["name"])
        except GameSetupError as error:
            raise CommandError(error.message) from None
        self.stdout.write(self.style.SUCCESS(f"Created {game.name} (id {game.pk}). Links:"))
        for seat in game.seats.order_by("id"):
            self.stdout.write(f"  {seat.name} ({seat.faction}): {seat_url(seat)}")
