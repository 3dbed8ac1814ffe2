"""`manage.py eagerbeat`: Celery beat's schedule run in this process when there is no broker."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.module_loading import autodiscover_modules

from notifications.eager_beat import run_due, run_forever


class Command(BaseCommand):
    help = (
        "Without Redis (Celery eager), run CELERY_BEAT_SCHEDULE's periodic tasks in this process: "
        "sweeps of inbound mail and the outbox, deadlines, digests. `make run` starts it."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="run every task once and stop")

    def handle(self, *args: Any, once: bool = False, **options: Any) -> None:
        # A worker finds every app's tasks module by autodiscovery; here they are imported alike, for
        # app.tasks to hold them.
        autodiscover_modules("tasks")

        if not settings.CELERY_TASK_ALWAYS_EAGER:
            raise CommandError("REDIS_URL is set: run `celery -A aegea_pbem beat` and a worker instead.")
        if once:
            ran = run_due({}, 0.0)
            self.stdout.write(f"ran {', '.join(ran)}")
            return
        self.stdout.write("Running the beat schedule in this process (no Redis); Ctrl-C stops it.")
        run_forever()
