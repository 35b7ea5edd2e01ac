#!/usr/bin/env bash
# First command of the README: installs what is missing, builds the viewer, and starts
# the demo server (simulated Trajectory API + the built viewer) on http://127.0.0.1:8080.
# EVAL_COMPARE_ADDR=HOST:PORT picks another address. Ctrl-C stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."

ADDR=${EVAL_COMPARE_ADDR:-127.0.0.1:8080}
log() { printf '[demo] %s\n' "$*" >&2; }

./scripts/setup.sh
log "building the viewer (trunk build --release)"
trunk build --release
log "building the server"
cargo build --locked --quiet --profile server -p eval-compare-server
log "Eval Compare demo: open http://$ADDR in a browser (Ctrl-C stops the server)"
exec target/server/eval-compare-server --demo --dist dist --addr "$ADDR"
