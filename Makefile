# Council: two commands matter on a fresh machine, `make run` and `make test`.
.DEFAULT_GOAL := help
SHELL := /bin/bash

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# Bytecode is written and reused. A machine may set PYTHONDONTWRITEBYTECODE=1 (this
# one's sandbox does): then each of the hundred-odd Python processes the suite starts
# (servers, workers, command lines) compiles the project's modules again, and each
# pytest process rewrites every test module's asserts again (collection: 21 s of CPU
# instead of 11). Empty, it is off (docs/performance.md, "The test suite's time").
export PYTHONDONTWRITEBYTECODE :=
# Three test processes on 2 cores: many tests wait on servers and workers they start,
# so the other processes keep the cores busy meanwhile (96 % busy with three, 88 % with
# two: 9 min 30 s against 10 min 59 s for a clean clone's .ci/run; worksteal evens out
# the slow files).
TEST_JOBS ?= 3
# Where `make test` keeps the fuzzer's, the linters' and the suite's output.
TEST_LOGS := var/test-logs
# Every Python package of the checkout, for mypy: the product's and the bench's.
PACKAGES := council_site accounts site_edge view_kit api_kit debates personas sources collab decisions \
	evaluations \
	notifications integrations webhooks audit bench

# `make run` is the local, single-machine app over plain http://$(HOST):$(PORT): debug off,
# the embedded configuration's own secret key (generated into var/ on first start), local
# host names, no HTTPS redirect and mail links to http://$(HOST):$(PORT), unless the caller
# sets those variables.
RUN_ENV := DJANGO_ALLOWED_HOSTS=$${DJANGO_ALLOWED_HOSTS:-localhost,127.0.0.1,[::1]} \
	DJANGO_SECURE=$${DJANGO_SECURE:-0} \
	COUNCIL_SITE_URL=$${COUNCIL_SITE_URL:-http://$(HOST):$(PORT)}

.PHONY: help install run worker test lint migrate bench

help:
	@echo "make run     install if needed, migrate, serve http://$(HOST):$(PORT)/"
	@echo "make test    install if needed, run the whole test suite and the linter"
	@echo "make worker  run only the django-q2 task workers (make run starts them too)"
	@echo "make lint    ruff, mypy (django-stubs), import contracts (lint-imports)"
	@echo "make bench   measure workers, engine, CLI, pages, events (docs/performance.md)"

$(PY):
	$(PYTHON) -m venv $(VENV)

# The install runs again only when pyproject.toml or this file (its recipe) is newer
# than the stamp. uv installs what pip would, in a fraction of the time (a fresh venv:
# 6 s against pip's 67 s on 2 cores); each module is compiled to bytecode by its first
# import (compiling all of site-packages up front took 18-22 s more, most of it for
# modules no process imports). --system-certs: the machine's certificate store, as pip
# uses, not only uv's own (a registry behind a proxy with its own CA answers pip and not
# uv otherwise).
UV_VERSION := 0.13.9
$(STAMP): pyproject.toml Makefile | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"
	$(VENV)/bin/uv pip install --python $(PY) --quiet --system-certs -e ".[test]"
	touch $(STAMP)

# The gettext catalogues (.po in git) compiled to the .mo files the engine and the pages
# read, with Babel (no GNU gettext needed); only a .mo older than its .po is written, so
# an edited translation shows on the next `make run` or `make test` (docs/engine.md,
# "Translations").
install: $(STAMP)
	$(PY) -m debates.engine.i18n.compile debates view_kit

migrate: install
	$(RUN_ENV) $(PY) manage.py migrate --noinput

run: install
	$(RUN_ENV) $(PY) manage.py migrate --noinput
	$(RUN_ENV) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(RUN_ENV) exec $(PY) manage.py serve --host $(HOST) --port $(PORT)

worker: install
	$(RUN_ENV) exec $(PY) manage.py qcluster

# Browser tests drive Debian's chromium; without root (or apt) they skip and the
# rest of the suite still runs.
test: install
	@if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian chromium for the browser tests ..."; \
		( apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium ) \
			|| echo "WARNING: could not install chromium; browser tests will be skipped." >&2; \
	fi
	@# The API under a fuzzer (schemathesis against a site of its own with a token; any
	@# server error or off-schema answer fails: docs/api.md, "Fuzzing") and the linters
	@# run beside the suite, each into its own log, shown when the suite ends: the
	@# suite's processes spend part of their time waiting on the servers and workers they
	@# start, and these fill it (docs/performance.md, "The test suite's time"). The
	@# suite's summary is printed again last, so it is the run's last test count. A
	@# status left by an earlier run is removed first, so it cannot stand in for this one's.
	@mkdir -p $(TEST_LOGS) && rm -f $(TEST_LOGS)/*.status
	@( $(PY) -m tests.fuzz_api > $(TEST_LOGS)/fuzz.log 2>&1; echo $$? > $(TEST_LOGS)/fuzz.status ) & \
	( { $(VENV)/bin/ruff check . && $(VENV)/bin/mypy $(PACKAGES) && $(VENV)/bin/lint-imports; } \
		> $(TEST_LOGS)/lint.log 2>&1; echo $$? > $(TEST_LOGS)/lint.status ) & \
	$(PY) -m pytest -n $(TEST_JOBS) --dist worksteal $(PYTEST_ARGS) | tee $(TEST_LOGS)/pytest.log; \
	suite=$${PIPESTATUS[0]}; wait; \
	fuzz=$$(cat $(TEST_LOGS)/fuzz.status); lint=$$(cat $(TEST_LOGS)/lint.status); \
	echo "---- the API fuzzer (python -m tests.fuzz_api), exit $$fuzz ----"; \
	tail -n 20 $(TEST_LOGS)/fuzz.log; \
	echo "---- ruff, mypy, lint-imports, exit $$lint ----"; cat $(TEST_LOGS)/lint.log; \
	echo "---- the suite, exit $$suite ----"; \
	grep -E "(passed|failed|error).* in [0-9.]+s" $(TEST_LOGS)/pytest.log | tail -n 1; \
	[ "$$suite" = 0 ] && [ "$$fuzz" = 0 ] && [ "$$lint" = 0 ]

# Under 5 minutes; non-zero if a debate fails. BENCH_ARGS="--only workers" for one area.
BENCH_ARGS ?=
bench: install
	$(RUN_ENV) $(PY) -m bench $(BENCH_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy $(PACKAGES)
	$(VENV)/bin/lint-imports
