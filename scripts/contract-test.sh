#!/usr/bin/env bash
# Attacks the API with requests generated from its own OpenAPI document (schemathesis): a seeded
# store on a free loopback port, every operation, checking for server errors, answers that break
# the schema, undocumented status codes and wrong content types. Fails on any finding, and when
# fewer than MIN_REQUESTS requests were made.
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
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export DATABASE_URL="$work/store.db" BIND="127.0.0.1:$port" RUST_LOG=warn MAIL_OUTBOX="$work/outbox"
# A member takes part (scripts/contract_hooks.py registers one and sends their session).
export STORE_BASE="http://127.0.0.1:$port" SCHEMATHESIS_HOOKS=contract_hooks PYTHONPATH="$PWD/scripts"
"$STORE" seed >/dev/null
"$STORE" serve >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/api/openapi.json" >/dev/null && break
  sleep 0.1
done

set +e
"$VENV/bin/st" --config-file scripts/schemathesis.toml run "http://127.0.0.1:$port/api/openapi.json" \
  --checks "${CHECKS:-not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance}" \
  ${PHASES:+--phases "$PHASES"} --max-examples "${MAX_EXAMPLES:-200}" --seed 20261122 --request-timeout 10 \
  --report ndjson --report-ndjson-path "$work/events.ndjson" --no-color
status=$?
set -e
requests=$(grep -c '"ScenarioFinished"\|"Interaction"' "$work/events.ndjson" 2>/dev/null || true)
requests=$(python3 - "$work/events.ndjson" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    for kind, body in e.items():
        if kind == "ScenarioFinished":
            n += len((body.get("recorder") or {}).get("interactions") or {})
print(n)
PY
)
echo "schemathesis: $requests requests"
if [ "$status" -ne 0 ]; then
  echo "schemathesis found failures (server log: last lines)" >&2
  tail -n 20 "$work/server.log" >&2
  exit "$status"
fi
if [ "$requests" -lt "$MIN_REQUESTS" ]; then
  echo "schemathesis made $requests requests, fewer than $MIN_REQUESTS" >&2
  exit 1
fi
