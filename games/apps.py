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

        # An email worker warms up before its first task (aegea_pbem/warmup.py); a prefork pool's
        # children are forked after it and start warm. Web processes and tests never send this.
        from celery import signals

        signals.worker_init.connect(_warm_up_worker, weak=False)


def _warm_up_worker(**_kwargs: object) -> None:
    """A failed warm-up is only a slower first email: the worker must start all the same."""
    import logging

    from django.conf import settings

    from aegea_pbem.warmup import warm_up_worker

    from .board import png

    try:
        warm_up_worker()
        png.warm_up(code for code, _name in settings.LANGUAGES)
    except Exception:  # noqa: BLE001  (its first emails then do this themselves)
        logging.getLogger(__name__).exception("the worker's warm-up failed")
