from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        from . import inbound  # noqa: F401  (issue 6: connects the anymail inbound signal)
