// Runs the JavaScript test files of the folders or files given (tests/unit, tests/wasm, …) two at a
// time, as `node --test --test-concurrency=2` does, with TAP on standard output, but the longest
// files first: node --test starts files in name order, and a long browser file that starts last
// runs alone on one core while the other waits. Exits with 1 when a test fails.
// Usage: node tests/run.mjs tests/unit/ tests/wasm/ tests/docs/ tests/e2e/
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

/// The files that take longest (a CI run's durations, longest first); the others follow in name
/// order. A file missing here only costs time.
const LONGEST = [
  'e2e/load-faults', 'e2e/widths', 'e2e/url-hostile', 'e2e/a11y', 'e2e/embedding', 'e2e/keyboard-walk',
  'e2e/engine', 'e2e/chart-access', 'e2e/your-data', 'e2e/theme-flip', 'e2e/csp', 'e2e/page',
  'e2e/host-contract', 'e2e/reflow', 'e2e/layout-shift', 'e2e/listings', 'e2e/print', 'e2e/lookup',
].map((name) => `${name}.test.mjs`);

const testsDir = fileURLToPath(new URL('.', import.meta.url));
const files = [];
for (const arg of process.argv.slice(2)) {
  const path = resolve(arg);
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) if (name.endsWith('.test.mjs')) files.push(join(path, name));
  } else {
    files.push(path);
  }
}
if (files.length === 0) throw new Error('run: no test files in the folders given');
const rank = (file) => {
  const index = LONGEST.indexOf(relative(testsDir, file));
  return index < 0 ? LONGEST.length : index;
};
files.sort((a, b) => rank(a) - rank(b));

const stream = run({ files, concurrency: 2 });
stream.on('test:fail', () => {
  process.exitCode = 1;
});
// Each file's tests' total duration (its top-level tests, not its hooks): printed at the end,
// longest first, for LONGEST above.
const totals = new Map();
for (const event of ['test:pass', 'test:fail']) {
  stream.on(event, (data) => {
    if (!data?.file || data.nesting !== 0) return;
    totals.set(data.file, (totals.get(data.file) ?? 0) + (data.details?.duration_ms ?? 0));
  });
}
stream.on('end', () => {
  const lines = [...totals].sort((a, b) => b[1] - a[1]).map(([file, ms]) => `${(ms / 1000).toFixed(1).padStart(7)}  ${relative(testsDir, file)}`);
  console.error(`run: each file's tests took (seconds, longest first)\n${lines.join('\n')}`);
});
stream.compose(tap).pipe(process.stdout);
