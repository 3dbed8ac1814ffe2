"""`manage.py loadscenario FILE [--player "Ana <ana@example.com>:athens" ...]`: a game from a scenario."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.reading.links import seat_url
from games.services.game_setup import GameSetupError, PlayerSpec, create_game, players_or_problems


class Command(BaseCommand):
    help = (
        "Create a game that opens from a scenario position (docs/scenarios.md) and print each seat's link. "
        "Without --player, each faction gets a local placeholder address."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="A scenario JSON file.")
        parser.add_argument("--player", action="append", default=[], metavar='"NAME <EMAIL>:FACTION"')
        parser.add_argument("--language", default="en")
        parser.add_argument("--name", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            spec = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read the scenario {path}: {error}") from None
        if not isinstance(spec, dict):
            raise CommandError("A scenario is a JSON object (docs/scenarios.md).")
        players, errors = (
            players_or_problems(options["player"]) if options["player"] else (_placeholders(spec), [])
        )
        if errors:
            raise CommandError("\n".join(errors))  # every problem at once, as creategame's
        try:
            game = create_game(
                players,
                options["language"],
                name=options["name"] or f"Scenario {path.stem}",
                scenario=spec,
            )
        except GameSetupError as error:
            raise CommandError("\n".join(error.messages)) from None
        self.stdout.write(self.style.SUCCESS(f"Created {game.name} (id {game.pk}) from {path}. Links:"))
        for seat in game.seats.order_by("id"):
            self.stdout.write(f"  {seat.name} ({seat.faction}): {seat_url(seat)}")


def _placeholders(spec: dict[str, Any]) -> list[PlayerSpec]:
    players = spec.get("players", ["athens", "sparta"])
    factions = list(players) if isinstance(players, dict | list) else []
    return [PlayerSpec(f.title(), f"{f}@players.localhost", f) for f in factions if isinstance(f, str)]
