// Attention timings side by side: native C++, the wasm module in Node, the chapter's NumPy code.
// Run by scripts/bench.sh; KERNEL_LENS_BENCH_BIN locates bench_attention, KERNEL_LENS_WASM_DIR the module.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadKernelLens } from '../../tests/wasm/load.mjs';

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

async function wasmTimings() {
  const kl = await loadKernelLens();
  const timings = new Map();
  for (const name of CASES) {
    const [m, n, d] = name.split('x').map(Number);
    const state = { x: 605012n };
    const queries = uniform(m * d, state);
    const keys = uniform(n * d, state);
    const values = uniform(n, state);
    const times = [];
    let total = 0;
    while (times.length < 5 || (total < 250 && times.length < 2000)) {
      const start = performance.now();
      kl.attention(queries, keys, values, d, 1, 0.5);
      const elapsed = performance.now() - start;
      times.push(elapsed);
      total += elapsed;
    }
    times.sort((a, b) => a - b);
    timings.set(name, times[Math.floor(times.length / 2)]);
  }
  return timings;
}

const binDir = path.resolve(root, process.env.KERNEL_LENS_BENCH_BIN ?? 'build/native-bench');
const native = timingsFrom(path.join(binDir, 'bench_attention'), []);
const wasm = await wasmTimings();
const numpy = timingsFrom('/usr/bin/python3', [path.join(root, 'scripts/bench/attention.py')]);

const ms = (x) => (x === undefined ? 'n/a' : x < 1 ? x.toFixed(3) : x.toFixed(1));
const ratio = (a, b) => (a === undefined || b === undefined ? 'n/a' : `${(a / b).toFixed(2)}x`);
const columns = ['attention (m x n x d)', 'native ms', 'wasm ms', 'NumPy ms', 'wasm / native', 'NumPy / wasm'];
const rows = CASES.map((name) => {
  const [m, n, d] = name.split('x');
  const [a, b, c] = [native.get(name), wasm.get(name), numpy.get(name)];
  return [`${m} queries x ${n} keys, d=${d}`, ms(a), ms(b), ms(c), ratio(b, a), ratio(c, b)];
});
const widths = columns.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
console.log('Gaussian attention, median time per call (NumPy / wasm > 1 means wasm is faster)');
console.log(line(columns));
for (const row of rows) console.log(line(row));
