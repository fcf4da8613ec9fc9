// Attention timings side by side over a grid of regimes: native C++, the wasm module in Node, the
// chapter's NumPy code. 2048 queries × 2048 keys, d = 1, 2, 8, 32, h = 0.05, 0.3, 1, 10 on inputs
// uniform on [-3, 3] (at h = 0.05 most of a row's weights underflow to 0), keys in the order drawn
// and sorted by their first coordinate (tests/wasm/attention-regimes.mjs; the test beside it holds
// every regime's results to the bits of the build before the exp pass's rework).
// New arrays are timed twice: as Node starts by default, and in a second Node process with glibc
// asked to back large allocations with transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1,
// glibc 2.35 or later), as NumPy asks for its own large arrays: on a machine where a page fault is
// slow, a new 32 MB array costs far more than the call (docs/speed.md). Each column is the lowest
// of ROUNDS medians per regime, its rounds minutes apart (below).
// Run by scripts/bench.sh; KERNEL_LENS_BENCH_BIN locates bench_attention, KERNEL_LENS_WASM_DIR the
// module; KERNEL_LENS_BENCH_FILTER (a regular expression over "d=8 h=0.3 sorted") runs fewer.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { regimeInputs, regimes } from '../../tests/wasm/attention-regimes.mjs';
import { loadKernelLens } from '../../tests/wasm/load.mjs';
import { medianMs } from './median.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SIZE = 2048;
const filter = new RegExp(process.env.KERNEL_LENS_BENCH_FILTER ?? '');
const REGIMES = regimes(SIZE, SIZE, 1).filter((r) => filter.test(r.name));
/** The drivers' name of a regime: "2048x2048x8:0.3:sorted". */
const caseName = (r) => `${r.m}x${r.n}x${r.d}:${r.h}:${r.order}`;

/** Runs a program printing one JSON line per case; a missing program gives no timings. */
function timingsFrom(command, args) {
  try {
    const output = execFileSync(command, [...args, ...REGIMES.map(caseName)], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
    return new Map(output.trim().split('\n').map((line) => JSON.parse(line)).map(({ case: c, ms }) => [c, ms]));
  } catch (error) {
    console.error(`bench: ${command} failed: ${error.message.split('\n')[0]}`);
    return new Map();
  }
}

/** Per regime: `into` (results copied into arrays the caller reuses, as the map figure and the
 *  native driver do), `fresh` (new arrays per call: what kl.attention(q, k, v, d, p, h) does) and
 *  `outputs` (new arrays, outputs only: into = { weights: false }). */
async function wasmTimings() {
  const kl = await loadKernelLens();
  const into = new Map();
  const fresh = new Map();
  const outputs = new Map();
  const reused = { weights: new Float64Array(SIZE * SIZE), outputs: new Float64Array(SIZE) };
  for (const r of REGIMES) {
    const { queries, keys, values } = regimeInputs(r);
    into.set(caseName(r), medianMs(() => kl.attention(queries, keys, values, r.d, 1, r.h, undefined, undefined, reused), 250));
    fresh.set(caseName(r), medianMs(() => kl.attention(queries, keys, values, r.d, 1, r.h), 250));
    outputs.set(caseName(r), medianMs(() => kl.attention(queries, keys, values, r.d, 1, r.h, undefined, undefined, { weights: false }), 250));
  }
  return { into, fresh, outputs };
}

/** New arrays per call, timed in this process (the child run of hugePageTimings). */
async function freshTimings() {
  const kl = await loadKernelLens();
  const fresh = {};
  for (const r of REGIMES) {
    const { queries, keys, values } = regimeInputs(r);
    fresh[caseName(r)] = medianMs(() => kl.attention(queries, keys, values, r.d, 1, r.h), 250);
  }
  return fresh;
}

const HUGE_PAGES = 'glibc.malloc.hugetlb=1';
if (process.env.KERNEL_LENS_BENCH_CHILD === 'fresh') {
  console.log(JSON.stringify(await freshTimings()));
  process.exit(0);
}

/** New arrays per call in a Node process whose large allocations glibc backs with huge pages. */
function hugePageTimings() {
  try {
    const env = { ...process.env, KERNEL_LENS_BENCH_CHILD: 'fresh', GLIBC_TUNABLES: HUGE_PAGES };
    const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { cwd: root, env, encoding: 'utf8' });
    return new Map(Object.entries(JSON.parse(output)));
  } catch (error) {
    console.error(`bench: the huge-page run failed: ${error.message.split('\n')[0]}`);
    return new Map();
  }
}

