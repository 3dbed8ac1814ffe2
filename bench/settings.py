"""The product's settings with the bench installed: `make bench` and `make bench-scale` run
`manage.py bench` under it (DJANGO_SETTINGS_MODULE=bench.settings). The processes the bench times
(gunicorn, Celery workers) run the product's own settings (bench/http_load.py, bench/mail.py)."""

from aegea_pbem.settings import *  # noqa: F403
from aegea_pbem.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "bench"]
