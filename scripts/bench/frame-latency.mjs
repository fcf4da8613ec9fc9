#!/usr/bin/env node
// Input-to-painted-frame latency of the bandwidth sliders in Chromium: p50 / p95 per figure.
// Each animation frame moves a bandwidth slider one step and dispatches its `input` event (as a
// drag does); the latency of an input is the time from its event to the first painted frame
// whose charts show data requested at or after it (`kernel-lens:frame` marks, see charts.ts).
// Builds the site first (into $KERNEL_LENS_DIST when set) unless KERNEL_LENS_BENCH_NO_BUILD is set. Goal: p95 < 16 ms.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedPath, openSite } from '../../tests/e2e/harness.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const INPUTS = Number(process.env.KERNEL_LENS_BENCH_INPUTS ?? 300);

const SCENARIOS = [
  { name: 'lookup (Figure 12.1)', path: embedPath('lookup'), slider: 'bandwidth h', ready: '[data-testid=prediction]' },
  { name: 'ols-vs-nw', path: embedPath('ols-vs-nw'), slider: 'bandwidth h', ready: '[data-testid=nw-prediction]' },
  { name: 'temperature', path: embedPath('temperature'), slider: 'bandwidth h', ready: '[data-testid=temperature]' },
  { name: 'smoothing (Figure 12.2)', path: embedPath('smoothing'), slider: 'bandwidth h2', ready: '.kl-table tbody tr:nth-child(4) td' },
  { name: 'full page, lookup slider', path: 'index.html', slider: 'bandwidth h', ready: '[data-testid=prediction]' },
];

if (!process.env.KERNEL_LENS_BENCH_NO_BUILD) {
  const outDir = process.env.KERNEL_LENS_DIST ? ['--outDir', resolve(process.env.KERNEL_LENS_DIST)] : [];
  const build = spawnSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error', ...outDir], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/// Runs in the page: drives the slider for `count` frames and returns the latencies in ms.
async function drive({ label, count }) {
  const slider = Array.from(document.querySelectorAll('input[type=range]')).find(
    (input) => input.getAttribute('aria-label') === label,
  );
  if (!slider) throw new Error(`no slider named ${label}`);
  const low = Number(slider.min);
  const high = Number(slider.max);
  let position = Number(slider.value);
  let direction = 1;
  const inputs = [];
  performance.clearMarks('kernel-lens:frame');
  await new Promise((done) => {
    let frames = 0;
    const step = () => {
      const stepSize = (high - low) / 200;
      if (position + direction * stepSize > high || position + direction * stepSize < low) direction *= -1;
      position += direction * stepSize;
      slider.value = String(position);
      const event = new Event('input', { bubbles: true });
      inputs.push(event.timeStamp);
      slider.dispatchEvent(event);
      if (++frames < count) requestAnimationFrame(step);
      else setTimeout(done, 500);
    };
    requestAnimationFrame(step);
  });
  const frames = performance
    .getEntriesByName('kernel-lens:frame')
    .map((mark) => ({ paintedAt: mark.startTime, issuedAt: mark.detail.issuedAt }));
  const latencies = [];
  let unanswered = 0;
  for (const t of inputs) {
    const frame = frames.find((f) => f.issuedAt >= t && f.paintedAt >= t);
    if (frame) latencies.push(frame.paintedAt - t);
    else unanswered += 1;
  }
  return { latencies, unanswered };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

const site = await openSite();
const rows = [];
try {
  for (const scenario of SCENARIOS) {
    const { page, errors } = await site.newPage(scenario.path, { viewport: { width: 1280, height: 900 } });
    await page.waitForFunction((selector) => /\d/.test(document.querySelector(selector)?.textContent ?? ''), scenario.ready, {
      timeout: 30000,
    });
    await page.waitForTimeout(300);
    const { latencies, unanswered } = await page.evaluate(drive, { label: scenario.slider, count: INPUTS });
    const sorted = [...latencies].sort((a, b) => a - b);
    rows.push({
      figure: scenario.name,
      inputs: INPUTS,
      answered: latencies.length,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: sorted.at(-1) ?? Number.NaN,
      unanswered,
      errors: errors.length,
    });
  }
} finally {
  await site.close();
}

console.log('Frame latency: bandwidth slider input → painted frame (Chromium, headless)');
console.log('figure                        inputs  p50 ms  p95 ms  max ms  no frame');
for (const row of rows) {
  console.log(
    `${row.figure.padEnd(30)}${String(row.inputs).padStart(6)}${row.p50.toFixed(1).padStart(8)}${row.p95
      .toFixed(1)
      .padStart(8)}${row.max.toFixed(1).padStart(8)}${String(row.unanswered).padStart(10)}${row.errors ? `  (${row.errors} console errors)` : ''}`,
  );
}
const worst = Math.max(...rows.map((row) => row.p95));
console.log(`goal p95 < 16 ms: ${worst < 16 ? 'met' : 'not met'} (worst p95 ${worst.toFixed(1)} ms)`);