/** The whole grid is timed this many times over, every column once per round (so a column's
 *  rounds lie minutes apart), and each regime keeps each column's lowest median. On a shared
 *  machine the host's other work slows this one for seconds at a time, unseen from inside (load
 *  average and steal time stay flat): one round let such a spell decide a regime's ratio, in
 *  either direction. KERNEL_LENS_BENCH_ROUNDS=1 times it once. */
const ROUNDS = Math.max(1, Number(process.env.KERNEL_LENS_BENCH_ROUNDS ?? 3));

/** Each key's lowest value over the maps (a key missing from all is left out). */
function lowestOf(maps) {
  const out = new Map();
  for (const map of maps) for (const [key, ms] of map) out.set(key, Math.min(out.get(key) ?? Infinity, ms));
  return out;
}

const loadBefore = loadavg()[0];
const binDir = path.resolve(root, process.env.KERNEL_LENS_BENCH_BIN ?? 'build/native-bench');
const rounds = [];
for (let round = 0; round < ROUNDS; ++round) {
  const wasmRound = await wasmTimings();
  rounds.push({
    native: timingsFrom(path.join(binDir, 'bench_attention'), []),
    ...wasmRound,
    huge: hugePageTimings(),
    numpy: timingsFrom('/usr/bin/python3', [path.join(root, 'scripts/bench/attention.py')]),
  });
}
const column = (name) => lowestOf(rounds.map((round) => round[name]));
const [native, huge, numpy] = [column('native'), column('huge'), column('numpy')];
const wasm = { into: column('into'), fresh: column('fresh'), outputs: column('outputs') };

const ms = (x) => (x === undefined ? 'n/a' : x < 1 ? x.toFixed(3) : x.toFixed(1));
const ratio = (a, b) => (a === undefined || b === undefined ? undefined : a / b);
const times = (x) => (x === undefined ? 'n/a' : `${x.toFixed(2)}x`);
const columns = ['regime (2048 x 2048)', 'native ms', 'wasm ms', 'new arrays ms', 'new, huge pages ms', 'outputs only ms',
  'NumPy ms', 'NumPy / wasm', 'NumPy / new', 'NumPy / new, huge', 'NumPy / outputs', 'wasm / native'];
const worst = { reused: Infinity, fresh: Infinity, huge: Infinity, outputs: Infinity, native: 0 };
const rows = REGIMES.map((r) => {
  const name = caseName(r);
  const [a, b, f, g, o, c] = [native.get(name), wasm.into.get(name), wasm.fresh.get(name), huge.get(name), wasm.outputs.get(name), numpy.get(name)];
  const cells = [ratio(c, b), ratio(c, f), ratio(c, g), ratio(c, o), ratio(b, a)];
  ['reused', 'fresh', 'huge', 'outputs'].forEach((key, i) => {
    if (cells[i] !== undefined) worst[key] = Math.min(worst[key], cells[i]);
  });
  if (cells[4] !== undefined) worst.native = Math.max(worst.native, cells[4]);
  return [r.name, ms(a), ms(b), ms(f), ms(g), ms(o), ms(c), ...cells.map(times)];
});
const widths = columns.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
console.log(`Gaussian attention, weights and outputs, median time per call, lowest of ${ROUNDS} rounds over the grid (NumPy / wasm > 1 means wasm is faster); load ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`);
console.log('wasm: results copied into arrays reused across calls; new arrays: new Float64Arrays per call (the default);');
console.log(`new, huge pages: the same in a Node started with GLIBC_TUNABLES=${HUGE_PAGES} (NumPy asks the kernel for huge pages itself);`);
console.log('outputs only: new arrays, weights not returned (into = { weights: false }); native writes into a reused result');
console.log(line(columns));
for (const row of rows) console.log(line(row));
console.log(`worst over the grid: NumPy / wasm ${times(worst.reused)} (goal >= 4), NumPy / new arrays ${times(worst.fresh)} (goal >= 2.5), ` +
  `with huge pages ${times(worst.huge)}, NumPy / outputs only ${times(worst.outputs)}, wasm / native ${times(worst.native)} (goal <= 1.5)`);
