# The only entry points a person needs. `make run` serves the store on http://localhost:8080;
# `make test` runs the whole suite. Both install what they need (npm packages from the lock file,
# Debian's chromium for the browser tests).

SHELL := /bin/bash
.DEFAULT_GOAL := run
CARGO ?= cargo
UI := ui
NODE_MODULES := $(UI)/node_modules/.package-lock.json
DIESEL := target/tools/bin/diesel
APT_GET := $(if $(filter 0,$(shell id -u)),apt-get,sudo apt-get)

.PHONY: run build build-ui test test-docs test-rust test-ui test-e2e test-contract fuzz contract schema tools lint fmt bench chromium wrk clean screenshots

$(NODE_MODULES): $(UI)/package.json $(UI)/package-lock.json
	cd $(UI) && npm ci --no-audit --no-fund
	@touch $@

# The UI build is quick and always rerun: client bundle, stylesheet, route table, server entry.
build-ui: $(NODE_MODULES)
	cd $(UI) && node build.mjs

build: build-ui
	$(CARGO) build --release -p server

run: build
	./target/release/store seed
	./target/release/store serve

chromium:
	@command -v chromium >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq chromium >/dev/null; }
	@command -v chromium >/dev/null || { echo "chromium could not be installed" >&2; exit 1; }

# The diesel CLI, pinned, for the check that crates/db/src/schema.rs is what it prints.
$(DIESEL):
	$(CARGO) install diesel_cli --version =2.3.4 --no-default-features --features sqlite-bundled,postgres --locked --root target/tools

tools: $(DIESEL)

wrk:
	@command -v wrk >/dev/null || { $(APT_GET) update -qq && $(APT_GET) install -y -qq wrk >/dev/null; }

lint: $(NODE_MODULES)
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings
	cd $(UI) && npx tsc --noEmit
	cd $(UI) && npx eslint .

fmt:
	$(CARGO) fmt --all

test-rust: build-ui $(DIESEL)
	$(CARGO) test --workspace

test-ui: $(NODE_MODULES)
	cd $(UI) && npx tsc --noEmit
	cd $(UI) && npx eslint .
	cd $(UI) && node build.mjs --tests && node --test dist-test/

test-e2e: build-ui chromium
	$(CARGO) build -p server -p fixtures
	cd $(UI) && node --test --test-concurrency=1 e2e/

# The pictures of the back office in docs/back-office.md (docs/screenshots: the board, a run sheet, a
# rider's stop, the dashboard), taken by the runs' browser test as it goes.
screenshots: build-ui chromium
	$(CARGO) build -p server
	mkdir -p docs/screenshots
	cd $(UI) && SCREENSHOTS=$(CURDIR)/docs/screenshots node --test --test-concurrency=1 e2e/runs.test.mjs

# Schemathesis (pinned, in a virtual environment under target/) against a seeded SQLite store:
# every check and phase, fewer examples than make fuzz (about 6,300 requests, at least 2,000; about a
# minute).
test-contract: build-ui
	$(CARGO) build -p server -p fixtures
	CHECKS=all MAX_EXAMPLES=$(CONTRACT_EXAMPLES) ./scripts/contract-test.sh
CONTRACT_EXAMPLES ?= 80

# The long attack: every check and phase, on SQLite and then on PostgreSQL (a throwaway cluster),
# each operation given all its FUZZ_EXAMPLES examples even after a failure: about 16,700 requests a
# database at 300 (MIN_REQUESTS: at least 10,000), 4 minutes each. Both run whatever the first
# finds; fails when either does (a failure, or a warning that part of the API went untested).
FUZZ_EXAMPLES ?= 300
fuzz: build-ui
	$(CARGO) build -p server -p fixtures
	@status=0; for db in sqlite postgres; do \
	  echo "== make fuzz: $$db"; \
	  DB=$$db CHECKS=all PHASES=examples,coverage,fuzzing,stateful CONTINUE_ON_FAILURE=1 \
	    MIN_REQUESTS=10000 MAX_EXAMPLES=$(FUZZ_EXAMPLES) ./scripts/contract-test.sh || status=1; \
	done; exit $$status

test: test-docs test-rust test-ui test-e2e test-contract

# The documentation's links and anchors (README.md and docs/), README's length and the lines' width.
test-docs:
	node --test scripts/docs-links.test.mjs

# Rewrites crates/db/src/schema.rs from `diesel print-schema` over the migrated PostgreSQL.
schema: $(DIESEL)
	UPDATE_SCHEMA=1 $(CARGO) test -q -p server --test it migrations::schema_rs_is_what_diesel_print_schema_prints

# Rewrites the generated API contract: crates/api/openapi.json and ui/src/api/contract.gen.ts.
contract:
	UPDATE_CONTRACT=1 $(CARGO) test -q -p api contract_files_are_current

# 1,000 connections need more open files than the default limit.
# `BENCH_ONLY=staff make bench` runs only section 8 (the staff at 100,000 orders); `carts` section
# 7, `slow-link` section 9, `catalog` section 10, `year` section 11 (a year later).
# `DB=postgres make bench` runs it on a throwaway PostgreSQL 15 cluster the bench starts and
# removes itself (durable, sized as a 4 GB 2-core machine: docs/performance.md); `DB` unset or
# `sqlite`, on a SQLite file.
bench: build wrk chromium
	ulimit -n $$(ulimit -Hn) && $(CARGO) run --release -q -p server --example bench

clean:
	rm -rf target $(UI)/dist $(UI)/dist-test ssr-bundle/dist
