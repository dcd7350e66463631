# Two commands do everything on a fresh machine (Python 3.11+ and make):
#   make run   - set up .venv, migrate the embedded SQLite database, seed a demo, serve
#   make test  - set up .venv and run lint, types and the whole test suite
#   make club  - serve a club night of your own to the players' phones (no demo)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

# Python's compiled bytecode is kept, under .venv/pycache (out of the checkout), whatever the
# environment says: with PYTHONDONTWRITEBYTECODE set (as on this kind of machine), every process
# (each test worker, each server or command a test starts) compiled Django and the project anew.
unexport PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX := $(CURDIR)/$(VENV)/pycache

.PHONY: run club check test test-quiet lint pytest browser-tools catalogs stack bench bench-engine bench-engine-instructions bench-append-instructions bench-competition bench-drop-orders bench-store bench-scoring bench-versus bench-api bench-stack bench-web bench-board bench-standings bench-recorder bench-seasons bench-live client clean bench-push-admission

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py seed_demo --if-empty
	DEBUG=1 $(BIN)/python manage.py seed_demo_seasons --if-empty
	@echo "Serving on http://$(HOST):$(PORT)/  - the demo (DEBUG only), user name = password:"
	@echo "  http://$(HOST):$(PORT)/                         the tournaments, live (no sign-in)"
	@echo "  http://$(HOST):$(PORT)/keep/                    the phone page: scorekeeper / scorekeeper"
	@echo "      then confirm as a player of the match (Tigers v Lotus: eshan / eshan); every demo"
	@echo "      player signs in with the name in lower case: anil ... hema, asha, bilal ..."
	@echo "  http://$(HOST):$(PORT)/desk/                    the director's desk (New evening): organizer / organizer"
	@echo "  http://$(HOST):$(PORT)/keep/ as anil / anil      the Online friendly's digital match: play your seat (and bina, govind, hema)"
	@echo "  http://$(HOST):$(PORT)/admin/                   the admin: organizer / organizer"
	@echo "  http://$(HOST):$(PORT)/c/friday-seep-club/      the club: its season's ladder, ratings, members' pages"
	@echo "  http://$(HOST):$(PORT)/api/v1/matches/<id>/stream/  the API's streams, served here too (docs/api.md)"
	@echo "  webhooks: to public hosts only; WEBHOOKS_ALLOW_PRIVATE_NETWORKS=$${WEBHOOKS_ALLOW_PRIVATE_NETWORKS:-0} (1: this machine's too)"
	@echo "  http://$(HOST):$(PORT)/accounts/signup/         a new organizer signs up (SIGNUP_OPEN=$${SIGNUP_OPEN:-1}): the mail is printed here"
	SIGNUP_OPEN=$${SIGNUP_OPEN:-1} DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# The pages' translations (docs/languages.md): locale/<language>/LC_MESSAGES/django.po, by
# hand, compiled to the django.mo beside it with polib (no GNU gettext needed); both are
# committed, and tests/web/test_languages.py fails when they differ. After marking new words:
#   DEBUG=1 .venv/bin/python manage.py makemessages -l hi -l pa -l ur -l bn -l en --no-location \
#     -i node_modules -i clients -i tests -i .venv -i bench -i docs   (needs xgettext)
# then translate them in each django.po and run `make catalogs`.
catalogs: $(STAMP)
	DEBUG=1 $(BIN)/python manage.py compile_catalogs

# A club night served to the players' phones from this laptop (deploy/club.py): its own
# database (club.sqlite3), the first organizer asked for on the spot, the laptop's network
# address in every link and card (SITE_URL), gunicorn on every address of the laptop. CLUB_HOST
# and PORT override what it finds. Ctrl-C stops it; run it again to go on with the evening.
club: $(STAMP)
	$(BIN)/python -m deploy.club

# The production processes on this machine (deploy/Procfile through honcho): gunicorn, two
# Celery workers, one beat, against the local PostgreSQL and Redis (see deploy/stack.py for
# every default; DATABASE_URL, REDIS_URL, PORT, ... override them). Ctrl-C stops it.
stack: $(STAMP)
	exec $(BIN)/python -m deploy.stack

# mypy: every package in [tool.mypy] files (the engine and the formats among them), the Django
# apps with django-stubs and djangorestframework-stubs, all under strict = true. The Django
# plugin imports deploy.settings, which with DEBUG=1 needs no other variable.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DEBUG=1 $(BIN)/mypy

