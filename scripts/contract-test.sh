#!/usr/bin/env bash
# Attacks the API with requests generated from its own OpenAPI document (schemathesis): a seeded
# store on a free loopback port, every operation, checking for server errors, answers that break
# the schema, undocumented status codes and wrong content types. Fails on any finding, and when
# fewer than MIN_REQUESTS requests were made.
#
# DB=sqlite (default): a SQLite file. DB=postgres: a throwaway PostgreSQL cluster (initdb and
# pg_ctl from /usr/lib/postgresql/*/bin, or PG_BIN; as the `postgres` user when run as root) on a
# free loopback port, removed on exit. Before schemathesis, scripts/contract_setup.py makes the
# data the fuzzer cannot guess (a member, their addresses, Go-to Cases and orders, the tokens of
# mailed links; the staff added here signed in with their second factor) and writes it to
# $FUZZ_DATA, which scripts/schemathesis.toml reads. CHECKS,
# PHASES, MAX_EXAMPLES and MIN_REQUESTS tune the run; CONTINUE_ON_FAILURE=1 spends every
# operation's examples even after it failed (else its fuzzing ends at the first failure);
# REPORT_DIR, when set, keeps the run's ndjson report, server log and setup data; ST_ARGS adds
# options of `st run` (for a look at a few operations: ST_ARGS='--include-path-regex /staff/runs').
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=target/schemathesis-venv
VERSION=4.32.5
MIN_REQUESTS=${MIN_REQUESTS:-2000}
if ! "$VENV/bin/st" --version 2>/dev/null | grep -q "$VERSION"; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
fi

STORE=${STORE_BIN:-${CARGO_TARGET_DIR:-target}/debug/store}
[ -x "$STORE" ] || cargo build -q -p server
DB=${DB:-sqlite}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
work=$(mktemp -d)
server=
pgdir=
paymongo=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  if [ -n "$paymongo" ]; then kill "$paymongo" 2>/dev/null || true; wait "$paymongo" 2>/dev/null || true; fi
  if [ -n "$pgdir" ]; then
    $as_postgres "$pg_bin/pg_ctl" -D "$pgdir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$pgdir"
  fi
  if [ -n "${REPORT_DIR:-}" ]; then
    mkdir -p "$REPORT_DIR"
    cp -r "$work"/events.ndjson "$work"/server.log "$work"/fuzz-data "$REPORT_DIR"/ 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
case "$DB" in
  sqlite)
    export DATABASE_URL="$work/store.db"
    ;;
  postgres)
    pg_bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
    [ -x "$pg_bin/initdb" ] || { echo "no PostgreSQL server binaries under /usr/lib/postgresql (set PG_BIN)" >&2; exit 1; }
    as_postgres=
    [ "$(id -u)" = 0 ] && as_postgres="runuser -u postgres --"
    # Under /tmp, where the postgres user can reach it.
    pgdir=$(mktemp -d /tmp/store-contract-pg-XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$pgdir"
    pg_port=$(free_port)
    $as_postgres "$pg_bin/initdb" -D "$pgdir/data" -U postgres --auth=trust -E UTF8 --no-sync >"$work/initdb.log" 2>&1 \
      || { cat "$work/initdb.log" >&2; exit 1; }
    $as_postgres "$pg_bin/pg_ctl" -D "$pgdir/data" -l "$pgdir/postgres.log" -w \
      -o "-p $pg_port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null || { cat "$pgdir/postgres.log" >&2; exit 1; }
    "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres store
    export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/store"
    ;;
  *)
    echo "DB is sqlite or postgres, not $DB" >&2
    exit 2
    ;;
