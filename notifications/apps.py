from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        # Connect anymail's signals: inbound mail (orders by email), and tracking (bounces, complaints).
        from . import inbound, tracking  # noqa: F401
