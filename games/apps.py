from django.apps import AppConfig
from django.utils.module_loading import autodiscover_modules


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Registers the projectors of games/projectors/ and of any app's projectors module.
        autodiscover_modules("projectors")
        from .engine import table  # noqa: F401  (the appliers of the table events)

        # What notifications asks of the game: its kinds of email, late parts, inbound handler.
        from .mail_hooks import register_with_notifications

        register_with_notifications()
