#!/usr/bin/env bash
# Everything CI checks, in order: install, native build + Catch2 (plain and sanitized),
# wasm build + Node tests, site build + browser tests, then the host sites embedding the build from
# another origin (a VitePress site and a reveal.js deck from npm; Docusaurus from its own pinned lock;
# MkDocs, Sphinx + MyST and Quarto's pandoc core from Debian). Ends with CTest's and node:test's summaries.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
phase_started=$SECONDS
phase_name=""
timings=()
# Prints "== name ==" and notes how long the previous phase took; the list is printed at the end.
phase() {
  if [ -n "$phase_name" ]; then timings+=("$(printf '%5ss  %s' $((SECONDS - phase_started)) "$phase_name")"); fi
  phase_name=$1
  phase_started=$SECONDS
  [ -n "$1" ] && echo "== $1 =="
  return 0
}

recipes_pid=""
# On any exit: stop a background install still running, and print the time each phase took.
finish() {
  local status=$?
  # (An if, not `&&`: a kill that finds the install already ended must not end this trap early
  # under set -e, or a failed run would not print its phases.)
  if [ -n "$recipes_pid" ]; then kill "$recipes_pid" 2>/dev/null || true; fi
  phase ""
  echo "== time per phase (total $((SECONDS - started)) s, exit status $status) =="
  printf '%s\n' "${timings[@]}"
}
trap finish EXIT

phase "set-up (Debian packages, npm packages)"
bash scripts/setup.sh --hosts-system
# The host recipes' npm packages install in the background while the native builds compile.
mkdir -p build
recipes_log=build/host-recipes-install.log
bash scripts/setup.sh --host-recipes >"$recipes_log" 2>&1 &
recipes_pid=$!

phase "native build (Release)"
bash scripts/build-native.sh
phase "native build (ASan + UBSan)"
BUILD_DIR=build/native-sanitize BUILD_TYPE=Debug CMAKE_ARGS="-DKERNEL_LENS_SANITIZE=ON" bash scripts/build-native.sh

phase "wasm build"
bash scripts/build-wasm.sh
phase "site build"
npm run --silent typecheck
npm run --silent build:web
phase "size budget"
node scripts/check-budget.mjs

phase "fuzz smoke pass (libFuzzer + ASan + UBSan, ${FUZZ_SMOKE_RUNS:-5000} runs per target from a fixed seed)"
FUZZ_RUNS=${FUZZ_SMOKE_RUNS:-5000} bash scripts/fuzz.sh

phase "native tests under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/native-sanitize --output-on-failure -j 2
phase "native tests"
ctest --test-dir build/native --output-on-failure -j 2

phase "JavaScript tests (units, wasm in Node, the docs against the code, browser)"
node tests/run.mjs tests/unit/ tests/wasm/ tests/docs/ tests/e2e/

phase "host recipes' npm packages (installed in the background)"
wait_status=0
wait "$recipes_pid" || wait_status=$?
recipes_pid=""
if ((wait_status != 0)); then
  cat "$recipes_log" >&2
  echo "test: the host recipes' npm packages did not install" >&2
  exit 1
fi
cat "$recipes_log"
phase "host sites (VitePress, reveal.js, Docusaurus, Eleventy, Starlight, Marp, Slidev, MkDocs, Sphinx + MyST, pandoc)"
node tests/hosts/build.mjs
# The deck exporters print once the page's files have all arrived and half a second passed with no
# new one (Marp), whatever the page still draws: their tests run alone, after the others, on a CPU
# not shared with two other browsers (as a lecturer's export would run).
hosted=()
for file in tests/hosts/*.test.mjs; do [[ $file == */deck-export.test.mjs ]] || hosted+=("$file"); done
node --test --test-concurrency=2 "${hosted[@]}"
node --test tests/hosts/deck-export.test.mjs
phase ""
