# Troccas Online — the two commands that matter: `make run` and `make test`.
# Everything is installed into .venv; nothing global is assumed beyond python3 (>= 3.11).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# The distributed test run uses the machine's PostgreSQL and Redis unless told otherwise.
SERVICES_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
SERVICES_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test checks test-embedded test-services test-timing test-engine lint contracts typecheck \
	typecheck-js venv messages sysdeps sysdeps-gettext node-deps bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# gettext's msgfmt compiles the catalogs; Debian's chromium runs the browser tests (the site
# itself does not need it, so `make run` skips it).
sysdeps:
	@bash scripts/sysdeps.sh

sysdeps-gettext:
	@TROCCAS_SKIP_CHROMIUM=1 bash scripts/sysdeps.sh

# The npm packages pinned in package-lock.json: TypeScript (typecheck-js) and axe-core, which
# the browser tests inject into the pages they check (tests/browser/axe.py).
node-deps:
	@bash scripts/node-deps.sh

messages: venv sysdeps-gettext
	$(BIN)/python manage.py compilemessages --ignore=.venv -v 0

# Half-sent requests (issue #25 item 14): a request must arrive whole within
# TROCCAS_REQUEST_TIMEOUT seconds (troccas_site/http_protocol.py; uvicorn has no header timeout
# of its own), idle keep-alive connections close after 5 s, h11's headers are capped, and one
# process takes at most 2000 connections (503 beyond). The same flags in the Dockerfile,
# docker-compose.yml and tests/support/servers.py; the proxy's in docs/operations.md.
SERVER_LIMITS = --http troccas_site.http_protocol:RequestDeadlineProtocol --timeout-keep-alive 5 \
	--h11-max-incomplete-event-size 16384 --limit-concurrency 2000

# uvicorn refuses websocket frames above 16 KiB itself; the protocol's own limit (4 KiB)
# answers anything between with MESSAGE_TOO_LARGE. DJANGO_PORT: the default trusted origins
# (the websocket Origin check, CSRF) follow the port.
run: venv messages
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo_data
	$(BIN)/python manage.py collectstatic --noinput -v 0
	DJANGO_PORT=$(PORT) $(BIN)/uvicorn troccas_site.asgi:application --host $(HOST) \
		--port $(PORT) --ws-max-size 16384 $(SERVER_LIMITS)

# The checks that keep the layers apart first (quick, and a broken contract fails the run
# before the suite), then the whole suite twice: on the embedded default (SQLite, in-memory
# layer, in-process timers) and on the distributed setup (PostgreSQL, Redis, Celery). The two
# runs share nothing (SQLite file vs PostgreSQL, free ports, their own Redis indexes) and the
# embedded one is mostly the browser tests waiting on pages, so they run side by side
# (TEST_JOBS=1: one after the other); each one's output is printed whole when it ends.
# Each run spreads its test files over TEST_WORKERS processes (pytest-xdist; --dist loadfile
# keeps a file's tests, and so its module fixtures, in one process); each worker has a test
# database of its own (pytest-django's _gwN suffix) and, distributed, a Redis index of its own
# (tests/settings.py). TEST_WORKERS=0: one process, in collection order. pytest's exit 5 (no
# test collected) fails the run like any other non-zero exit.
TEST_JOBS ?= 2
TEST_WORKERS ?= 2
# Each run's own number of workers (the same by default; measured: a third embedded worker
# or a lower priority for the distributed run does not shorten the whole, docs/operations.md).
EMBEDDED_WORKERS ?= $(TEST_WORKERS)
SERVICES_WORKERS ?= $(TEST_WORKERS)
# The tests marked `timing` measure wall-clock time (a bot's reply time must not tell its
# hand, issue #25 item 11): they run after the two parallel runs, one at a time, on a machine
# that is then doing nothing else, so the load of the suite beside them cannot be measured
# instead.
PYTEST := $(BIN)/python -m pytest -p no:cacheprovider --durations=25 \
	--dist loadfile -m 'not slow and not timing'
test: checks
	@$(MAKE) --no-print-directory --output-sync=target -j$(TEST_JOBS) test-embedded test-services
	@$(MAKE) --no-print-directory test-timing

checks: lint contracts typecheck typecheck-js

test-embedded: venv messages sysdeps node-deps
	$(PYTEST) -n $(EMBEDDED_WORKERS)

# tests/engine and tests/bots import nothing of Django (the import contracts): the embedded
# run covers them, the distributed one would only repeat them beside it.
test-services: venv messages sysdeps
	DATABASE_URL=$(SERVICES_DATABASE_URL) REDIS_URL=$(SERVICES_REDIS_URL) $(PYTEST) \
		-n $(SERVICES_WORKERS) --ignore=tests/engine --ignore=tests/bots

test-timing: venv messages
	$(BIN)/python -m pytest -p no:cacheprovider -m timing tests
	DATABASE_URL=$(SERVICES_DATABASE_URL) REDIS_URL=$(SERVICES_REDIS_URL) \
		$(BIN)/python -m pytest -p no:cacheprovider -m timing tests --ignore=tests/engine \
		--ignore=tests/bots

test-engine: venv
	$(BIN)/python -m pytest -p no:cacheprovider tests/engine

lint: venv
	$(BIN)/ruff check .

# The import contracts of pyproject.toml: the layers of ARCHITECTURE.md.
contracts: venv
	$(BIN)/lint-imports

# mypy: games, accounts and troccas_site strict, with the Django plugin (scripts/mypy.sh).
typecheck: venv
	@bash scripts/mypy.sh

# The table's JavaScript: `tsc --noEmit --checkJs`, TypeScript pinned in package.json.
typecheck-js:
	@bash scripts/typecheck-js.sh

bench: venv
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) staticfiles node_modules
