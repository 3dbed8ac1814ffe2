"""`manage.py exportgame GAME [--output FILE] [--as FACTION]`: the game's log as JSON (docs/export.md).

Without --as it is the operator's full export: every payload as stored. With --as FACTION (or
--as organiser) it is exactly what that reader downloads from /games/<id>/export.json.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.reading.export import ORGANISER, export_game


class Command(BaseCommand):
    help = "Write a game's whole event log (seq, type, payload, actor, time, hashes) as versioned JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", type=int, metavar="GAME", help="game id")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")
        parser.add_argument("--as", dest="reader", help="redact for this faction, or 'organiser'")

    def handle(
        self, *args: object, game: int, output: str | None, reader: str | None, **options: object
    ) -> None:
        try:
            found = Game.objects.get(pk=game)
        except Game.DoesNotExist:
            raise CommandError(f"game {game} does not exist") from None
        if reader is None:
            document = export_game(found, None, full=True)
        else:
            factions = set(found.seats.values_list("faction", flat=True))
            if reader != ORGANISER and reader not in factions:
                raise CommandError(f"--as takes one of {', '.join(sorted(factions))} or {ORGANISER}")
            document = export_game(found, None if reader == ORGANISER else reader)
        text = json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True)
        if output:
            Path(output).write_text(text + "\n", encoding="utf-8")
            self.stderr.write(f"game {game}: {len(document['events'])} events written to {output}")
        else:
            self.stdout.write(text)
