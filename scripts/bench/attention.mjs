// Attention timings side by side: native C++, the wasm module in Node, the chapter's NumPy code.
// Run by scripts/bench.sh; KERNEL_LENS_BENCH_BIN locates bench_attention, KERNEL_LENS_WASM_DIR the module.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadKernelLens } from '../../tests/wasm/load.mjs';
import { medianMs } from './median.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CASES = ['241x60x1', '2048x2048x1', '2048x2048x8'];

/** Runs a program printing one JSON line per case; a missing program gives no timings. */
function timingsFrom(command, args) {
  try {
    const output = execFileSync(command, [...args, ...CASES], { cwd: root, encoding: 'utf8' });
    return new Map(output.trim().split('\n').map((line) => JSON.parse(line)).map(({ case: c, ms }) => [c, ms]));
  } catch (error) {
    console.error(`bench: ${command} failed: ${error.message.split('\n')[0]}`);
    return new Map();
  }
}

/** Deterministic uniform draws on [-3, 3] (the inputs only need to be alike, not identical). */
function uniform(count, state) {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i += 1) {
    state.x = (state.x * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    out[i] = Number(state.x >> 11n) / 2 ** 53 * 6 - 3;
  }
  return out;
}

/** Per case: `into` (the results copied into arrays the caller reuses, as the map figure and the
 *  native driver do) and `fresh` (new arrays per call: on this machine a new 32 MB array costs
 *  about 95 ms of page faults, more than the computation). */
async function wasmTimings() {
  const kl = await loadKernelLens();
  const into = new Map();
  const fresh = new Map();
  for (const name of CASES) {
    const [m, n, d] = name.split('x').map(Number);
    const state = { x: 605012n };
    const queries = uniform(m * d, state);
    const keys = uniform(n * d, state);
    const values = uniform(n, state);
    const reused = { weights: new Float64Array(m * n), outputs: new Float64Array(m) };
    into.set(name, medianMs(() => kl.attention(queries, keys, values, d, 1, 0.5, undefined, undefined, reused), 250));
    fresh.set(name, medianMs(() => kl.attention(queries, keys, values, d, 1, 0.5), 250));
  }
  return { into, fresh };
}

const binDir = path.resolve(root, process.env.KERNEL_LENS_BENCH_BIN ?? 'build/native-bench');
const native = timingsFrom(path.join(binDir, 'bench_attention'), []);
const { into: wasm, fresh } = await wasmTimings();
const numpy = timingsFrom('/usr/bin/python3', [path.join(root, 'scripts/bench/attention.py')]);

const ms = (x) => (x === undefined ? 'n/a' : x < 1 ? x.toFixed(3) : x.toFixed(1));
const ratio = (a, b) => (a === undefined || b === undefined ? 'n/a' : `${(a / b).toFixed(2)}x`);
const columns = ['attention (m x n x d)', 'native ms', 'wasm ms', 'NumPy ms', 'wasm / native', 'NumPy / wasm', 'wasm, new arrays ms'];
const rows = CASES.map((name) => {
  const [m, n, d] = name.split('x');
  const [a, b, c] = [native.get(name), wasm.get(name), numpy.get(name)];
  return [`${m} queries x ${n} keys, d=${d}`, ms(a), ms(b), ms(c), ratio(b, a), ratio(c, b), ms(fresh.get(name))];
});
const widths = columns.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
console.log('Gaussian attention, weights and outputs, median time per call (NumPy / wasm > 1 means wasm is faster);');
console.log('native and wasm write into result arrays reused across calls; the last column allocates new ones per call');
console.log(line(columns));
for (const row of rows) console.log(line(row));
