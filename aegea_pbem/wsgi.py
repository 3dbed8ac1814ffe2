"""
WSGI config for aegea_pbem project.

It exposes the WSGI callable as a module-level variable named ``application``.

For more information on this file, see
https://docs.djangoproject.com/en/5.2/howto/deployment/wsgi/
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aegea_pbem.settings")

application = get_wsgi_application()

# Each web process does now what its first orders would otherwise do (aegea_pbem/warmup.py).
from aegea_pbem.warmup import warm_up  # noqa: E402  (needs the settings configured above)

warm_up()
