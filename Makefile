# AEGEAPOLIS PBEM: `make run` to play locally, `make test` to check everything.
# Both create .venv and install requirements.txt into it when needed.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.ONESHELL:
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed
HOST ?= 127.0.0.1
PORT ?= 8000

LOCAL_POSTGRES := postgres://postgres@127.0.0.1:5432/test
LOCAL_REDIS := redis://127.0.0.1:6379/0
TEST_REDIS := redis://127.0.0.1:6379/15
# Overridable (environment or command line), so that several benches can share a machine.
BENCH_DATABASE ?= aegea_bench
BENCH_REDIS ?= redis://127.0.0.1:6379/12
BENCH_STAMP := $(VENV)/.bench-requirements-installed

# Exit 0 when the service at the URL answers.
PG_ANSWERS = $(PY) -c 'import sys, psycopg; psycopg.connect(sys.argv[1], connect_timeout=3).close()'
REDIS_ANSWERS = $(PY) -c 'import sys, redis; redis.Redis.from_url(sys.argv[1], socket_connect_timeout=3).ping()'

.PHONY: help venv machine run test bench bench-scale lint format

help:
	@echo "make run    start the service at http://$(HOST):$(PORT)/ (plus Celery when Redis answers)"
	@echo "make test   run the test suite (PostgreSQL at DATABASE_URL or the local test database, else SQLite)"
	@echo "make bench  time orders, loads, replay, email delivery and HTTP on PostgreSQL + Redis (~3-4 min),"
	@echo "            and the bot's strength in ~500 games (~30 min more; BENCH_ARGS=\"--only bot\" alone)"
	@echo "make bench-scale  the order latency on ~2 million seeded events against an empty database"
	@echo "make lint   ruff check, ruff format --check and the layers' import contracts (lint-imports)"

$(STAMP): requirements.txt
	@if [ ! -x $(PY) ]; then $(PYTHON) -m venv $(VENV); fi
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

venv: $(STAMP)

# The bench's own dependencies (the peer it measures orders against), not the product's.
$(BENCH_STAMP): $(STAMP) bench/requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r bench/requirements.txt
	touch $(BENCH_STAMP)

run: $(STAMP)
	@mkdir -p var
	# Links in emails must point at this server unless SITE_URL says otherwise. With no SECRET_KEY
	# and DEBUG on, HOST must be the loopback (127.0.0.1 by default): anything else refuses to start.
	export SITE_URL="$${SITE_URL:-http://$(HOST):$(PORT)}"
	# REDIS_URL unset: the local Redis if it answers, else the embedded mode. REDIS_URL= (empty): the
	# embedded mode. REDIS_URL set: that Redis, or no start at all, since with a broker configured that
	# does not answer no task would run and every email would wait for ever. Decided first, so that
	# the demo game's emails below go out the same way as every later one.
	if [ -n "$${REDIS_URL-unset}" ] && $(REDIS_ANSWERS) "$${REDIS_URL:-$(LOCAL_REDIS)}" 2>/dev/null; then
		export REDIS_URL="$${REDIS_URL:-$(LOCAL_REDIS)}"
	elif [ -n "$${REDIS_URL:-}" ]; then
		echo "REDIS_URL=$$REDIS_URL does not answer, so no email would be sent: start that Redis, or run" >&2
		echo "'REDIS_URL= make run' for the embedded mode (tasks in the web process, no Redis)." >&2
		exit 1
	else
		export REDIS_URL=
	fi
	$(PY) manage.py migrate --noinput
	$(MAKE) --no-print-directory messages
	# The demo game (made once; `manage.py createdemo --new` for another): each player's link printed.
	if $(PY) manage.py help createdemo >/dev/null 2>&1; then $(PY) manage.py createdemo; fi
	pids=()
	trap 'if [ $${#pids[@]} -gt 0 ]; then kill $${pids[@]} 2>/dev/null || true; wait $${pids[@]} 2>/dev/null || true; fi' EXIT INT TERM
	if [ -n "$$REDIS_URL" ]; then
		$(PY) -m celery -A aegea_pbem worker --loglevel=INFO --concurrency=2 >var/celery-worker.log 2>&1 & pids+=($$!)
		$(PY) -m celery -A aegea_pbem beat --loglevel=INFO --schedule var/celerybeat-schedule >var/celery-beat.log 2>&1 & pids+=($$!)
		echo "Celery worker and beat on $$REDIS_URL (logs in var/celery-*.log)"
	else
		# Eager: each nudge runs in its caller; eagerbeat runs beat's schedule (sweeps, deadlines, digests).
		$(PY) manage.py eagerbeat >var/eager-beat.log 2>&1 & pids+=($$!)
		sleep 2
		kill -0 $${pids[-1]} 2>/dev/null || { echo "manage.py eagerbeat did not start:" >&2; cat var/eager-beat.log >&2; exit 1; }
		echo "No Redis: Celery tasks run eagerly inside the web process; the beat schedule in manage.py eagerbeat (log in var/eager-beat.log)"
	fi
	echo "AEGEAPOLIS is running at http://$(HOST):$(PORT)/  (emails land in $${MAILBOX_DIR:-var/mailbox}/; Ctrl-C stops)"
	$(PY) manage.py runserver --noreload $(HOST):$(PORT)

