#!/usr/bin/env bash
# The development loop: the demo server (simulated Trajectory and Chronicle APIs) on
# 127.0.0.1:8081, and `trunk serve` on http://127.0.0.1:8080, which rebuilds the viewer (debug
# build, with its split point) on every change under src/, crates/core/src/ or style/, reloads
# the page, and proxies /api/ and /v1/ to the demo server. Ctrl-C stops both.
# Arguments go to the demo server (e.g. --seed 7, --fault SPEC, or --upstream URL to develop
# against a real API through the proxy); EVAL_COMPARE_DEV_RELEASE=1 serves a release build.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[dev] %s\n' "$*" >&2; }

./scripts/setup.sh
log "building the server"
cargo build --locked --quiet --profile server -p eval-compare-server
mode=(--demo)
for arg in "$@"; do
  [ "$arg" = --upstream ] && mode=()
done
target/server/eval-compare-server "${mode[@]}" --addr 127.0.0.1:8081 --dist target/trunk-dev "$@" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
release=()
[ "${EVAL_COMPARE_DEV_RELEASE:-0}" = 1 ] && release=(--release)
log "trunk serve: open http://127.0.0.1:8080 (rebuilds and reloads on every change)"
# Its own output folder, so the release build in dist/ (what the e2e tests and demo.sh serve)
# stays as it was.
trunk serve --dist target/trunk-dev "${release[@]}"
