"""Settings for the AEGEAPOLIS PBEM service, read from the environment.

With no environment at all the service runs embedded: SQLite in a local file,
emails written to a local mailbox folder, Celery tasks run eagerly. Setting
DATABASE_URL, REDIS_URL and an anymail ESP turns it into the real thing.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from aegea_pbem.security_config import (
    TEST_CLIENT_HOST,
    debug_off_refusal,
    loopback_refusal,
    parse_rate_limits,
    parse_trusted_proxies,
    weak_key_refusal,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEFAULT_SECRET_KEY = "insecure-embedded-default-key-change-me"
SECRET_KEY = os.environ.get("SECRET_KEY", DEFAULT_SECRET_KEY)
EMBEDDED_KEY = SECRET_KEY == DEFAULT_SECRET_KEY
PRODUCTION = os.environ.get("AEGEA_PRODUCTION", "0") == "1"
# DEBUG is on for the embedded default and off by default in production.
DEBUG = os.environ.get("DEBUG", "0" if PRODUCTION else "1") == "1"
if PRODUCTION and EMBEDDED_KEY:
    raise ImproperlyConfigured("AEGEA_PRODUCTION=1 refuses the embedded default key: set SECRET_KEY.")
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("AEGEA_PRODUCTION=1 refuses DEBUG on: unset DEBUG or set DEBUG=0.")
if refusal := debug_off_refusal(embedded_key=EMBEDDED_KEY, debug=DEBUG):
    raise ImproperlyConfigured(refusal)

SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
SITE_HTTPS = SITE_URL.startswith("https://")
# In production only the site's own host and the ones configured; the local names are the
# embedded default's (a production server answers no Host header it was not told about).
_LOCAL_HOSTS = "" if PRODUCTION else f"localhost,127.0.0.1,[::1],{TEST_CLIENT_HOST}"
ALLOWED_HOSTS = [host for host in os.environ.get("ALLOWED_HOSTS", _LOCAL_HOSTS).split(",") if host]
if (_site_host := urlsplit(SITE_URL).hostname) and _site_host not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(_site_host)
# The embedded key and DEBUG serve this machine only: links and Host names elsewhere refuse to start
# (runserver's and gunicorn's addresses are checked as they start: aegea_pbem/serving.py).
_served_at = [("SITE_URL", _site_host or "")]
_served_at += [("ALLOWED_HOSTS", host) for host in ALLOWED_HOSTS if host != TEST_CLIENT_HOST]
if refusal := loopback_refusal(_served_at, embedded_key=EMBEDDED_KEY, debug=DEBUG):
    raise ImproperlyConfigured(refusal)
# Serving others (DEBUG off; DEBUG on serves only the loopback, above), the key must be one Django's
# deploy check would pass: a short or repetitive one can be guessed, and every link forged with it.
if refusal := weak_key_refusal(SECRET_KEY, _served_at, embedded_key=EMBEDDED_KEY, debug=DEBUG):
    raise ImproperlyConfigured(refusal)
CSRF_TRUSTED_ORIGINS = [SITE_URL] if SITE_HTTPS else []
# A refused form says what to do, in the reader's language (Django's own page is English only).
CSRF_FAILURE_VIEW = "aegea_pbem.errors.csrf_failure"

if PRODUCTION:
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SITE_HTTPS
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # An https site answers plain http with a redirect to https (the health check excepted: a load
    # balancer asks it over plain http), unless SECURE_SSL_REDIRECT=0 (a proxy that redirects itself).
    SECURE_SSL_REDIRECT = os.environ.get("SECURE_SSL_REDIRECT", "1" if SITE_HTTPS else "0") == "1"
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    # HSTS whenever the site is served over https (a year), unless SECURE_HSTS_SECONDS says otherwise.
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if SITE_HTTPS else "0"))
SECURE_CONTENT_TYPE_NOSNIFF = True
# Links carry the seat's token in their path: no page may hand its address to another site.
# "same-origin", not "no-referrer": under no-referrer browsers send `Origin: null` with every form
# POST, and Django's CSRF check then refuses every order (403) in a real browser.
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    # First, so its runserver (which refuses an address off the loopback for the embedded key and
    # DEBUG) is the one manage.py runs, not staticfiles' below.
    "aegea_pbem",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "anymail",
    "games",
    "notifications",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "aegea_pbem.security.SecurityHeadersMiddleware",
    # Sessions, CSRF, the signed-in user and messages: not under /api/, which a token authenticates
    # and no cookie does (aegea_pbem/off_api.py).
    "aegea_pbem.off_api.Sessions",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "aegea_pbem.off_api.Csrf",
    "aegea_pbem.off_api.Authentication",
    "aegea_pbem.off_api.Messages",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "aegea_pbem.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # |rule_links in every template, no {% load %}: a rule code in a refusal or the history
            # links to its rule on the rules page (games/web/rule_links.py).
            "builtins": ["games.web.rule_links"],
        },
    },
]

WSGI_APPLICATION = "aegea_pbem.wsgi.application"

VAR_DIR = Path(os.environ.get("AEGEA_VAR_DIR", BASE_DIR / "var"))
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'aegea.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by the server, and a statement run 5 times on a connection prepared there:
    # psycopg then neither quotes parameters in Python nor has PostgreSQL parse and plan an order's
    # dozen statements anew each time (~1.4x the orders/s on the bench). Behind PgBouncer
    # in transaction mode older than 1.21, set DB_PREPARE_THRESHOLD=off (docs/operations.md).
    threshold = os.environ.get("DB_PREPARE_THRESHOLD", "5")
    DATABASES["default"]["OPTIONS"] = {
        "server_side_binding": os.environ.get("DB_SERVER_SIDE_BINDING", "1") == "1",
        "prepare_threshold": None if threshold == "off" else int(threshold),
    }
    # psycopg turns a statement's %s placeholders into $n by a tokenizer in Python, and keeps the
    # result (an LRU keyed by the statement's text) only for statements of at most 50 parameters.
    # An order's INSERTs of its events and emails have up to ~100 (9 and 20 columns a row), and
    # tokenizing one again cost ~0.2 ms each time, several percent of an order's CPU. The bound
    # decides only what is cached, never what is sent (tests/aegea_pbem/test_settings.py checks it exists).
    import psycopg._queries

    psycopg._queries.MAX_CACHED_STATEMENT_PARAMS = 1000
# The tables' owner, for `manage.py migrate` only (docs/operations.md, "Two database roles"): set in
# the release step's environment, never the web's or the workers', whose DATABASE_URL role then
# cannot alter, truncate, update or delete the event table. Empty: migrate as DATABASE_URL's role.
MIGRATE_DATABASE_URL = os.environ.get("MIGRATE_DATABASE_URL", "")
# submit_order sends its statements without waiting for each answer (aegea_pbem/sql_pipeline.py);
# "off" waits for each, for a proxy in front of PostgreSQL that cannot take a pipeline.
DB_PIPELINE = os.environ.get("DB_PIPELINE", "on") != "off"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default: one writer at a time, taken at BEGIN so racing appends wait for
    # each other and then see the new head (ConcurrencyError) instead of "database is locked".
    if DATABASES["default"]["NAME"] != ":memory:":
        Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["aegea_pbem.formats"]  # a deadline's date and time per language
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"

# Email: an anymail ESP when configured, else a mailbox folder a person can read.
MAILBOX_DIR = Path(os.environ.get("MAILBOX_DIR", VAR_DIR / "mailbox"))
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = str(MAILBOX_DIR)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "AEGEAPOLIS <turns@aegeapolis.localhost>")
ANYMAIL = {
    key.removeprefix("ANYMAIL_"): value for key, value in os.environ.items() if key.startswith("ANYMAIL_")
}

# Celery: Redis when configured; otherwise tasks run eagerly in the caller.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE: dict = {
    "notifications-sweep-outbox": {"task": "notifications.sweep_outbox", "schedule": 60.0},
    "notifications-sweep-inbound": {"task": "notifications.sweep_inbound", "schedule": 60.0},
    # Deadlines and digests (docs/long-games.md) are polled from the database (no long countdown tasks).
    "games-tick-deadlines": {"task": "games.tick_deadlines", "schedule": 60.0},
    "games-send-digests": {"task": "games.send_digests", "schedule": 300.0},
    # Invitations unanswered (docs/front-door.md): reminded, and lapsed when old, freeing their seats.
    "games-remind-invitations": {"task": "games.remind_invitations", "schedule": 3600.0},
    # Sign-in requests expired or spent a day ago (docs/front-door.md "Sign-in") are deleted.
    "games-prune-sign-ins": {"task": "games.prune_sign_ins", "schedule": 86400.0},
    # Seat grants revoked or expired a day ago (docs/operations.md "Links and the seat cookie").
    "games-prune-seat-grants": {"task": "games.prune_seat_grants", "schedule": 86400.0},
}
# Sent emails of ended games keep their bodies this many days; then the daily beat task blanks them
# (the rows stay: games/services/outbox_prune.py, docs/operations.md "Disk"). "off" keeps them for ever.
_outbox_keep_days = os.environ.get("OUTBOX_KEEP_DAYS", "30").strip().lower()
OUTBOX_KEEP_DAYS: int | None = None if _outbox_keep_days == "off" else int(_outbox_keep_days)
if OUTBOX_KEEP_DAYS is not None and OUTBOX_KEEP_DAYS < 0:
    raise ImproperlyConfigured("OUTBOX_KEEP_DAYS is a number of days (0 or more) or off.")
if OUTBOX_KEEP_DAYS is not None:
    CELERY_BEAT_SCHEDULE["games-prune-outbox"] = {"task": "games.prune_outbox", "schedule": 86400.0}
# Published heads (docs/operations.md "Published heads"): once a day the head of every game whose log
# moved goes to the public /log-heads/ list and, if set, to a webhook (JSON POST) or an email address.
CELERY_BEAT_SCHEDULE["games-publish-heads"] = {"task": "games.publish_heads", "schedule": 86400.0}
LOG_HEADS_WEBHOOK_URL = os.environ.get("LOG_HEADS_WEBHOOK_URL", "")
LOG_HEADS_EMAIL = os.environ.get("LOG_HEADS_EMAIL", "")
# Orders by email reply (docs/email-orders.md): replies go to orders+<token>@INBOUND_DOMAIN, which the ESP's
# inbound route posts to /anymail/<esp>/inbound/. Empty: emails carry no Reply-To.
INBOUND_DOMAIN = os.environ.get("INBOUND_DOMAIN", "")
INBOUND_MAX_BYTES = int(os.environ.get("INBOUND_MAX_BYTES", str(1024 * 1024)))
# The largest inbound webhook post read at all (notifications/webhooks.py): up to it, a mail
# over INBOUND_MAX_BYTES gets a polite "too large" answer; above it, 413 unread, no answer.
INBOUND_POST_MAX_BYTES = int(os.environ.get("INBOUND_POST_MAX_BYTES", str(20 * 1024 * 1024)))

# Rate limits (aegea_pbem/rate_limits.py, docs/operations.md "Behind a reverse proxy"), per seat for
# a request with a valid link token, else per client address: "orders=30/60,links=120/60,
# logins=10/300" means 30 orders and 120 link openings a minute and 10 sign-ins in 5 minutes;
# "newlinks=5/3600" 5 asks for a new link an hour; a sign-in link or a password reset mails the
# address asked for, so "mailbox=5/3600,signins=20/3600,resets=20/3600,mailbox_day=30/86400": 5 an
# hour to one address from one client, 20 sign-in links and 20 resets an hour per client, and at
# most 30 a day to one address from all clients together (docs/front-door.md "Sign-in");
# "invitations=20/3600" 20 invitations an hour per organiser; "messages=60/86400": 60 messages from
# one seat to one rival in any 24 hours (counted from the log: games/services/message_caps.py);
# "off" turns them off.
RATE_LIMITS = parse_rate_limits(
    os.environ.get(
        "RATE_LIMITS",
        "orders=30/60,links=120/60,logins=10/300,newlinks=5/3600,signins=20/3600,resets=20/3600,"
        "mailbox=5/3600,mailbox_day=30/86400,invitations=20/3600,messages=60/86400",
    )
)
# The proxies whose X-Forwarded-For names the client (addresses and CIDR networks); none by default.
TRUSTED_PROXIES = parse_trusted_proxies(os.environ.get("TRUSTED_PROXIES", ""))
# django-ratelimit counts in the "ratelimit" cache below; when the cache fails nobody is limited.
RATELIMIT_USE_CACHE = "ratelimit"
RATELIMIT_FAIL_OPEN = True
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "ratelimit": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "ratelimit"}
    ),
}

# Link tokens never reach a log (docs/operations.md): the loggers Django writes request paths to
# (every 4xx answer, a CSRF refusal, runserver's request lines) redact them in the record itself,
# before any handler (also Django's own) sees it; the console handler redacts whatever else comes.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact_link_tokens": {"()": "aegea_pbem.security.RedactLinkTokens"},
        "hide_task_arguments": {"()": "aegea_pbem.security.HideTaskArguments"},
    },
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_link_tokens"]},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},  # Django's own
    },
    "loggers": {
        "django.request": {"filters": ["redact_link_tokens"]},
        "django.security.csrf": {"filters": ["redact_link_tokens"]},
        "celery.app.trace": {"filters": ["hide_task_arguments"]},
        "django.server": {
            "handlers": ["django.server"],
            "level": "INFO",
            "propagate": False,
            "filters": ["redact_link_tokens"],
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
