"""Test settings: PostgreSQL at DATABASE_URL (the Makefile picks it), anymail's test backend."""

import os

from aegea_pbem.settings import *  # noqa: F403
from aegea_pbem.settings import DATABASES, INSTALLED_APPS

# The suite tests the dev-only bench too (tests/bench/), so it is installed here as bench/settings.py
# installs it for `make bench`. The product's own settings never install it, and
# tests/bench/test_outside_the_product.py checks that no product module imports it: installing it
# for the tests cannot hide a dependency of the product on it.
INSTALLED_APPS = [*INSTALLED_APPS, "bench"]

EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Tasks run in the test's own thread unless a test starts a real worker on Redis (REDIS_URL,
# a dedicated database number the Makefile passes); that fixture turns eager mode off.
CELERY_TASK_ALWAYS_EAGER = True

# Several developers share one PostgreSQL: each may name the database pytest creates.
if test_database := os.environ.get("AEGEA_TEST_DATABASE"):
    DATABASES["default"]["TEST"] = {"NAME": test_database}

# The suite's databases are made and migrated by pytest-django as DATABASE_URL's role; a
# MIGRATE_DATABASE_URL in the developer's shell must not send them to the owner of another database.
MIGRATE_DATABASE_URL = ""

# Rate limits are off for the suite (a test run sends many orders from one address);
# tests/reliability/test_security.py turns them on explicitly.
RATE_LIMITS: dict = {}
CACHES["ratelimit"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "ratelimit"}  # noqa: F405
