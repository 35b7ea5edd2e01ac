#!/usr/bin/env bash
# Checks the demo with the official Python client: starts the built demo server on a free
# loopback port with a random API key, runs scripts/sdk-check.py against it (trajectory-sdk
# 0.9.31, strict response validation), and stops the server.
#
# The SDK (and jsonschema) come from the current python3 when it has them; otherwise they are
# installed once into a virtual environment under the cargo target directory.
#   EVAL_COMPARE_SERVER_BIN  the server binary (default: TARGET/server/eval-compare-server)
set -euo pipefail
cd "$(dirname "$0")/.."

SDK_VERSION=0.9.31
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
SERVER_BIN=${EVAL_COMPARE_SERVER_BIN:-$TARGET_DIR/server/eval-compare-server}
VENV=$TARGET_DIR/sdk-check-venv
log() { printf '[sdk-check] %s\n' "$*" >&2; }

has_sdk() {
  "$1" - "$SDK_VERSION" <<'EOF' >/dev/null 2>&1
import importlib.metadata, sys
assert importlib.metadata.version("trajectory-sdk") == sys.argv[1]
import jsonschema, referencing, trajectory
EOF
}

PYTHON=python3
if ! has_sdk "$PYTHON"; then
  PYTHON=$VENV/bin/python
  if ! has_sdk "$PYTHON"; then
    log "installing trajectory-sdk==$SDK_VERSION and jsonschema into $VENV"
    python3 -m venv "$VENV"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "trajectory-sdk==$SDK_VERSION" jsonschema
  fi
fi

if [ ! -x "$SERVER_BIN" ]; then
  log "no server binary at $SERVER_BIN (cargo build --profile server -p eval-compare-server)"
  exit 1
fi

LOG=$(mktemp)
# A fresh key each run, passed through the environment only (never on a command line).
EVAL_COMPARE_DEMO_KEY=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
export EVAL_COMPARE_DEMO_KEY
# A second fresh key that may read everything but billing (answered 403).
EVAL_COMPARE_DEMO_KEY_WITHOUT_BILLING=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
export EVAL_COMPARE_DEMO_KEY_WITHOUT_BILLING
"$SERVER_BIN" --demo --addr 127.0.0.1:0 --dist "$LOG.no-viewer" >"$LOG" 2>&1 &
SERVER_PID=$!
stop_server() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  rm -f "$LOG"
}
trap stop_server EXIT

URL=""
for _ in $(seq 1 100); do
  URL=$(sed -n 's/^listening on \(http:\/\/[0-9.:]*\).*/\1/p' "$LOG" | head -n1)
  [ -n "$URL" ] && break
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    log "the demo server exited:"
    cat "$LOG" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$URL" ]; then
  log "the demo server did not report its address within 10 s"
  exit 1
fi

log "demo server at $URL"
TRAJECTORY_API_KEY=$EVAL_COMPARE_DEMO_KEY SDK_CHECK_KEY_WITHOUT_BILLING=$EVAL_COMPARE_DEMO_KEY_WITHOUT_BILLING \
  "$PYTHON" scripts/sdk-check.py "$URL"
