#!/usr/bin/env bash
# Fuzzes the local service from its OpenAPI document with schemathesis (PyPI).
# Not part of CI: it needs PyPI to install schemathesis. Usage:
#   npm run build && bash scripts/fuzz-service.sh [max-seconds]
# unsupported_method (ST204, "expected 405") is excluded: the contract answers 404 for an unknown
# route, whatever the method (service-contract.md, errors table).
# Environment: FUZZ_VENV (default ~/.cache/embedded-fuzz-venv), FUZZ_PORT (default 18787).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
MAX_TIME="${1:-120}"
VENV="${FUZZ_VENV:-$HOME/.cache/embedded-fuzz-venv}"
PORT="${FUZZ_PORT:-18787}"
if [ ! -x "$VENV/bin/st" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet schemathesis
fi
DB_DIR="$(mktemp -d)"
node dist/service/server.js --port "$PORT" --db "$DB_DIR/fuzz.db" --rate-limit 0 --no-log >"$DB_DIR/service.log" 2>&1 &
SERVICE_PID=$!
cleanup() { kill "$SERVICE_PID" 2>/dev/null || true; rm -rf "$DB_DIR"; }
trap cleanup EXIT
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 1 50); do curl -fsS "$BASE/openapi.json" >/dev/null 2>&1 && break; sleep 0.2; done
TOKEN="$(curl -fsS -X POST "$BASE/es/v2/oauth/client-token" -H 'content-type: application/json' \
  -d '{"clientId":"demo-client","clientSecret":"demo-secret"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')"
# The first customer's first sub-account: the id every connector route needs.
# Pass 1 fuzzes accountId too (mostly 403s); pass 2 pins it to the first customer's first
# sub-account so that the generated bodies and ids reach the domain rules.
ACCOUNT="$(node -e 'const {seedCustomers}=require("./dist/service/seed/customers");process.stdout.write(seedCustomers()[0].subAccountIds[0])')"
printf '[parameters]\n"query.accountId" = "%s"\n' "$ACCOUNT" >"$DB_DIR/pinned.toml"
STATUS=0
for PASS in free pinned; do
  CONFIG=()
  [ "$PASS" = pinned ] && CONFIG=(--config-file "$DB_DIR/pinned.toml")
  echo "== pass $PASS: fuzzing $BASE for at most ${MAX_TIME}s" >&2
  # Run from the temporary directory: schemathesis keeps its example database in ./.schemathesis.
  (cd "$DB_DIR" && "$VENV/bin/st" "${CONFIG[@]}" run "$ROOT/service/openapi.json" --url "$BASE" \
    -H "Authorization: Bearer $TOKEN" \
    --checks all --exclude-checks unsupported_method --max-time "$MAX_TIME" --workers 1 \
    --suppress-health-check all "${@:2}") || STATUS=1
done
exit "$STATUS"
