#!/usr/bin/env bash
# Speed figures, printed side by side: native C++, wasm in Node, plain JavaScript, NumPy.
# Builds the native benchmark programs and the wasm module, then runs every scripts/bench/*.mjs
# driver (each prints one table), then Lighthouse on the full page and two embeds with its mobile
# and desktop presets. Not part of npm test: numbers are read, not asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=build/native-bench CMAKE_ARGS="-DKERNEL_LENS_BUILD_BENCH=ON -DKERNEL_LENS_BUILD_TESTS=OFF" \
  bash scripts/build-native.sh >/dev/null
bash scripts/build-wasm.sh >/dev/null
export KERNEL_LENS_BENCH_BIN=build/native-bench
for driver in scripts/bench/*.mjs; do
  node "$driver"
  echo
done
# The drivers above built the site into dist/.
for preset in mobile desktop; do
  LIGHTHOUSE_PRESET=$preset bash scripts/lighthouse.sh
  echo
done
