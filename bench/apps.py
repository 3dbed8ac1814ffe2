from django.apps import AppConfig


class BenchConfig(AppConfig):
    """The bench's management commands (bench, simulate); it has no models."""

    name = "bench"
