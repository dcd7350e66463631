# Two commands do everything on a fresh machine (Python 3.11+ and make):
#   make run   - set up .venv, migrate the embedded SQLite database, seed a demo, serve
#   make test  - set up .venv and run lint, types and the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint pytest stack bench bench-engine bench-engine-instructions bench-competition bench-store bench-scoring bench-stack clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py seed_demo --if-empty
	@echo "Serving on http://$(HOST):$(PORT)/  - the demo club evening is in the admin:"
	@echo "  http://$(HOST):$(PORT)/admin/  (user organizer, password organizer)"
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# The production processes on this machine (deploy/Procfile through honcho): gunicorn, two
# Celery workers, one beat, against the local PostgreSQL and Redis (see deploy/stack.py for
# every default; DATABASE_URL, REDIS_URL, PORT, ... override them). Ctrl-C stops it.
stack: $(STAMP)
	exec $(BIN)/python -m deploy.stack

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict seep_core competition/formats

PYTEST_ARGS ?= -n 2

pytest: $(STAMP)
	$(BIN)/pytest $(PYTEST_ARGS)

test: lint pytest

bench: bench-engine bench-competition bench-store bench-scoring
	@echo "Figures written to bench/results/"

bench-engine: $(STAMP)
	$(BIN)/python -m bench.engine

# The engine's cost in instructions under callgrind (needs valgrind; deterministic, unlike
# seconds on a shared machine): bench/results/engine-instructions.json.
bench-engine-instructions: $(STAMP)
	$(BIN)/python -m bench.engine_instructions

bench-competition: $(STAMP)
	$(BIN)/python -m bench.competition

# The store and scoring benchmarks need PostgreSQL (and Redis): they create scratch databases
# of their own on the server DATABASE_URL names (default: the local one) and drop them after.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/0

bench-store: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-$(BENCH_DATABASE_URL)} $(BIN)/python -m bench.store

bench-scoring: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-$(BENCH_DATABASE_URL)} \
	REDIS_URL=$${REDIS_URL:-$(BENCH_REDIS_URL)} $(BIN)/python -m bench.scoring

# The stack test for a minute (both variants: straight and behind PgBouncer), on a test
# database of its own; the figures go to bench/results/stack-*.json.
bench-stack: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/seep_bench_stack} \
	REDIS_URL=$${REDIS_URL:-$(BENCH_REDIS_URL)} STACK_SECONDS=$${STACK_SECONDS:-60} \
	$(BIN)/pytest tests/stack -s -q

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
