#!/usr/bin/env bash
# Everything CI checks, in order: install, native build + Catch2 (plain and sanitized),
# wasm build + Node tests, site build + browser tests, then the host sites embedding the build from
# another origin (a VitePress site and a reveal.js deck from npm; Docusaurus from its own pinned lock;
# MkDocs, Sphinx + MyST and Quarto's pandoc core from Debian). Ends with CTest's and node:test's summaries.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh --hosts

echo "== native build (Release) =="
bash scripts/build-native.sh
echo "== native build (ASan + UBSan) =="
BUILD_DIR=build/native-sanitize BUILD_TYPE=Debug CMAKE_ARGS="-DKERNEL_LENS_SANITIZE=ON" bash scripts/build-native.sh

echo "== wasm build =="
bash scripts/build-wasm.sh
echo "== site build =="
npm run --silent typecheck
npm run --silent build:web
echo "== size budget =="
node scripts/check-budget.mjs

echo "== fuzz smoke pass (libFuzzer + ASan + UBSan, ${FUZZ_SMOKE_RUNS:-20000} runs per target from a fixed seed) =="
FUZZ_RUNS=${FUZZ_SMOKE_RUNS:-20000} bash scripts/fuzz.sh

echo "== native tests under ASan + UBSan =="
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/native-sanitize --output-on-failure -j 2
echo "== native tests =="
ctest --test-dir build/native --output-on-failure -j 2

echo "== JavaScript tests (units, wasm in Node, the docs against the code, browser) =="
node --test --test-concurrency=2 tests/unit/ tests/wasm/ tests/docs/ tests/e2e/

echo "== host sites (VitePress, reveal.js, Docusaurus, MkDocs, Sphinx + MyST, pandoc) =="
node tests/hosts/build.mjs
node --test --test-concurrency=2 tests/hosts/*.test.mjs
