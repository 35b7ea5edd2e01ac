#!/usr/bin/env bash
# Builds the viewer for the browser. Trunk runs it as its post-build hook (Trunk.toml): `trunk
# build --release` for the release, `trunk serve` while developing. Run by hand it writes dist/
# (or the folder given as $1) the same way, for a release build.
#   1. cargo builds the viewer for wasm32 with `--cfg lazy_report`, which turns the report pages
#      into a split point (src/pages/lazy.rs), and with relocations kept;
#   2. wasm-split-cli cuts the report's code into a chunk of its own (split_report_pages.wasm)
#      and writes the loader the main module imports (__wasm_split.js);
#   3. wasm-bindgen writes the JS bindings of the main module;
#   4. release only: wasm-opt -Oz shrinks the main module and the chunk;
#   5. the files go to pkg-<content hash>/ (with the three style sheets as one style.css),
#      release only each with a gzipped copy (.gz), and @PKG@ in index.html names that folder.
# Trunk's own Rust pipeline is not used: it cannot run wasm-split-cli between cargo and
# wasm-bindgen (trunk-rs/trunk#1022), so Trunk serves, watches and stages the HTML, and this
# script builds the code into its staging folder. scripts/setup.sh installs the tools.
#
# Environment (set by Trunk's hooks): TRUNK_STAGING_DIR (where to write; index.html there is
# already processed by Trunk), TRUNK_PROFILE (release or debug). A debug build is built without
# debug info and not optimized by wasm-opt: quick to rebuild while developing.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[build-viewer] %s\n' "$*" >&2; }
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
NAME=eval-compare-viewer

if [ -n "${TRUNK_STAGING_DIR:-}" ]; then
  OUT=$TRUNK_STAGING_DIR
  PROFILE=${TRUNK_PROFILE:-debug}
  HTML="$OUT/index.html"
else
  DIST=${1:-dist}
  OUT="$DIST.tmp"
  PROFILE=release
  HTML=""
fi
WORK="$TARGET_DIR/viewer-build/$PROFILE"
# RUSTFLAGS replaces the wasm32 rustflags of .cargo/config.toml, so it repeats them.
RUSTFLAGS="--cfg erase_components --cfg lazy_report -C link-args=--emit-relocs"
WASM_OPT_FLAGS=(-Oz --strip-producers --enable-bulk-memory --enable-sign-ext
  --enable-nontrapping-float-to-int --enable-mutable-globals --enable-reference-types
  --enable-multivalue)
# EVAL_COMPARE_KEEP_NAMES=1 keeps the functions' names (a CPU profile then names them, see
# bench-report --cpu-profile); the release served strips them.
if [ "${EVAL_COMPARE_KEEP_NAMES:-}" = 1 ]; then
  WASM_OPT_FLAGS+=(--debuginfo)
else
  WASM_OPT_FLAGS+=(--strip-debug)
fi

if [ "$PROFILE" = release ]; then
  log "cargo build (wasm32, release)"
  RUSTFLAGS="$RUSTFLAGS" cargo build --locked --release --target wasm32-unknown-unknown --bin "$NAME"
  WASM="$TARGET_DIR/wasm32-unknown-unknown/release/$NAME.wasm"
else
  log "cargo build (wasm32, dev, no debug info)"
  RUSTFLAGS="$RUSTFLAGS" CARGO_PROFILE_DEV_DEBUG=false \
    cargo build --locked --target wasm32-unknown-unknown --bin "$NAME"
  WASM="$TARGET_DIR/wasm32-unknown-unknown/debug/$NAME.wasm"
fi

rm -rf "$WORK" && mkdir -p "$WORK/split" "$WORK/bindgen" "$WORK/pkg"
log "wasm-split-cli: the report pages into their own chunk"
wasm-split-cli "$WASM" "$WORK/split" --out-name "$NAME" --target web
if [ ! -f "$WORK/split/split_report_pages.wasm" ]; then
  log "wasm-split-cli wrote no split_report_pages.wasm: was the viewer built with --cfg lazy_report?"
  exit 1
fi

log "wasm-bindgen"
wasm-bindgen --target web --keep-lld-exports --no-demangle --no-typescript \
  --out-dir "$WORK/bindgen" --out-name "$NAME" "$WORK/split/$NAME.wasm"

if [ "$PROFILE" = release ]; then
  log "wasm-opt -Oz"
  wasm-opt "${WASM_OPT_FLAGS[@]}" "$WORK/bindgen/${NAME}_bg.wasm" -o "$WORK/pkg/${NAME}_bg.wasm"
  for chunk in "$WORK"/split/split_*.wasm; do
    wasm-opt "${WASM_OPT_FLAGS[@]}" "$chunk" -o "$WORK/pkg/$(basename "$chunk")"
  done
else
  cp "$WORK/bindgen/${NAME}_bg.wasm" "$WORK"/split/split_*.wasm "$WORK/pkg/"
fi
cp "$WORK/bindgen/$NAME.js" "$WORK/split/__wasm_split.js" "$WORK/pkg/"
cat style/main.css style/table.css style/charts.css > "$WORK/pkg/style.css"

# The folder's name changes with any file in it, so browsers never mix files of two builds.
HASH=$(cd "$WORK/pkg" && cat $(ls) | sha256sum | cut -c1-16)
PKG="pkg-$HASH"
if [ -z "$HTML" ]; then
  rm -rf "$OUT" && mkdir -p "$OUT"
  cp index.html "$OUT/index.html"
  HTML="$OUT/index.html"
fi
rm -rf "$OUT"/pkg-*
cp -r "$WORK/pkg" "$OUT/$PKG"
# The build's folder in every path, and without the link that turns Trunk's Rust pipeline off.
sed -i -e "s|@PKG@|$PKG|g" -e '/<link data-trunk rel="rust" data-trunk-skip/d' "$HTML"
if [ "$PROFILE" = release ]; then
  # Gzipped copies beside the files: the server sends them to browsers that accept gzip instead
  # of compressing the same bytes on every request.
  for file in "$OUT/$PKG"/*; do
    gzip -9 -n -k "$file"
  done
fi
if [ -n "${DIST:-}" ]; then
  rm -rf "$DIST" && mv "$OUT" "$DIST"
  OUT=$DIST
fi

for file in "$OUT/$PKG"/*; do
  case "$file" in *.gz) continue ;; esac
  if [ -f "$file.gz" ]; then
    log "$(printf '%-44s %9d bytes, %8d gzipped' "$(basename "$file")" "$(stat -c %s "$file")" "$(stat -c %s "$file.gz")")"
  else
    log "$(printf '%-44s %9d bytes' "$(basename "$file")" "$(stat -c %s "$file")")"
  fi
done
log "built $OUT/ ($PKG, $PROFILE)"
