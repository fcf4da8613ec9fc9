#!/usr/bin/env node
// Input-to-painted-frame latency of the bandwidth sliders in Chromium: p50 / p95 per figure.
// A slider moves one step per input and dispatches its `input` event (as a drag does: Chromium
// delivers pointer input at the start of a frame). For each input we report when the core's
// answer reached the page ("result") and the first painted frame whose charts show data
// requested at or after it ("painted"); pages opened with `kl-timing` leave the
// `kernel-lens:result` / `kernel-lens:frame` marks (see web/src/core/timing.ts). Every figure is
// measured under two frame clocks (see MODES) beside a floor: the least any figure whose numbers
// come from a worker can do. Goal: p95 < 16 ms.
// Builds the site first (into $KERNEL_LENS_DIST when set) unless KERNEL_LENS_BENCH_NO_BUILD is
// set; KERNEL_LENS_BENCH_INPUTS sets the inputs per figure (300), KERNEL_LENS_BENCH_ONLY picks
// figures by name.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedPath, openSite } from '../../tests/e2e/harness.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const INPUTS = Number(process.env.KERNEL_LENS_BENCH_INPUTS ?? 300);
/// KERNEL_LENS_BENCH_ONLY=text runs only the scenarios whose name contains `text`.
const ONLY = process.env.KERNEL_LENS_BENCH_ONLY ?? '';

/// The floor: the same drive against the least a worker-backed figure can do (a slider whose
/// input posts to an echo worker and, on the reply, fills one canvas rectangle). No design that
/// computes off the main thread can paint sooner than this.
function installFloor() {
  const slider = document.createElement('input');
  slider.type = 'range';
  slider.min = '0';
  slider.max = '1';
  slider.step = 'any';
  slider.setAttribute('aria-label', 'floor slider');
  const canvas = document.createElement('canvas');
  canvas.width = 200;
  canvas.height = 50;
  document.body.append(slider, canvas);
  const source = 'onmessage = (event) => postMessage(event.data);';
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  const context = canvas.getContext('2d');
  worker.onmessage = (event) => {
    const { value, issuedAt } = event.data;
    performance.mark('kernel-lens:result', { detail: { issuedAt } });
    context.clearRect(0, 0, 200, 50);
    context.fillRect(0, 0, 200 * value, 50);
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => performance.mark('kernel-lens:frame', { detail: { issuedAt } });
      channel.port2.postMessage(null);
    });
  };
  slider.addEventListener('input', () => worker.postMessage({ value: Number(slider.value), issuedAt: performance.now() }));
  slider.dataset.ready = '1';
}

const SCENARIOS = [
  { name: 'floor: echo worker + 1 rect', path: 'embed.html?widget=none', slider: 'floor slider', setup: installFloor, ready: '[data-ready]' },
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
async function drive({ label, count, interval }) {
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
      if (++frames >= count) setTimeout(done, 500);
      else if (interval) setTimeout(step, interval);
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
  const marks = (name) =>
    performance.getEntriesByName(name).map((mark) => ({ at: mark.startTime, issuedAt: mark.detail.issuedAt }));
  const frames = marks('kernel-lens:frame');
  const results = marks('kernel-lens:result');
  const latencies = [];
  const ready = [];
  let unanswered = 0;
  for (const t of inputs) {
    const frame = frames.find((f) => f.issuedAt >= t && f.at >= t);
    const result = results.find((r) => r.issuedAt >= t && r.at >= t);
    if (frame) latencies.push(frame.at - t);
    else unanswered += 1;
    if (result) ready.push(result.at - t);
  }
  return { latencies, ready, unanswered };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

/// The two clocks the figures are measured under: Chromium's 60 Hz frame clock (an input at the
/// start of a frame can show, at the earliest, in the next frame: the floor row shows that
/// bound), and an unthrottled one (`--disable-frame-rate-limit --disable-gpu-vsync`: a frame is
/// drawn as soon as there is something new to draw), with inputs every 16.7 ms, which measures
/// the figures' own work from input to painted pixels.
const MODES = [
  { title: '60 Hz frame clock, one input per frame', args: [], interval: 0 },
  { title: 'unthrottled frames, one input every 16.7 ms', args: ['--disable-frame-rate-limit', '--disable-gpu-vsync'], interval: 1000 / 60 },
];

async function measure(mode) {
  const site = await openSite({ extraArgs: mode.args });
  const rows = [];
  try {
    for (const scenario of SCENARIOS.filter((candidate) => candidate.name.includes(ONLY))) {
      const path = `${scenario.path}${scenario.path.includes('?') ? '&' : '?'}kl-timing`;
      const { page, errors } = await site.newPage(path, { viewport: { width: 1280, height: 900 } });
      if (scenario.setup) {
        await page.waitForLoadState('load');
        await page.evaluate(scenario.setup);
      }
      await page.waitForFunction(
        (selector) => {
          const element = document.querySelector(selector);
          return element?.hasAttribute('data-ready') || /\d/.test(element?.textContent ?? '');
        },
        scenario.ready,
        { timeout: 30000 },
      );
      await page.waitForTimeout(300);
      const { latencies, ready, unanswered } = await page.evaluate(drive, {
        label: scenario.slider,
        count: INPUTS,
        interval: mode.interval,
      });
      const sorted = [...latencies].sort((a, b) => a - b);
      const sortedReady = [...ready].sort((a, b) => a - b);
      rows.push({
        figure: scenario.name,
        inputs: INPUTS,
        ready50: percentile(sortedReady, 50),
        ready95: percentile(sortedReady, 95),
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        max: sorted.at(-1) ?? Number.NaN,
        unanswered,
        errors: errors.length,
      });
      await page.close();
    }
  } finally {
    await site.close();
  }
  return rows;
}

const ms = (x, width) => x.toFixed(1).padStart(width);
console.log('Frame latency: bandwidth slider input → painted frame (Chromium, headless)');
const summaries = [];
for (const mode of MODES) {
  const rows = await measure(mode);
  console.log(`\n${mode.title}`);
  console.log('                                      result (ms)      painted (ms)');
  console.log('figure                        inputs    p50    p95     p50    p95    max  no frame');
  for (const row of rows) {
    console.log(
      `${row.figure.padEnd(30)}${String(row.inputs).padStart(6)}${ms(row.ready50, 7)}${ms(row.ready95, 7)}` +
        `${ms(row.p50, 8)}${ms(row.p95, 7)}${ms(row.max, 7)}${String(row.unanswered).padStart(10)}` +
        `${row.errors ? `  (${row.errors} console errors)` : ''}`,
    );
  }
  const figures = rows.filter((row) => !row.figure.startsWith('floor'));
  const floor = rows.find((row) => row.figure.startsWith('floor'));
  const worst = figures.length ? Math.max(...figures.map((row) => row.p95)) : Number.NaN;
  summaries.push(
    `${mode.title}: worst painted p95 ${worst.toFixed(1)} ms` +
      (floor ? ` (floor p95 ${floor.p95.toFixed(1)} ms, so ${(worst - floor.p95).toFixed(1)} ms above it)` : '') +
      `; goal p95 < 16 ms ${worst < 16 ? 'met' : 'not met'}`,
  );
}
console.log(`\nmachine load average while measuring: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const line of summaries) console.log(line);
