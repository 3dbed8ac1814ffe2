"""`manage.py engine_messages [--check]`: write games/engine_messages.py from the engine's source.

Run it (then `makemessages -l de`) after adding or changing a RuleViolation message in
games/engine/; `--check` only says whether the module is up to date (exit 1 if not).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engine_message_scan import MODULE_PATH, render_module, scan


class Command(BaseCommand):
    help = "Collect the engine's RuleViolation messages into games/engine_messages.py for gettext."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--check", action="store_true", help="fail if the module is out of date")

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        result = scan()
        if result.problems:
            raise CommandError(
                "RuleViolation messages must be string literals:\n" + "\n".join(result.problems)
            )
        text = render_module(result)
        current = MODULE_PATH.read_text(encoding="utf-8") if MODULE_PATH.exists() else ""
        if check:
            if current != text:
                raise CommandError(f"{MODULE_PATH.name} is out of date: run manage.py engine_messages")
            self.stdout.write(f"{MODULE_PATH.name} is up to date ({len(result.templates)} messages).")
            return
        if current != text:
            MODULE_PATH.write_text(text, encoding="utf-8")
        self.stdout.write(f"{MODULE_PATH.name}: {len(result.templates)} engine messages.")
