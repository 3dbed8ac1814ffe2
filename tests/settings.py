"""Test settings: PostgreSQL at DATABASE_URL (the Makefile picks it), anymail's test backend."""

from aegea_pbem.settings import *  # noqa: F403

EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
