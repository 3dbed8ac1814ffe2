"""`manage.py runserver`, refusing an address off the loopback for the embedded key and DEBUG.

staticfiles' runserver (static files served with DEBUG on) with one check before it listens: the
address comes from its addrport argument, which settings.py cannot see.
"""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles.management.commands.runserver import Command as StaticfilesRunserver
from django.core.management.base import CommandError

from aegea_pbem.serving import bind_refusal


class Command(StaticfilesRunserver):
    def run(self, **options: Any) -> None:
        """Refuse before listening when the address is off the loopback (docs/operations.md)."""
        if refusal := bind_refusal([self.addr], "runserver's address"):
            raise CommandError(refusal)
        super().run(**options)
