"""`manage.py submitorder GAME FACTION '{"kind": "pass"}' [--expected-seq N]`: an order from the shell.

Goes through the same `submit_order` as the web form and the JSON API.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import RuleViolation, command_from_dict
from games.models import Game, Seat
from games.reading.situation import load_game
from games.services.orders import GameMovedOn, submit_order
from games.words.narration import describe


class Command(BaseCommand):
    help = "Submit one order for a seat of a game (JSON as in the API's command)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", type=int)
        parser.add_argument("faction")
        parser.add_argument("order", help='e.g. \'{"kind": "pass"}\'')
        parser.add_argument("--expected-seq", type=int, default=None, help="Default: the game's current seq.")

    def handle(self, *args: Any, **options: Any) -> None:
        seat = (
            Seat.objects.select_related("game")
            .filter(game_id=options["game"], faction=options["faction"])
            .first()
        )
        if seat is None:
            raise CommandError("No such game or faction.")
        game: Game = seat.game
        try:
            raw = json.loads(options["order"])
            raw.setdefault("player", seat.faction)
            expected = options["expected_seq"]
            if expected is None:
                expected = load_game(game).seq
            result = submit_order(game, seat, command_from_dict(raw), expected)
        except (ValueError, AttributeError):
            raise CommandError("The order must be a JSON object.") from None
        except RuleViolation as violation:
            raise CommandError(str(violation)) from None
        except GameMovedOn as moved:
            raise CommandError(str(moved.message)) from None
        for event in result.events:
            self.stdout.write(describe(event.type, event.payload, seat.faction, game=game))
