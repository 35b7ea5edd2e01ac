#!/usr/bin/env bash
# Builds the viewer for the browser into dist/ (or the folder given as $1):
#   1. cargo builds the viewer for wasm32 (release) with `--cfg lazy_report`, which turns the
#      report pages into a split point (src/pages/lazy.rs), and with relocations kept;
#   2. wasm-split-cli cuts the report's code into a chunk of its own (split_report_pages.wasm)
#      and writes the loader the main module imports (__wasm_split.js);
#   3. wasm-bindgen writes the JS bindings of the main module;
#   4. wasm-opt -Oz shrinks the main module and the chunk;
#   5. the files go to dist/pkg-<content hash>/ (with the three style sheets as one style.css),
#      each with a gzipped copy (.gz), and index.html, from the template at the root, names
#      that folder.
# scripts/setup.sh installs the tools. Trunk is not used: it cannot run wasm-split-cli between
# cargo and wasm-bindgen.
set -euo pipefail
cd "$(dirname "$0")/.."

DIST=${1:-dist}
log() { printf '[build-viewer] %s\n' "$*" >&2; }
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
WORK="$TARGET_DIR/viewer-build"
NAME=eval-compare-viewer
# RUSTFLAGS replaces the wasm32 rustflags of .cargo/config.toml, so it repeats them.
RUSTFLAGS="--cfg erase_components --cfg lazy_report -C link-args=--emit-relocs"
WASM_OPT_FLAGS=(-Oz --strip-debug --strip-producers --enable-bulk-memory --enable-sign-ext
  --enable-nontrapping-float-to-int --enable-mutable-globals --enable-reference-types
  --enable-multivalue)

log "cargo build (wasm32, release)"
RUSTFLAGS="$RUSTFLAGS" cargo build --locked --release --target wasm32-unknown-unknown --bin "$NAME"

rm -rf "$WORK" && mkdir -p "$WORK/split" "$WORK/bindgen" "$WORK/pkg"
log "wasm-split-cli: the report pages into their own chunk"
wasm-split-cli "$TARGET_DIR/wasm32-unknown-unknown/release/$NAME.wasm" "$WORK/split" \
  --out-name "$NAME" --target web
if [ ! -f "$WORK/split/split_report_pages.wasm" ]; then
  log "wasm-split-cli wrote no split_report_pages.wasm: was the viewer built with --cfg lazy_report?"
  exit 1
fi

log "wasm-bindgen"
wasm-bindgen --target web --keep-lld-exports --no-demangle --no-typescript \
  --out-dir "$WORK/bindgen" --out-name "$NAME" "$WORK/split/$NAME.wasm"

log "wasm-opt -Oz"
wasm-opt "${WASM_OPT_FLAGS[@]}" "$WORK/bindgen/${NAME}_bg.wasm" -o "$WORK/pkg/${NAME}_bg.wasm"
for chunk in "$WORK"/split/split_*.wasm; do
  wasm-opt "${WASM_OPT_FLAGS[@]}" "$chunk" -o "$WORK/pkg/$(basename "$chunk")"
done
cp "$WORK/bindgen/$NAME.js" "$WORK/split/__wasm_split.js" "$WORK/pkg/"
cat style/main.css style/table.css style/charts.css > "$WORK/pkg/style.css"

# The folder's name changes with any file in it, so browsers never mix files of two builds.
HASH=$(cd "$WORK/pkg" && cat $(ls) | sha256sum | cut -c1-16)
PKG="pkg-$HASH"
rm -rf "$DIST.tmp" && mkdir -p "$DIST.tmp"
cp -r "$WORK/pkg" "$DIST.tmp/$PKG"
sed "s|@PKG@|$PKG|g" index.html > "$DIST.tmp/index.html"
# Gzipped copies beside the files: the server sends them to browsers that accept gzip instead of
# compressing the same bytes on every request.
for file in "$DIST.tmp/$PKG"/*; do
  gzip -9 -n -k "$file"
done
rm -rf "$DIST" && mv "$DIST.tmp" "$DIST"

for file in "$DIST/$PKG"/*; do
  case "$file" in *.gz) continue ;; esac
  log "$(printf '%-44s %9d bytes, %8d gzipped' "$(basename "$file")" "$(stat -c %s "$file")" "$(stat -c %s "$file.gz")")"
done
log "built $DIST/ ($PKG)"
