#!/usr/bin/env bash
# Idempotent setup for a fresh rust machine: installs only what is missing, fast when all present.
# Installs: the wasm32 target, trunk 0.21.14, wasm-bindgen-cli (the exact version pinned in
# Cargo.toml), Debian's chromium, chromium-driver and binaryen, and python's scipy/statsmodels
# (only when EVAL_COMPARE_PY_REFS=1; they are needed to regenerate reference values, not to test).
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p; s/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml | head -n1)
TRUNK_VERSION=0.21.14
log() { printf '[setup] %s\n' "$*" >&2; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! command -v trunk >/dev/null 2>&1 || ! trunk --version | grep -q "$TRUNK_VERSION"; then
  log "installing trunk $TRUNK_VERSION (takes a few minutes once)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

if [ -z "$WASM_BINDGEN_VERSION" ]; then
  log "could not read the pinned wasm-bindgen version from Cargo.toml"; exit 1
fi
if ! command -v wasm-bindgen >/dev/null 2>&1 || ! wasm-bindgen --version | grep -q " $WASM_BINDGEN_VERSION"; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
command -v wasm-opt >/dev/null 2>&1 || missing+=(binaryen)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "${EVAL_COMPARE_PY_REFS:-0}" = 1 ]; then
  python3 -c 'import scipy, statsmodels' 2>/dev/null || pip install -q scipy statsmodels
fi
log "ready"
