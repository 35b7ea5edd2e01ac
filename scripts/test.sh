#!/usr/bin/env bash
# Second command of the README: every check and test of the project, in order, failing loudly on
# the first failure and ending with a summary of each step and its duration.
#   setup · fmt · clippy (native, wasm32) · native tests (core, server, cli; viewer) · browser tests
#   · viewer build · official client check · e2e
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
# Debug info is most of what the dev profile writes: ~55 test binaries of the core alone each
# link every dependency, and a CI machine's disk has run out mid-build with it. Test panics still
# name their file and line without it. A clean clone (CI) also keeps no incremental caches.
export CARGO_PROFILE_DEV_DEBUG=${CARGO_PROFILE_DEV_DEBUG:-false}
if [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=0; fi
# Every property test (proptest) draws its cases from this seed: the same cases on every run,
# so a failure here is a regression, never bad luck, and reruns the same. Unset, proptest draws
# new cases each run (README.md, "Fuzzing": long random runs).
export PROPTEST_RNG_SEED=${PROPTEST_RNG_SEED:-20261205}
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')

summary=()
current=""
started_all=$SECONDS

print_summary() {
  printf '\n==================== summary ====================\n'
  for line in "${summary[@]}"; do printf '%s\n' "$line"; done
}

on_exit() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -n "$current" ]; then
    summary+=("FAIL  $current")
    print_summary
    printf 'FAILED at step "%s" (exit status %d), after %ds\n' "$current" "$status" $((SECONDS - started_all))
  fi
}
trap on_exit EXIT

# step NAME COMMAND...: runs one step, recording its duration.
step() {
  current=$1
  shift
  printf '\n==> %s\n' "$current"
  local started=$SECONDS
  "$@"
  summary+=("$(printf 'ok    %-44s %4ds' "$current" $((SECONDS - started)))")
  current=""
}

step "setup (tools, crates)" ./scripts/setup.sh
step "cargo fmt --check" cargo fmt --all --check
step "clippy native (all targets)" \
  cargo clippy --locked --workspace --exclude eval-compare-viewer --all-targets -- -D warnings
# The viewer compiles natively too (its unit tests run there): lint that build as well.
step "clippy viewer (native, all targets)" \
  cargo clippy --locked -p eval-compare-viewer --all-targets -- -D warnings
# With the release build's `--cfg lazy_report` (scripts/build-viewer.sh), so the split point is
# linted too; RUSTFLAGS replaces the wasm32 rustflags of .cargo/config.toml, so it repeats them.
step "clippy viewer (wasm32, all targets)" env RUSTFLAGS="--cfg erase_components --cfg lazy_report" \
  cargo clippy --locked -p eval-compare-viewer --target wasm32-unknown-unknown --all-targets -- -D warnings
step "native tests (core, server, cli)" \
  cargo test --locked --workspace --exclude eval-compare-viewer --exclude eval-compare-e2e
# The viewer's native tests: its pure modules' unit tests (route table, table window, badges,
# chart previews), the formats, the failure explanations, the run-folder grouping and the chart
# snapshots (tests/chart_snapshots.rs);
# its browser test files are wasm32-only and compile to empty test binaries here.
step "viewer native tests (unit, chart snapshots)" \
  cargo test --locked -p eval-compare-viewer --tests
# Without debug info (above) each browser-test .wasm is ~4 MB instead of ~100 MB: linking and
# wasm-bindgen's processing get much faster.
step "viewer tests (headless Chromium)" \
  cargo test --locked -p eval-compare-viewer --target wasm32-unknown-unknown
step "build the viewer (trunk build --release, split)" trunk build --release
step "build the server (profile server) and the CLI" bash -c \
  "cargo build --locked --profile server -p eval-compare-server && cargo build --locked -p eval-compare-cli"
# The official Python client (trajectory-sdk 0.9.31, strict validation) reads the demo: every
# endpoint the viewer uses (scripts/sdk-check.sh installs the SDK into target/ when missing).
step "official client check (trajectory-sdk, demo)" env \
  EVAL_COMPARE_SERVER_BIN="$TARGET_DIR/server/eval-compare-server" ./scripts/sdk-check.sh
step "e2e (server + viewer + Chromium)" env \
  EVAL_COMPARE_SERVER_BIN="$TARGET_DIR/server/eval-compare-server" \
  EVAL_COMPARE_CLI_BIN="$TARGET_DIR/debug/eval-compare" \
  EVAL_COMPARE_DIST="$PWD/dist" \
  cargo test --locked -p eval-compare-e2e --no-fail-fast

print_summary
printf 'ALL CHECKS PASSED in %ds\n' $((SECONDS - started_all))
