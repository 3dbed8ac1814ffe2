"""Test settings: PostgreSQL at DATABASE_URL (the Makefile picks it), anymail's test backend."""

import os

from aegea_pbem.settings import *  # noqa: F403
from aegea_pbem.settings import DATABASES

EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Several developers share one PostgreSQL: each may name the database pytest creates.
if test_database := os.environ.get("AEGEA_TEST_DATABASE"):
    DATABASES["default"]["TEST"] = {"NAME": test_database}
