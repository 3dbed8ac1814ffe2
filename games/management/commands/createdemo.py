"""`manage.py createdemo`: a two-player demo game for `make run`, printing each player's link."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.urls import reverse

from aegea_pbem.security_config import is_loopback
from games.models import Game
from games.reading.links import seat_url
from games.services.game_setup import PlayerSpec, create_game

DEMO_NAME = "Demo"
DEMO_PLAYERS = ["Ana <ana@example.com>:athens", "Ben <ben@example.com>:sparta"]
# A password printed in the repository: created only for a loopback DEBUG server (trying the organiser
# pages on this machine), never for one others reach.
DEMO_ORGANISER = ("organiser", "aegeapolis")


def demo_organiser_allowed() -> bool:
    """Whether this server may have the demo organiser: DEBUG on and SITE_URL on the loopback."""
    return settings.DEBUG and is_loopback(urlsplit(settings.SITE_URL).hostname or "")


class Command(BaseCommand):
    help = "Create a demo game (Ana as Athens, Ben as Sparta) and print each player's link."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--language", default="en")
        parser.add_argument("--new", action="store_true", help="another demo game, beside the one there is")

    def handle(self, *args: Any, **options: Any) -> None:
        organiser = None
        if demo_organiser_allowed():
            username, password = DEMO_ORGANISER
            # A first name, as a real organiser has: the welcome emails name them ("Olga has started").
            organiser, created = get_user_model().objects.get_or_create(
                username=username, defaults={"first_name": "Olga"}
            )
            if created:
                organiser.set_password(password)
                organiser.save()
        # `make run` calls this at every start: the demo there is is played on, not joined by another.
        game = None if options["new"] else Game.objects.filter(name=DEMO_NAME).order_by("pk").first()
        if game is None:
            players = [PlayerSpec.parse(text) for text in DEMO_PLAYERS]
            game = create_game(players, options["language"], organiser=organiser, name=DEMO_NAME)
            self.stdout.write(self.style.SUCCESS(f"Demo game {game.pk} created. Each player's link:"))
        else:
            self.stdout.write(
                self.style.SUCCESS(f"Demo game {game.pk} (createdemo --new for another). Each player's link:")
            )
        for seat in game.seats.order_by("id"):
            self.stdout.write(f"  {seat.name} ({seat.faction}): {seat_url(seat)}")
        self.stdout.write(f"Emails are in {settings.EMAIL_FILE_PATH} (backend {settings.EMAIL_BACKEND}).")
        if organiser is not None:
            self.stdout.write(f"Mailbox page: {settings.SITE_URL}{reverse('games:mailbox')}")
            self.stdout.write(
                f"Organiser pages: {settings.SITE_URL}{reverse('games:organiser')} "
                f"(sign in as {DEMO_ORGANISER[0]} / {DEMO_ORGANISER[1]})"
            )
