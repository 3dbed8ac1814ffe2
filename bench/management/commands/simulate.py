"""`manage.py simulate --games N --players P --seed S`: bots play whole games through the store."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from bench.simulate import SimulationFailed, simulate


class Command(BaseCommand):
    help = (
        "Play whole games with random legal orders through decide + event store + fold, checking invariants."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = simulate(options["games"], options["players"], options["seed"])
        except (SimulationFailed, ValueError) as error:
            raise CommandError(f"invariant violation: {error}") from error
        winners = ", ".join(f"{f} {n}" for f, n in report.winners.most_common())
        orders = ", ".join(f"{k} {n}" for k, n in sorted(report.commands.items()))
        self.stdout.write(f"games: {report.games}")
        self.stdout.write(f"orders: {report.orders} ({orders})")
        cards = ", ".join(f"{k} {n}" for k, n in sorted(report.cards.items()))
        trade = ", ".join(f"{k} {n}" for k, n in sorted(report.trade.items()))
        self.stdout.write(f"mission cards scored: {sum(report.cards.values())} ({cards})")
        self.stdout.write(f"trade: {trade}")
        self.stdout.write(f"never played: {', '.join(report.never_seen()) or 'none'}")
        self.stdout.write(f"events: {report.events}")
        self.stdout.write(f"seconds: {report.seconds:.1f}")
        self.stdout.write(f"events/s: {report.events_per_second:.0f}")
        self.stdout.write(f"winners: {winners}")
