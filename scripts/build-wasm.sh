#!/usr/bin/env bash
# Builds the two WebAssembly modules into build/wasm: kernel_lens_core.mjs/.wasm and
# kernel_lens_lab.mjs/.wasm, the wrapper kernel_lens.mjs (both modules as one object) and
# kernel_lens_modules.json (which functions each module exports).
# WASM_BUILD_DIR / WASM_OUT_DIR override the folders (parallel builds must not share them).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
BUILD_DIR=${WASM_BUILD_DIR:-build/wasm-cmake}
OUT_DIR=${WASM_OUT_DIR:-build/wasm}
if ! command -v emcmake >/dev/null 2>&1; then
  echo "build-wasm: emcmake not found; run 'npm run setup' first" >&2
  exit 1
fi
emcmake cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DKERNEL_LENS_BUILD_TESTS=OFF \
  -DKERNEL_LENS_WASM_OUT_DIR="$(pwd)/$OUT_DIR" >/dev/null
cmake --build "$BUILD_DIR" -j "${JOBS:-2}"
# The single module and the one-file variants of earlier builds, so nothing loads them by mistake.
rm -f "$OUT_DIR/kernel_lens.wasm" "$OUT_DIR"/kernel_lens*_single.mjs
cp wasm/kernel_lens.mjs "$OUT_DIR/kernel_lens.mjs"
node scripts/list-wasm-modules.mjs "$OUT_DIR"