esac
port=$(free_port)
# The store takes payments online through the PayMongo simulator (`fixtures paymongo`), whose
# hosted page delivers its signed events to the store's webhook; the hooks sign the webhook's
# generated events with the same secret.
FIXTURES=${FIXTURES_BIN:-$(dirname "$STORE")/fixtures}
[ -x "$FIXTURES" ] || cargo build -q -p fixtures
"$FIXTURES" paymongo --webhook "http://127.0.0.1:$port/api/v1/payments/paymongo/events" >"$work/paymongo.url" &
paymongo=$!
for _ in $(seq 1 100); do
  [ -s "$work/paymongo.url" ] && break
  kill -0 "$paymongo" 2>/dev/null || { echo "fixtures paymongo did not start" >&2; exit 1; }
  sleep 0.1
done
export PAYMONGO_SECRET_KEY=sk_test_simulated PAYMONGO_WEBHOOK_SECRET=whsk_simulated \
  PAYMONGO_API_URL="$(head -n 1 "$work/paymongo.url")"
# Checkout keeps hours: a Tuesday afternoon in Manila, so a run at night can order too. The setup
# and the hooks speak as a client of their own through X-Forwarded-For (127.0.0.1 the proxy), so
# the per-client rate limits the fuzzer meets never refuse them.
export BIND="127.0.0.1:$port" RUST_LOG=warn MAIL_OUTBOX="$work/outbox" MEDIA_DIR="$work/media" STORE_TESTDATE=2026-11-24T14:00 \
  TRUSTED_PROXIES=127.0.0.1
# A member takes part (scripts/contract_setup.py registers one, scripts/contract_hooks.py sends
# their session), and so do staff: a manager and a dispatcher added here as a store's staff are
# (`store staff add`), whose mailed links contract_setup.py opens; it and the hooks add more
# (the links' holders, spare dispatchers) with the same binary (STORE_BIN).
export STORE_BASE="http://127.0.0.1:$port" SCHEMATHESIS_HOOKS=contract_hooks PYTHONPATH="$PWD/scripts" \
  FUZZ_DATA="$work/fuzz-data" STORE_BIN="$(realpath "$STORE")" \
  FUZZ_MANAGER="fuzz.staff.manager.$$@example.com" FUZZ_DISPATCHER="fuzz.staff.dispatcher.$$@example.com"
"$STORE" seed >/dev/null
"$STORE" serve >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/api/openapi.json" >/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
"$STORE" staff add "$FUZZ_MANAGER" --role manager --name "Fuzz Manager" >/dev/null
"$STORE" staff add "$FUZZ_DISPATCHER" --role dispatcher --name "Fuzz Dispatcher" >/dev/null
python3 scripts/contract_setup.py scripts/schemathesis.toml "$work/schemathesis.toml" \
  || { echo "contract setup failed (server log: last lines)" >&2; tail -n 20 "$work/server.log" >&2; exit 1; }

set +e
"$VENV/bin/st" --config-file "$work/schemathesis.toml" run "http://127.0.0.1:$port/api/openapi.json" \
  --checks "${CHECKS:-not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance}" \
  ${PHASES:+--phases "$PHASES"} ${CONTINUE_ON_FAILURE:+--continue-on-failure} ${ST_ARGS:-} --max-examples "${MAX_EXAMPLES:-200}" --seed 20261122 --request-timeout 10 \
  --report ndjson --report-ndjson-path "$work/events.ndjson" --no-color
status=$?
set -e
requests=$(python3 - "$work/events.ndjson" <<'PY'
import json, os, sys
n = 0
for line in open(sys.argv[1]) if os.path.exists(sys.argv[1]) else []:
    e = json.loads(line)
    for kind, body in e.items():
        if kind == "ScenarioFinished":
            n += len((body.get("recorder") or {}).get("interactions") or {})
print(n)
PY
)
echo "schemathesis ($DB): $requests requests"
if [ "$status" -ne 0 ]; then
  echo "schemathesis found failures (server log: last lines)" >&2
  tail -n 20 "$work/server.log" >&2
  exit "$status"
fi
if [ "$requests" -lt "$MIN_REQUESTS" ]; then
  echo "schemathesis made $requests requests, fewer than $MIN_REQUESTS" >&2
  exit 1
fi
