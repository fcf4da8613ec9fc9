// Laboratory timings side by side: native C++, the wasm module in Node, plain JavaScript and the
// chapter's NumPy code, medians from one run. Run by scripts/bench.sh; KERNEL_LENS_BENCH_BIN locates
// bench_sweep, KERNEL_LENS_WASM_DIR the module.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadKernelLens } from '../../tests/wasm/load.mjs';
import { medianMs } from './median.mjs';
import { chapterSweep, exactRisk } from './sweep.js-impl.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CASES = ['sweep', 'exact200'];
const LABELS = {
  sweep: "chapter's sweep: 8 h, 1000 worlds, draws included",
  exact200: 'exact risk over 200 bandwidths',
};
const CURVE = Array.from({ length: 200 }, (_, i) => 0.02 * 100 ** (i / 199));

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

const binDir = path.resolve(root, process.env.KERNEL_LENS_BENCH_BIN ?? 'build/native-bench');
const native = timingsFrom(path.join(binDir, 'bench_sweep'), []);
const kl = await loadKernelLens();
const wasm = new Map([
  ['sweep', medianMs(() => kl.biasVarianceSweep(), 1000)],
  ['exact200', medianMs(() => kl.exactRisk({ bandwidths: CURVE }), 1000)],
]);
const plain = new Map([
  ['sweep', medianMs(() => chapterSweep(), 1000)],
  ['exact200', medianMs(() => exactRisk(CURVE), 1000)],
]);
const numpy = timingsFrom('/usr/bin/python3', [path.join(root, 'scripts/bench/sweep.py')]);

const ms = (x) => (x === undefined ? 'n/a' : x < 1 ? x.toFixed(3) : x.toFixed(1));
const ratio = (a, b) => (a === undefined || b === undefined ? 'n/a' : `${(a / b).toFixed(1)}x`);
const columns = ['laboratory', 'native ms', 'wasm ms', 'plain JS ms', 'NumPy ms', 'wasm / native', 'JS / wasm', 'NumPy / wasm'];
const rows = CASES.map((name) => {
  const [a, b, c, d] = [native.get(name), wasm.get(name), plain.get(name), numpy.get(name)];
  return [LABELS[name], ms(a), ms(b), ms(c), ms(d), ratio(b, a), ratio(c, b), ratio(d, b)];
});
const widths = columns.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
console.log('Bias/variance laboratory, median time per call (ratios > 1 mean wasm is faster)');
console.log(line(columns));
for (const row of rows) console.log(line(row));
const sweepRatio = numpy.get('sweep') / wasm.get('sweep');
console.log(`goals: wasm >= 10x faster than NumPy on the sweep: ${Number.isFinite(sweepRatio) ? (sweepRatio >= 10 ? 'met' : 'NOT met') : 'n/a'}; ` +
  `exact risk over 200 bandwidths < 5 ms in wasm: ${wasm.get('exact200') < 5 ? 'met' : 'NOT met'}`);
