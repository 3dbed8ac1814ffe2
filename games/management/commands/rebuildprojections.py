"""`manage.py rebuildprojections`: rebuild every read model from the event logs alone."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.eventstore.projections import rebuild_projections


class Command(BaseCommand):
    help = "Delete every read model and replay all games' events through the registered projectors."

    def handle(self, *args: object, **options: object) -> None:
        report = rebuild_projections()
        names = ", ".join(report.projectors)
        self.stdout.write(f"rebuilt {names} from {report.events} events of {report.games} games")
