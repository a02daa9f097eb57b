# Croupier — the README's commands. `make run` and `make test` are the two that matter.
SHELL := /bin/bash
.DEFAULT_GOAL := help

CARGO ?= cargo
NPM ?= npm
CHROMIUM_PATH ?= /usr/bin/chromium
TARGET_DIR := $(if $(CARGO_TARGET_DIR),$(CARGO_TARGET_DIR),$(CURDIR)/target)
SERVER_BIN := $(TARGET_DIR)/release/croupier-server
NPM_STAMP := node_modules/.package-lock.json

.PHONY: help run build client server test test-rust test-client e2e schemathesis lint fmt bench soak fuzz gen clean

help:
	@echo "make run    build the client and the server, start http://localhost:8080 (SQLite under data/)"
	@echo "make test   every test: Rust (SQLite; PostgreSQL/Redis when TEST_DATABASE_URL/TEST_REDIS_URL are set), client unit tests, browser tests"
	@echo "make lint   rustfmt, clippy (warnings are errors), tsc, eslint"
	@echo "make bench  load the release server from a second process and print the table"
	@echo "make soak   the ledger model test at 1,000,000 operations per database; prints the table"
	@echo "make schemathesis  fuzz the release server's /api against its OpenAPI document (Schemathesis, signed in and as a guest)"
	@echo "make fuzz   every fuzz target for FUZZ_EXECUTIONS executions (10 million), then the table"
	@echo "make gen    regenerate the client's copy of the error catalogue"

# npm ci only when the lockfile or a manifest changed since the last install.
$(NPM_STAMP): package-lock.json package.json miniapp/package.json
	$(NPM) ci --no-audit --no-fund
	@touch $(NPM_STAMP)

client: $(NPM_STAMP)
	$(NPM) run build -w miniapp

server:
	$(CARGO) build --release -p croupier-server -p croupier-bot

build: client server

run: build
	CROUPIER_WEB_DIR="$${CROUPIER_WEB_DIR:-miniapp/dist}" $(SERVER_BIN)

test: test-rust test-client e2e schemathesis

# Release profile: the tests and the server the browser tests start share one compiled graph.
test-rust:
	@if [ -z "$$TEST_DATABASE_URL" ]; then echo "note: TEST_DATABASE_URL is not set: server tests run on SQLite only"; fi
	@if [ -z "$$TEST_REDIS_URL" ]; then echo "note: TEST_REDIS_URL is not set: Redis tests are skipped"; fi
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
		$(CARGO) nextest run --workspace --release --no-fail-fast; \
	else \
		$(CARGO) test --workspace --release --no-fail-fast; \
	fi

test-client: $(NPM_STAMP)
	$(NPM) run test -w miniapp

# The browser tests start the release server built with the test graph's features (`--all-targets`,
# as nextest builds it): after test-rust it is already built, where `server` would compile the
# dependencies a second time with the features of a plain build (minutes on a fresh clone).
e2e: client
	$(CARGO) build --release --workspace --all-targets
	@if [ -x "$(CHROMIUM_PATH)" ]; then \
		CHROMIUM_PATH="$(CHROMIUM_PATH)" CROUPIER_SERVER_BIN="$(SERVER_BIN)" $(NPM) run e2e -w miniapp; \
	elif [ -n "$$CROUPIER_REQUIRE_CHROMIUM" ]; then \
		echo "ERROR: no Chromium at $(CHROMIUM_PATH) and CROUPIER_REQUIRE_CHROMIUM is set"; exit 1; \
	else \
		echo ""; \
		echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"; \
		echo "!!  BROWSER TESTS SKIPPED: no Chromium at $(CHROMIUM_PATH)."; \
		echo "!!  Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH."; \
		echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"; \
		echo ""; \
	fi

# Schemathesis 4 (from PyPI, in target/schemathesis-venv) against the release server, built as e2e
# builds it (a no-op after e2e): every phase, as a guest and signed in; fails on any failure and on
# more operations than SCHEMATHESIS_MAX_MISMATCH that mostly reject the data generated from the
# document. Needs python3 with venv; without it the run is skipped loudly, unless
# CROUPIER_REQUIRE_SCHEMATHESIS or CI is set.
schemathesis:
	$(CARGO) build --release --workspace --all-targets
	CROUPIER_SERVER_BIN="$(SERVER_BIN)" tools/schemathesis.sh

lint: $(NPM_STAMP)
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --all-features -- -D warnings
	$(NPM) run lint -w miniapp

fmt:
	$(CARGO) fmt --all

# A profile of its own, so the bench-only ceiling route never reaches target/release.
bench: client
	$(CARGO) build --profile benchmark -p croupier-server --features bench --bins
	# The live-odds row holds 10,000 streams: the open-file limit goes up to the hard limit first.
	ulimit -n $$(ulimit -Hn) 2>/dev/null; $(TARGET_DIR)/benchmark/croupier-bench --server $(TARGET_DIR)/benchmark/croupier-server --web-dir miniapp/dist
	CHROMIUM_PATH="$(CHROMIUM_PATH)" node miniapp/e2e/screens-first-paint.mjs --server $(TARGET_DIR)/benchmark/croupier-server --web-dir miniapp/dist
	CHROMIUM_PATH="$(CHROMIUM_PATH)" node miniapp/e2e/lighthouse.mjs --server $(TARGET_DIR)/benchmark/croupier-server --web-dir miniapp/dist

# The ledger soak (tests/api/soak.rs): SOAK_OPS random operations per database (SQLite, and
# PostgreSQL when TEST_DATABASE_URL is set) against a model; `make test` runs it with 20,000.
SOAK_OPS ?= 1000000
soak:
	@if [ -z "$$TEST_DATABASE_URL" ]; then echo "note: TEST_DATABASE_URL is not set: the soak runs on SQLite only"; fi
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
		CROUPIER_SOAK_OPS=$(SOAK_OPS) $(CARGO) nextest run --release -p croupier-server --no-capture -E 'test(/^soak::/)'; \
	else \
		CROUPIER_SOAK_OPS=$(SOAK_OPS) $(CARGO) test --release -p croupier-server --test api -- --nocapture soak::; \
	fi
# The fuzz targets of `make test` (`shared/tests/fuzz.rs`, `webapp-server/platform/tests/fuzz.rs`,
# `webapp-server/tests/api/fuzz.rs`) with the large budget, in the release test graph `make test`
# builds; each target appends its line to the report, printed at the end. FUZZ_SEED picks another
# random stream (the default is the one CI runs).
FUZZ_EXECUTIONS ?= 10000000
FUZZ_REPORT := $(TARGET_DIR)/fuzz-report.txt
fuzz:
	@rm -f $(FUZZ_REPORT)
	CROUPIER_FUZZ_EXECUTIONS=$(FUZZ_EXECUTIONS) CROUPIER_FUZZ_REPORT=$(FUZZ_REPORT) $(if $(FUZZ_SEED),CROUPIER_FUZZ_SEED=$(FUZZ_SEED)) \
		$(CARGO) nextest run --workspace --release --no-fail-fast -E 'binary(fuzz) | (binary(api) & test(/^fuzz::/))'; \
		status=$$?; echo ""; echo "== fuzz: executions, seconds and failures per target"; cat $(FUZZ_REPORT); exit $$status

gen:
	CROUPIER_BLESS=1 $(CARGO) test -q -p croupier-shared --test typescript_twin

clean:
	$(CARGO) clean
	rm -rf miniapp/dist node_modules miniapp/node_modules