# The fast tier, for the inner loop: lint and types, then every test that needs no browser, no
# process of its own (server, worker, fresh interpreter, command) and no service, on the
# embedded SQLite whatever DATABASE_URL and REDIS_URL say. `make test` runs everything.
# (The schema's contract test, all slow, is not even collected: schemathesis makes its examples
# at collection, about 12 s in each process.) worksteal gives each worker a run of the tests
# in order, so a module's shared data (tests/shared.py) is built about once, not once for each
# batch the default scheduling deals out.
FAST := not browser and not process and not slow and not postgres and not redis and not isolated
check: lint
	env -u DATABASE_URL -u REDIS_URL -u SEEP_CI $(BIN)/python -m pytest -n 2 --dist worksteal \
	  -p tests.worker_redis -q -m "$(FAST)" --ignore=tests/api/test_schema.py

# Two xdist workers, each on a Redis database of its own (tests/worker_redis.py: a plugin,
# loaded before the settings read REDIS_URL; python -m puts the checkout on the path for it)
PYTEST_ARGS ?= -n 2 --dist worksteal -p tests.worker_redis

# The tests marked isolated (tests/tournaments: they count a connection's round trips) run
# after the rest, in a process of their own. The 25 slowest tests are listed at the end (where
# the suite's time goes).
pytest: $(STAMP) browser-tools
	$(BIN)/python -m pytest $(PYTEST_ARGS) --durations=25 -m "not isolated and not quiet"
	$(BIN)/python -m pytest -p tests.worker_redis -m isolated tests/tournaments

# The tests marked quiet time a room on the real stack (2,000 viewers of two push processes,
# one killed: tests/stack/test_push_restart.py): they need the machine to themselves, so
# make test leaves them out. Run them alone, with PostgreSQL and Redis at DATABASE_URL and
# REDIS_URL.
test-quiet: $(STAMP)
	SEEP_CI=1 $(BIN)/python -m pytest -p tests.worker_redis -s -m quiet tests

# The web pages' browser tests (tests/web/test_browser.py) need Debian's Chromium (never a
# browser a tool downloads itself) and axe-core from npm, at the version package-lock.json
# pins. Installed here when missing; without them (no root for apt-get, no npm) those tests
# are skipped, and under SEEP_CI=1 they fail.
browser-tools:
	@if ! { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; }; then \
	  echo "browser-tools: installing Debian's chromium and chromium-driver"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      --no-install-recommends chromium chromium-driver >/dev/null; } \
	  || echo "browser-tools: could not install chromium: the browser tests will be skipped"; \
	fi
	@if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then \
	  echo "browser-tools: npm ci (axe-core)"; \
	  npm ci --no-audit --no-fund --silent || echo "browser-tools: npm ci failed: the browser tests will be skipped"; \
	fi

test: lint pytest

# The typed Python client (clients/python/, docs/client.md), generated from the schema as it is
# now by openapi-python-client (constraints.txt pins it); tests/client fails while the committed
# client differs from what the schema makes, and drives a tournament through it.
client: $(STAMP)
	$(BIN)/python clients/generate.py

bench: bench-engine bench-competition bench-drop-orders bench-store bench-scoring bench-versus bench-api bench-web bench-board bench-standings bench-seasons
	@echo "Figures written to bench/results/"

bench-engine: $(STAMP)
	$(BIN)/python -m bench.engine

# The engine's cost in instructions under callgrind (needs valgrind; deterministic, unlike
# seconds on a shared machine): bench/results/engine-instructions.json.
bench-engine-instructions: $(STAMP)
	$(BIN)/python -m bench.engine_instructions

bench-competition: $(STAMP)
	$(BIN)/python -m bench.competition

# Members' ratings for a season of 50 evenings of 32 teams (4,000 matches) on a scratch SQLite
# database: the fold, the rebuild, the incremental update per match, a correction
# (bench/seasons.py): bench/results/seasons.json.
bench-seasons: $(STAMP)
	$(BIN)/python -m bench.seasons

# Double elimination's drop orders by the losers'-bracket rematches that happen (pure Python,
# a few minutes): searches them at every size from 4 to 128, fails while
# competition/formats/drop_table.py differs (DROP_ORDERS_ARGS=--write rewrites it), and writes
# the figures to bench/results/drop-orders.json (docs/competition.md, "Drop orders").
bench-drop-orders: $(STAMP)
	$(BIN)/python -m bench.drop_orders $(DROP_ORDERS_ARGS)

# Each web page's render time (p50/p99) with the demo data and with a 256-team tournament,
# on a scratch SQLite database of its own (or DATABASE_URL's server when it is PostgreSQL).
bench-web: $(STAMP)
	$(BIN)/python -m bench.web

# The director's live board and the wall screen for a 128-table round (bench/board.py):
# p50/p99 render time and queries, bench/results/board.json.
bench-board: $(STAMP)
	$(BIN)/python -m bench.board

# A 256-team Swiss stage's standings written again in full after a result (bench/standings.py):
# p50 and worst, bench/results/standings.json.
bench-standings: $(STAMP)
	$(BIN)/python -m bench.standings

