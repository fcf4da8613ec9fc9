// What the your-data figure asks of the lab and core modules for a large table, wasm in Node:
// a new table's leave-one-out grid (looCurve over 26 bandwidths), a new bandwidth's one-pass fit
// (looFit) and the map's first 200 rows (attention). Run by scripts/bench.sh, or alone:
//   node scripts/bench/your-data.mjs            (KERNEL_LENS_WASM_DIR picks another build)
// Minimum of three calls each (the first includes the memory's growth); numbers are read, not
// asserted.
import { loadKernelLens } from '../../tests/wasm/load.mjs';

const GRID = 26;
const TABLES = [
  [2000, 1],
  [5000, 1],
  [5000, 2],
];

/** Deterministic uniform draws on [0, 10). */
function uniform(count, state) {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i += 1) {
    state.x = (state.x * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    out[i] = (Number(state.x >> 11n) / 2 ** 53) * 10;
  }
  return out;
}

function fastest(run, times = 3) {
  let best = Infinity;
  for (let i = 0; i < times; i += 1) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

const kl = await loadKernelLens();
const columns = ['table (rows x key columns)', `looCurve, ${GRID} h (ms)`, 'ns per evaluation', 'looFit (ms)', 'map 200 rows (ms)'];
const rows = [];
for (const [n, d] of TABLES) {
  const state = { x: 20261201n };
  const keys = uniform(n * d, state);
  const values = uniform(n, state);
  const grid = Array.from({ length: GRID }, (_, i) => 0.02 * 1.33 ** i);
  const curve = fastest(() => kl.looCurve(keys, values, d, grid, 'gaussian'), 2);
  const fit = fastest(() => kl.looFit(keys, values, d, 0.5, 'gaussian'));
  const map = fastest(() => kl.attention(keys.subarray(0, 200 * d), keys, values, d, 1, 0.5, 'gaussian', 'nearest'));
  rows.push([`${n.toLocaleString('en-US')} x ${d}`, curve.toFixed(0), ((curve * 1e6) / (n * n * GRID)).toFixed(2), fit.toFixed(1), map.toFixed(1)]);
}
const widths = columns.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
console.log('Your data: a large table in the core (Gaussian kernel, wasm in Node, fastest of repeated calls)');
console.log(line(columns));
for (const row of rows) console.log(line(row));
