#!/usr/bin/env bash
# Idempotent setup for a fresh rust machine: installs only what is missing, fast when all present.
# Installs: the wasm32 target, rustfmt and clippy, Trunk 0.21.14 (serves and builds the viewer,
# Trunk.toml), wasm-split-cli 0.2.3 (cuts the report's code into a chunk of its own, see
# scripts/build-viewer.sh), wasm-bindgen-cli (the exact version
# pinned in Cargo.toml; it brings wasm-bindgen-test-runner), Debian's chromium and
# chromium-driver, wasm-opt from binaryen 132 (npm), gcc and make (the CLI builds jemalloc) when
# missing, and the crates of Cargo.lock.
#
# Why not Debian's binaryen: its wasm-opt (version 108) rebinds wasm-bindgen's exported externref
# table to the function table, so the optimized app dies at start-up with
# "WebAssembly.Table.set(): Argument 1 is invalid for table" (fixed in binaryen 110).
# Python's scipy/statsmodels are installed only when EVAL_COMPARE_PY_REFS=1: they regenerate
# reference values and are not needed to test.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p; s/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml | head -n1)
# The same minor version as the wasm_split_helpers crate in Cargo.lock (Leptos's split runtime).
WASM_SPLIT_VERSION=0.2.3
# The newest Trunk that builds with the machines' rustc 1.95 (0.22 needs 1.96.1).
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
log() { printf '[setup] %s\n' "$*" >&2; }

if [ -z "$WASM_BINDGEN_VERSION" ]; then
  log "could not read the pinned wasm-bindgen version (wasm-bindgen = \"=X.Y.Z\") from Cargo.toml"
  exit 1
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    log "adding the $component component"
    rustup component add "$component"
  fi
done

# The tool prints no version: cargo's record of installed crates tells which one is there.
if ! command -v wasm-split-cli >/dev/null 2>&1 \
  || ! grep -qs "\"wasm_split_cli_support $WASM_SPLIT_VERSION " "${CARGO_HOME:-$HOME/.cargo}/.crates.toml"; then
  log "installing wasm-split-cli $WASM_SPLIT_VERSION (takes about a minute once)"
  cargo install --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary
fi

if ! command -v trunk >/dev/null 2>&1 || ! trunk --version | grep -q " $TRUNK_VERSION\$"; then
  log "installing Trunk $TRUNK_VERSION (takes about 6 minutes once)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

# `--locked` fails here for wasm-bindgen-cli (a locked dependency is missing from the mirror).
if ! command -v wasm-bindgen >/dev/null 2>&1 || ! wasm-bindgen --version | grep -q " $WASM_BINDGEN_VERSION" \
  || ! command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (takes about 2 minutes once)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
# The CLI's allocator (jemalloc, built from source by tikv-jemalloc-sys) needs a C compiler
# and make.
command -v cc >/dev/null 2>&1 || missing+=(gcc)
command -v make >/dev/null 2>&1 || missing+=(make)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# /usr/local/bin comes before /usr/bin (Debian's binaryen, if installed) on the PATH.
if ! wasm-opt --version 2>/dev/null | grep -q "(version_$BINARYEN_VERSION)"; then
  log "installing wasm-opt from binaryen $BINARYEN_VERSION (npm package binaryen@$BINARYEN_VERSION.0.0)"
  npm install --global --prefix /usr/local --no-audit --no-fund --loglevel=error \
    "binaryen@$BINARYEN_VERSION.0.0"
  hash -r
  if ! wasm-opt --version | grep -q "(version_$BINARYEN_VERSION)"; then
    log "wasm-opt on the PATH is $(command -v wasm-opt), not binaryen $BINARYEN_VERSION: put /usr/local/bin first"
    exit 1
  fi
fi

# Every locked crate downloaded up front (quick when cached).
cargo fetch --locked --quiet

if [ "${EVAL_COMPARE_PY_REFS:-0}" = 1 ]; then
  python3 -c 'import scipy, statsmodels' 2>/dev/null || pip install -q scipy statsmodels
fi
log "ready"
