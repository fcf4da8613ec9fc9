#!/usr/bin/env bash
# Builds the WebAssembly module: build/wasm/kernel_lens.mjs + build/wasm/kernel_lens.wasm.
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
