#!/usr/bin/env bash
# libFuzzer targets of tests/fuzz/ built with clang (-fsanitize=fuzzer,address,undefined) into
# build/fuzz, each run for FUZZ_SECONDS (default 600) from its committed corpus in
# tests/fuzz/corpus/<target>/. FUZZ_RUNS=N instead runs N inputs per target from a fixed seed,
# so a pass (the smoke pass of npm test) is repeatable. New inputs go to build/fuzz/corpus/<target>/; FUZZ_MERGE=1 merges the
# ones that add coverage back into the committed corpus. FUZZ_TARGETS picks targets (default all).
# Ends with one line per target: executions, coverage (edges) and features reached.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_SECONDS=${FUZZ_SECONDS:-600}
OUT=${FUZZ_BUILD_DIR:-build/fuzz}
CXX=${FUZZ_CXX:-clang++}
ALL_TARGETS=$(basename -s .cpp tests/fuzz/fuzz_*.cpp | sed 's/^fuzz_//')
TARGETS=${FUZZ_TARGETS:-$ALL_TARGETS}
EIGEN=$(pkg-config --cflags eigen3 2>/dev/null || echo -I/usr/include/eigen3)
FLAGS=(-std=c++17 -g -O1 -fno-omit-frame-pointer -Icpp/include -Iwasm $EIGEN
       -fsanitize=address,undefined -fno-sanitize-recover=undefined)

mkdir -p "$OUT/objects"
# The core's files (and wasm/rules.cpp: the bindings' argument rules, plain C++, for the bindings
# target) are compiled in JOBS batches, each one file that includes its share: each file alone read
# Eigen and the standard headers again, which took longer than compiling the file itself (the
# native CMake build batches them the same way).
sources=(cpp/src/*.cpp wasm/rules.cpp)
batches=${JOBS:-2}
objects=()
for ((batch = 0; batch < batches; batch++)); do
  unity="$OUT/objects/batch_$batch.cpp"
  object="$OUT/objects/batch_$batch.o"
  members=()
  for ((i = batch; i < ${#sources[@]}; i += batches)); do members+=("${sources[$i]}"); done
  ((${#members[@]})) || continue
  listing=$(printf '#include "%s"\n' "${members[@]/#/$PWD/}")
  if [ ! -f "$unity" ] || [ "$(cat "$unity")" != "$listing" ]; then printf '%s\n' "$listing" > "$unity"; fi
  if [ ! -f "$object" ] || [ -n "$(find "${members[@]}" "$unity" cpp/include wasm/rules.hpp -newer "$object" -print -quit)" ]; then
    echo "fuzz: compiling ${members[*]}"
    "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer-no-link -c "$unity" -o "$object" &
  fi
  objects+=("$object")
done
for job in $(jobs -p); do wait "$job"; done
# Linked two at a time (each link is one process on one core), as the objects are compiled.
for target in $TARGETS; do
  binary="$OUT/fuzz_$target"
  source="tests/fuzz/fuzz_$target.cpp"
  if [ ! -f "$binary" ] || [ -n "$(find "$source" tests/fuzz/fuzz_input.hpp "${objects[@]}" -newer "$binary" -print -quit)" ]; then
    echo "fuzz: linking $binary"
    "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "$source" "${objects[@]}" -o "$binary" &
    while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-2}" ]; do wait -n; done
  fi
done
# (`wait` alone returns 0 whatever its jobs returned: each is waited for by its own pid.)
for job in $(jobs -p); do wait "$job"; done

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
summary=()
if [ -n "${FUZZ_RUNS:-}" ]; then budget_label="$FUZZ_RUNS runs (seed 1)"; else budget_label="${FUZZ_SECONDS}s"; fi
if [ -n "${FUZZ_RUNS:-}" ]; then budget=(-runs="$FUZZ_RUNS" -seed=1); else budget=(-max_total_time="$FUZZ_SECONDS"); fi
# One target's run (and merge), its output in build/fuzz/<target>.log. Each libFuzzer process runs
# on one core: the targets run two at a time (JOBS), and are reported in order afterwards.
run_target() {
  local target=$1 corpus="tests/fuzz/corpus/$1" work="$OUT/corpus/$1" log="$OUT/$1.log"
  "$OUT/fuzz_$target" "${budget[@]}" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix="$OUT/crash-$target-" "$work" "$corpus" >"$log" 2>&1 || return 1
  if [ "${FUZZ_MERGE:-0}" = 1 ]; then
    "$OUT/fuzz_$target" -merge=1 -max_len=4096 "$corpus" "$work" >>"$log" 2>&1
  fi
}
declare -A runs=()
for target in $TARGETS; do
  mkdir -p "tests/fuzz/corpus/$target" "$OUT/corpus/$target"
  echo "== fuzz $target: $budget_label =="
  run_target "$target" &
  runs[$target]=$!
  while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-2}" ]; do wait -n || true; done
done
failed=0
for target in $TARGETS; do
  log="$OUT/$target.log"
  if ! wait "${runs[$target]}"; then
    tail -n 60 "$log"
    echo "fuzz: $target found a failure; the input is in $OUT/crash-$target-*" >&2
    failed=1
    continue
  fi
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
  executions=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  summary+=("$target: ${executions:-?} executions; ${done_line#*DONE   }")
done
if ((failed)); then exit 1; fi
echo "== fuzz summary ($budget_label per target) =="
printf '%s\n' "${summary[@]}"
