"""`manage.py pruneoutbox [--days N] [--batch N] [--dry-run]`: blank the bodies of ended games' emails
sent more than N days ago; the rows stay as the delivery record (docs/operations.md, "Disk")."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.services.outbox_prune import prune_ended_games_outbox
from notifications.prune import DEFAULT_BATCH


class Command(BaseCommand):
    help = (
        "Blank the text and HTML bodies of sent outbox rows of ended games older than --days days "
        "(the rows, addresses, subjects, send times and message ids stay); pending and failed rows "
        "and games still running are never touched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        default_days = settings.OUTBOX_KEEP_DAYS if settings.OUTBOX_KEEP_DAYS is not None else 30
        parser.add_argument(
            "--days", type=int, default=default_days, help=f"keep bodies this many days ({default_days})"
        )
        parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help="rows per transaction")
        parser.add_argument("--dry-run", action="store_true", help="count what would go, write nothing")

    def handle(self, *args: object, days: int, batch: int, dry_run: bool, **options: object) -> None:
        try:
            report = prune_ended_games_outbox(days, batch_size=batch, dry_run=dry_run)
        except ValueError as error:
            raise CommandError(str(error)) from None
        verb = "would blank" if dry_run else "blanked"
        self.stdout.write(
            f"{verb} the bodies of {report.rows} sent outbox rows older than {days} days"
            f" of {len(report.games)} ended games ({report.characters / 1e6:.1f} million characters)"
            f" in {report.batches} batches of up to {batch}"
        )