# The machine's part of `make test`: local PostgreSQL and Redis started, Debian's Chromium, gettext
# and cairo installed when missing (tools/machine-setup; as root, else it prints the command).
machine:
	@bash tools/machine-setup

# The suite tests the bench too (tests/bench/: the eventsourcing peer), so it installs the bench's own
# requirements; the product's requirements.txt never names them.
test: $(BENCH_STAMP) machine
	@db="$${DATABASE_URL:-}"
	if [ -z "$$db" ]; then
		if $(PG_ANSWERS) "$(LOCAL_POSTGRES)" 2>/dev/null; then db="$(LOCAL_POSTGRES)"
		elif [ -n "$${CI:-}" ]; then echo "CI: PostgreSQL at $(LOCAL_POSTGRES) does not answer" >&2; exit 1
		else db="sqlite:///$(CURDIR)/var/test.sqlite3"; echo "No PostgreSQL answers: testing on SQLite"; fi
	fi
	redis_url="$${REDIS_URL:-$(TEST_REDIS)}"
	if [ -n "$${CI:-}" ]; then
		case "$$db" in postgres*) ;; *) echo "CI: DATABASE_URL must be PostgreSQL, not $$db" >&2; exit 1;; esac
		$(PG_ANSWERS) "$$db" || { echo "CI: PostgreSQL at $$db does not answer" >&2; exit 1; }
		$(REDIS_ANSWERS) "$$redis_url" || { echo "CI: Redis at $$redis_url does not answer" >&2; exit 1; }
	fi
	$(MAKE) --no-print-directory messages
	echo "Testing against $$db (Redis $$redis_url)"
	DATABASE_URL="$$db" REDIS_URL="$$redis_url" $(VENV)/bin/pytest $(PYTEST_ARGS)

# The German catalogue (locale/de/LC_MESSAGES/django.po) compiled to django.mo (build output, not
# committed). Needs msgfmt from GNU gettext (Debian: apt-get install gettext; .ci/run installs it).
messages: $(STAMP)
	@command -v msgfmt >/dev/null || { echo "msgfmt is missing: apt-get install gettext" >&2; exit 1; }
	$(PY) manage.py compilemessages --ignore=.venv --ignore=var --ignore=test-artifacts -v 0

bench: $(BENCH_STAMP)
	@admin_url="$${BENCH_ADMIN_DATABASE_URL:-$${DATABASE_URL:-$(LOCAL_POSTGRES)}}"
	$(PG_ANSWERS) "$$admin_url" || { echo "make bench needs PostgreSQL: $$admin_url does not answer" >&2; exit 1; }
	bench_url="$$($(PY) -c 'import sys; from urllib.parse import urlsplit; u = urlsplit(sys.argv[1]); print(u._replace(path="/$(BENCH_DATABASE)").geturl())' "$$admin_url")"
	scratch() { $(PY) -c 'import sys, psycopg; c = psycopg.connect(sys.argv[1], autocommit=True); c.execute("DROP DATABASE IF EXISTS $(BENCH_DATABASE) WITH (FORCE)"); sys.argv[2] == "create" and c.execute("CREATE DATABASE $(BENCH_DATABASE)"); c.close()' "$$admin_url" "$$1"; }
	scratch create
	trap 'scratch drop' EXIT
	redis_url="$${BENCH_REDIS_URL:-$(BENCH_REDIS)}"
	$(REDIS_ANSWERS) "$$redis_url" || { echo "make bench needs Redis: $$redis_url does not answer" >&2; exit 1; }
	DATABASE_URL="$$bench_url" $(PY) manage.py migrate --noinput -v 0
	# DEBUG=0 as in production: with DEBUG on, Django also records every query the bench times.
	# DEBUG=0 refuses the embedded key: a key of the bench's own unless SECRET_KEY is set.
	export SECRET_KEY="$${SECRET_KEY:-$$($(PY) -c 'import secrets; print(secrets.token_urlsafe(50))')}"
	# bench.settings: the product's settings with the dev-only bench app (its commands) installed.
	DATABASE_URL="$$bench_url" REDIS_URL="$$redis_url" DEBUG=0 DJANGO_SETTINGS_MODULE=bench.settings \
		$(PY) manage.py bench --json bench-results.json $(BENCH_ARGS)

bench-scale:
	@$(MAKE) --no-print-directory bench BENCH_ARGS="--only scale --json bench-scale-results.json"

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	# The dependency rule of docs/architecture.md: the contracts in .importlinter.
	$(VENV)/bin/lint-imports

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
