"""A generic mail queue and inbound-mail store: the outbox (rows written in the caller's transaction,
rendered and sent once by a Celery worker), the inbound webhook's stored mail, the ESP's tracking
events, and their sweeps. It may import Django, anymail, Celery and aegea_pbem, and nothing of games:
the app whose emails it carries registers what it needs of that app in hooks.py (its kinds of email,
late parts, inbound handler and delivery reports; games/mail_hooks.py), and
tests/notifications/test_independent.py checks that no module here imports games.
"""
