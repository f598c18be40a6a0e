# The two commands of the README, and their building blocks. Every target installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The tests delete everything in their Neo4j, so they get a server of their own beside the dev one, and a
# disposable PostgreSQL cluster (scripts/test-postgres.sh) for the observations journal.
TEST_ENV := GRAPHRAG_HOME=$(CURDIR)/.graphrag/test NEO4J_URI=bolt://127.0.0.1:7688 NEO4J_HTTP_PORT=7475 \
	GRAPHRAG_TEST_POSTGRES_PORT=5433
PACKS ?= examples/space-missions
# The real corpora of a checkout beside ../shared (as CI has it); the corpus tests skip without them.
CORPORA := $(wildcard ../shared/corpora)
# The Qdrant server the tests marked `engines` and the cluster tests run (the tested version, as in
# docker-compose.yml); without it they skip, and fail under CI=true. Override with QDRANT_SERVER=PATH.
QDRANT_SERVER ?= $(wildcard ../shared/bin/qdrant-1.18.3.gz)

# The Browser check gets a server of its own too, so its screenshots show the example pack alone.
CHECK_ENV := GRAPHRAG_HOME=$(CURDIR)/.graphrag/browser-check NEO4J_URI=bolt://127.0.0.1:7689 NEO4J_HTTP_PORT=7476
SHOTS := $(CURDIR)/.graphrag/screenshots

# The fast tier reaches no store: a Neo4j or PostgreSQL it asked for would be on a port nothing listens on, and
# CI=true makes such a test fail instead of skipping.
FAST_ENV := NEO4J_URI=bolt://127.0.0.1:1 GRAPHRAG_TEST_POSTGRES_PORT=1 CI=true

.PHONY: install demo serve test test-fast test-deps lint bench neo4j-start neo4j-stop check-browser

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	bash scripts/system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

neo4j-start: install
	$(BIN)/graphrag neo4j start

neo4j-stop: install
	$(BIN)/graphrag neo4j stop

## The main job: a local Neo4j, the example pack ingested, and questions answered over MCP (stdio).
demo: neo4j-start
	$(BIN)/graphrag ingest $(PACKS); test $$? -le 1
	$(BIN)/python -m examples.ask

## The MCP server on stdio, for a desktop client (see docs/mcp.md).
serve: neo4j-start
	$(BIN)/graphrag serve

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

## What only the tests need: PostgreSQL, Debian's chromium and chromium-driver, Node.js with npm, and the official
## MCP Inspector (npm, pinned by tests/inspector/package-lock.json) that tests/server/test_inspector.py drives.
test-deps:
	bash scripts/system-deps.sh test
	[ tests/inspector/node_modules/.package-lock.json -nt tests/inspector/package-lock.json ] || \
		npm ci --prefix tests/inspector --no-audit --no-fund --loglevel=error

## The fast tier (tests marked `fast`): fusion, linking, the walk, frontmatter rules, budgets, the evaluator, on
## in-memory data, without Java, PostgreSQL or the embedding model; about 45 s of CPU time.
test-fast: install
	$(FAST_ENV) $(BIN)/pytest -m fast -q

## Lint, then the whole suite against a Neo4j and a PostgreSQL of its own (started here, stopped afterwards).
test: lint test-deps
	$(TEST_ENV) $(BIN)/graphrag neo4j start
	$(TEST_ENV) bash scripts/test-postgres.sh start || { $(TEST_ENV) $(BIN)/graphrag neo4j stop; exit 1; }
	$(TEST_ENV) $(BIN)/pytest $(if $(CORPORA),--corpus=$(abspath $(CORPORA))) \
		$(if $(QDRANT_SERVER),--qdrant-server=$(abspath $(QDRANT_SERVER))); status=$$?; \
	$(TEST_ENV) $(BIN)/graphrag neo4j stop; $(TEST_ENV) bash scripts/test-postgres.sh stop; exit $$status

bench: neo4j-start
	$(BIN)/python -m bench.ingest --entities 10000

## Browser as an analyst meets it, and the pack report as a reviewer opens it, in headless Chromium;
## screenshots in .graphrag/screenshots.
check-browser: install test-deps
	$(CHECK_ENV) $(BIN)/graphrag neo4j start
	$(CHECK_ENV) $(BIN)/graphrag ingest $(PACKS); status=$$?; \
	if [ $$status -le 1 ]; then $(CHECK_ENV) $(BIN)/python -m scripts.check_browser --out $(SHOTS); status=$$?; fi; \
	$(CHECK_ENV) $(BIN)/graphrag neo4j stop; exit $$status
	$(BIN)/python -m scripts.check_report $(PACKS) $(wildcard $(CORPORA)/pack-personal/pack/personal-development) --out $(SHOTS)
