"""`manage.py verifygame GAME [GAME ...] | --all [--chain-only] [--witness FILE ...]`: check hash
chains, every draw against the seed and the events, and replay every order from the seed; exit 1
names the first bad event (docs/fairness.md). A game recorded under an older rules version whose
replay differs is reported NOT CHECKED, not broken, once its draws hold; a newer rules version than
the engine's fails (H-RULES-VERSION). `--witness`: saved emails (.eml, mbox) or pasted heads; the
log must pass through every head they witness (docs/fairness.md, "Witnessed heads")."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.eventstore.replay_report import not_checked_text, other_rules_note
from games.eventstore.verification import ChainProblem, verify_chain, verify_game, witnesses_problem
from games.models import Game
from tools.verify_export import Unreadable, Witness, read_witnesses


class Command(BaseCommand):
    help = (
        "Recompute the hash chain of a game's event log, re-derive every event from the seed and the "
        "orders, and name the first altered, missing or re-rolled event."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("games", nargs="*", type=int, metavar="GAME", help="game id")
        parser.add_argument("--all", dest="every", action="store_true", help="verify every game")
        parser.add_argument("--chain-only", action="store_true", help="check only the hash chain (no replay)")
        parser.add_argument(
            "--witness",
            nargs="+",
            default=[],
            metavar="FILE",
            help="saved emails (.eml, mbox) or pasted heads (Log 431·c3f09a2e…) the log must pass through",
        )

    def handle(
        self,
        *args: object,
        games: list[int],
        every: bool,
        chain_only: bool,
        witness: list[str],
        **options: object,
    ) -> None:
        if every == bool(games):
            raise CommandError("name one or more GAME ids, or --all")
        try:
            witnesses = read_witnesses(witness) if witness else []
        except (Unreadable, OSError) as problem:
            raise CommandError(f"the witnesses cannot be read: {problem}") from None
        if every:
            games = list(Game.objects.order_by("pk").values_list("pk", flat=True))
        failed = []
        for game_id in games:
            try:
                game = Game.objects.get(pk=game_id)
            except Game.DoesNotExist:
                raise CommandError(f"game {game_id} does not exist") from None
            problem = self._verify(game, chain_only) or self._witnessed(game, witnesses)
            if problem is not None:
                self.stderr.write(f"game {game_id}: BROKEN at seq {problem.seq}: {problem.reason}")
                failed.append(f"game {game_id} seq {problem.seq}")
        if failed:
            raise CommandError(f"verification failed: {', '.join(failed)}", returncode=1)

    def _witnessed(self, game: Game, witnesses: list[Witness]) -> ChainProblem | None:
        """The log passes through every head witnessed for this game (none given: nothing to check)."""
        if not witnesses:
            return None
        problem, checked = witnesses_problem(game, witnesses)
        if problem is None:
            self.stdout.write(f"game {game.pk}: the log passes through all {checked} witnessed heads")
        return problem

    def _verify(self, game: Game, chain_only: bool) -> ChainProblem | None:
        if chain_only:
            chain = verify_chain(game)
            if chain.ok:
                self.stdout.write(f"game {game.pk}: {chain.events} events, hash chain intact")
            return chain.problem
        report = verify_game(game)
        if report.ok:
            assert report.replay is not None
            self.stdout.write(
                f"game {game.pk}: {report.chain.events} events, hash chain intact; "
                f"{report.replay.orders} orders and {report.replay.draws} draws re-derived from the seed"
                f"{other_rules_note(report.replay)}"
            )
        elif report.not_checked:
            assert report.replay is not None
            self.stdout.write(
                f"game {game.pk}: {report.chain.events} events, hash chain intact, seed matches, every"
                f" event folds, every draw is the seed's and what its batch shows;"
                f" {not_checked_text(report.replay)}"
            )
        return report.problem