# The recorder's page after each play of recorded deals (bench/recorder.py): time and queries,
# and as a process that keeps nothing; bench/results/recorder.json. BENCH_RECORDER_ARGS="--tree
# DIR" measures another checkout in turn.
bench-recorder: $(STAMP)
	$(BIN)/python -m bench.recorder $(BENCH_RECORDER_ARGS)

# The store, scoring and API benchmarks need PostgreSQL (and Redis): they create scratch databases
# of their own on the server DATABASE_URL names (default: the local one) and drop them after.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/0

bench-store: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-$(BENCH_DATABASE_URL)} $(BIN)/python -m bench.store

# The append's client cost in instructions under callgrind (needs valgrind and PostgreSQL):
# bench/results/append-instructions.json. APPEND_INSTRUCTIONS_ARGS="--tree DIR" measures another
# checkout with the same workload.
bench-append-instructions: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-$(BENCH_DATABASE_URL)} $(BIN)/python -m bench.append_instructions $(APPEND_INSTRUCTIONS_ARGS)

bench-scoring: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-$(BENCH_DATABASE_URL)} \
	REDIS_URL=$${REDIS_URL:-$(BENCH_REDIS_URL)} $(BIN)/python -m bench.scoring

# The API over HTTP: gunicorn (deploy/gunicorn.py) and a Celery worker on a scratch database,
# driven by 1 and 16 concurrent clients; BENCH_API_ARGS passes options (--rounds, --seconds).
# A Redis database of its own: its cache keys (rate-limit counts, tables) are keyed by ids
# that the scratch database hands out again.
BENCH_API_REDIS_URL ?= redis://127.0.0.1:6379/11

bench-api: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-$(BENCH_DATABASE_URL)} \
	REDIS_URL=$${REDIS_URL:-$(BENCH_API_REDIS_URL)} $(BIN)/python -m bench.api $(BENCH_API_ARGS)

# The append against the eventsourcing library's PostgreSQL recorder and a bare INSERT,
# alternating over rounds on fresh databases (bench/versus.py); with a broker, the projection
# message's send is measured too. BENCH_VERSUS_ARGS="--before DIR" measures another checkout's
# append in the same rounds (a change before and after).
bench-versus: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-$(BENCH_DATABASE_URL)} \
	REDIS_URL=$${REDIS_URL:-$(BENCH_REDIS_URL)} $(BIN)/python -m bench.versus $(BENCH_VERSUS_ARGS)

# The live parts pushed at event scale (bench/live.py): gunicorn, two Celery workers and the
# two push processes on one port (as deploy/Procfile) on a scratch database, 500 / 2,000 /
# 5,000 viewers (asyncio clients on loopback) and 256 tables entering and confirming deals;
# p50/p99 confirmation-to-screen, the push processes' CPU and memory per viewer:
# bench/results/live.json. Not part of `make bench`: it starts the processes itself, needs
# PostgreSQL and Redis, and takes about ten minutes; BENCH_LIVE_ARGS passes options
# (--viewers, --tables, --seconds, --push-processes). The faults, each a run of its own:
#   BENCH_LIVE_ARGS="--viewers 5000 --restart-at 15 --out live-restart.json"   a push process killed
#   BENCH_LIVE_ARGS="--viewers 2000 --outage-at 15 --out live-outage.json"     the broker down 6.5 s
#   BENCH_LIVE_ARGS="--viewers 10000 --out live-10000.json"                   the biggest room
BENCH_LIVE_REDIS_URL ?= redis://127.0.0.1:6379/12

bench-live: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-$(BENCH_DATABASE_URL)} \
	REDIS_URL=$${REDIS_URL:-$(BENCH_LIVE_REDIS_URL)} $(BIN)/python -m bench.live $(BENCH_LIVE_ARGS)

# How fast the push processes admit a room (bench/push_admission.py): 2,000 viewers opened at
# once against one push process, then two, and one of the two killed: its viewers' way back
# to the other. bench/results/push_admission.json; BENCH_PUSH_ADMISSION_ARGS passes options.
bench-push-admission: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-$(BENCH_DATABASE_URL)} \
	REDIS_URL=$${REDIS_URL:-$(BENCH_LIVE_REDIS_URL)} $(BIN)/python -m bench.push_admission $(BENCH_PUSH_ADMISSION_ARGS)

# The stack test for a minute (both variants: straight and behind PgBouncer), on a test
# database of its own; the figures go to bench/results/stack-*.json.
bench-stack: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/seep_bench_stack} \
	REDIS_URL=$${REDIS_URL:-$(BENCH_REDIS_URL)} STACK_SECONDS=$${STACK_SECONDS:-60} \
	$(BIN)/pytest tests/stack -s -q

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis node_modules test-artifacts
