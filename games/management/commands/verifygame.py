"""`manage.py verifygame GAME [GAME ...] | --all`: check hash chains; exit 1 names the first bad event."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.verification import verify_chain


class Command(BaseCommand):
    help = "Recompute the hash chain of a game's event log and name the first altered or missing event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("games", nargs="*", type=int, metavar="GAME", help="game id")
        parser.add_argument("--all", dest="every", action="store_true", help="verify every game")

    def handle(self, *args: object, games: list[int], every: bool, **options: object) -> None:
        if every == bool(games):
            raise CommandError("name one or more GAME ids, or --all")
        if every:
            games = list(Game.objects.order_by("pk").values_list("pk", flat=True))
        failed = []
        for game_id in games:
            try:
                game = Game.objects.get(pk=game_id)
            except Game.DoesNotExist:
                raise CommandError(f"game {game_id} does not exist") from None
            report = verify_chain(game)
            if report.ok:
                self.stdout.write(f"game {game_id}: {report.events} events, hash chain intact")
            else:
                problem = report.problem
                self.stderr.write(f"game {game_id}: BROKEN at seq {problem.seq}: {problem.reason}")
                failed.append(f"game {game_id} seq {problem.seq}")
        if failed:
            raise CommandError(f"hash chain broken: {', '.join(failed)}", returncode=1)
