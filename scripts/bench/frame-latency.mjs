#!/usr/bin/env node
// Input-to-painted-frame latency of the bandwidth sliders in Chromium: p50 / p95 per figure.
// The mouse drags each slider's thumb (real input through Chromium's input pipeline, which hands
// a drag's moves to the page at the start of a frame), about one move per frame. For each
// `input` event the slider fires we report, from the event's time stamp, when the core's answer
// reached the page ("result") and when the first frame that shows it was rendered ("painted");
// pages opened with `kl-timing` leave the `kernel-lens:result` / `kernel-lens:frame` marks (see
// web/src/core/timing.ts). Every figure is measured under the MODES below beside a floor.
// Goal: p95 < 16 ms.
// Builds the site first (into $KERNEL_LENS_DIST when set) unless KERNEL_LENS_BENCH_NO_BUILD is
// set; KERNEL_LENS_BENCH_INPUTS sets the moves per figure (300), KERNEL_LENS_BENCH_ONLY picks
// figures by name, KERNEL_LENS_BENCH_MODES modes by name.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { embedPath, openSite } from '../../tests/e2e/harness.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const INPUTS = Number(process.env.KERNEL_LENS_BENCH_INPUTS ?? 300);
/// KERNEL_LENS_BENCH_ONLY=text runs only the scenarios whose name contains `text`.
const ONLY = process.env.KERNEL_LENS_BENCH_ONLY ?? '';
const ONLY_MODES = process.env.KERNEL_LENS_BENCH_MODES ?? '';

/// The floors: the same drag against the least a figure can do, a slider whose input goes to an
/// echo worker and whose answer fills one canvas rectangle, marked as the figures mark theirs.
/// By message (`inFrame` false) the answer is handled after the frame that handled the input,
/// so it shows one frame later. In frame, the worker also writes the value into a
/// SharedArrayBuffer and the page waits for it there (at most 6 ms, as the figures do), so the
/// input's own frame shows it; that needs a cross-origin isolated page (elsewhere the message
/// brings it).
function installFloor(inFrame) {
  const slider = document.createElement('input');
  slider.type = 'range';
  slider.min = '0';
  slider.max = '1';
  slider.step = 'any';
  slider.style.width = '600px';
  slider.setAttribute('aria-label', 'floor slider');
  const canvas = document.createElement('canvas');
  canvas.width = 200;
  canvas.height = 50;
  document.body.prepend(slider, canvas);
  const source = `let cells;
onmessage = (event) => {
  if (event.data.shared) { cells = new Float64Array(event.data.shared); return; }
  if (cells) { cells[1] = event.data.value; Atomics.store(new Int32Array(cells.buffer), 0, event.data.id); }
  postMessage(event.data);
};`;
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  const shared = inFrame && globalThis.crossOriginIsolated ? new SharedArrayBuffer(16) : null;
  if (shared) worker.postMessage({ shared });
  const context = canvas.getContext('2d');
  let nextId = 1;
  const pending = new Map();
  const draw = (value, issuedAt) => {
    performance.mark('kernel-lens:result', { detail: { issuedAt } });
    context.clearRect(0, 0, 200, 50);
    context.fillRect(0, 0, 200 * value, 50);
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => performance.mark('kernel-lens:frame', { detail: { issuedAt } });
      channel.port2.postMessage(null);
    });
  };
  worker.onmessage = (event) => {
    const issuedAt = pending.get(event.data.id);
    if (issuedAt === undefined) return;
    pending.delete(event.data.id);
    draw(event.data.value, issuedAt);
  };
  slider.addEventListener('input', () => {
    const id = nextId++;
    const issuedAt = performance.now();
    pending.set(id, issuedAt);
    worker.postMessage({ id, value: Number(slider.value) });
    if (!shared) return;
    const flag = new Int32Array(shared, 0, 1);
    while (Atomics.load(flag, 0) !== id) if (performance.now() - issuedAt > 6) return;
    pending.delete(id);
    draw(new Float64Array(shared)[1], issuedAt);
  });
  slider.dataset.ready = '1';
}

const SCENARIOS = [
  { name: 'floor: echo worker + 1 rect', path: 'embed.html?widget=none', slider: 'floor slider', setup: installFloor, setupArg: false, ready: '[data-ready]' },
  { name: 'floor: in-frame echo + 1 rect', path: 'embed.html?widget=none', slider: 'floor slider', setup: installFloor, setupArg: true, ready: '[data-ready]' },
  { name: 'lookup (Figure 12.1)', path: embedPath('lookup'), slider: 'bandwidth h', ready: '[data-testid=prediction]' },
  // The query's tick label moves with it, so each frame lays the points chart out again.
  { name: 'lookup, query slider', path: embedPath('lookup'), slider: 'query q', ready: '[data-testid=prediction]' },
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

/// In the page: starts recording the time stamps of the slider's `input` events and returns the
/// slider's box, scrolled into view.
function listen(label) {
  const slider = Array.from(document.querySelectorAll('input[type=range]')).find(
    (input) => input.getAttribute('aria-label') === label,
  );
  if (!slider) throw new Error(`no slider named ${label}`);
  slider.scrollIntoView({ block: 'center' });
  performance.clearMarks('kernel-lens:frame');
  performance.clearMarks('kernel-lens:result');
  window.klInputs = [];
  slider.addEventListener('input', (event) => window.klInputs.push(event.timeStamp));
  const box = slider.getBoundingClientRect();
  return { x: box.left, y: box.top + box.height / 2, width: box.width };
}

/// In the page: each input's latency to its answer and to the first frame that showed it.
function collect() {
  const marks = (name) =>
    performance.getEntriesByName(name).map((mark) => ({ at: mark.startTime, issuedAt: mark.detail.issuedAt }));
  const frames = marks('kernel-lens:frame');
  const results = marks('kernel-lens:result');
  const latencies = [];
  const ready = [];
  let unanswered = 0;
  for (const t of window.klInputs) {
    const frame = frames.find((f) => f.issuedAt >= t && f.at >= t);
    const result = results.find((r) => r.issuedAt >= t && r.at >= t);
    if (frame) latencies.push(frame.at - t);
    else unanswered += 1;
    if (result) ready.push(result.at - t);
  }
  return { inputs: window.klInputs.length, latencies, ready, unanswered };
}

/// Drags the slider's thumb back and forth across its middle 80 %, one move every `interval` ms.
async function drag(page, box, count, interval) {
  const low = box.x + box.width * 0.1;
  const high = box.x + box.width * 0.9;
  const step = (high - low) / 150;
  let x = box.x + box.width / 2;
  let direction = 1;
  await page.mouse.move(x, box.y);
  await page.mouse.down();
  for (let i = 0; i < count; i++) {
    if (x + direction * step > high || x + direction * step < low) direction *= -1;
    x += direction * step;
    await page.mouse.move(x, box.y);
    await sleep(interval);
  }
  await page.mouse.up();
  await sleep(500);
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

/// The modes: Chromium's 60 Hz frame clock on a cross-origin isolated page (served with COOP/COEP
/// as `npm start` does: quick answers come within the frame through the mailbox,
/// web/src/core/mailbox.ts) and on a page without those headers (answers by message, so the floor
/// applies); then unthrottled frames (`--disable-frame-rate-limit --disable-gpu-vsync`: a frame is
/// drawn as soon as there is something new), which measures the figures' own work.
const MODES = [
  { title: '60 Hz frame clock, cross-origin isolated page', args: [], isolated: true },
  { title: '60 Hz frame clock, page without isolation headers', args: [], isolated: false },
  { title: 'unthrottled frames, cross-origin isolated page', args: ['--disable-frame-rate-limit', '--disable-gpu-vsync'], isolated: true },
];

async function measure(mode) {
  const site = await openSite({ extraArgs: mode.args, isolated: mode.isolated });
  const rows = [];
  try {
    for (const scenario of SCENARIOS.filter((candidate) => candidate.name.includes(ONLY))) {
      const path = `${scenario.path}${scenario.path.includes('?') ? '&' : '?'}kl-timing`;
      const { page, errors } = await site.newPage(path, { viewport: { width: 1280, height: 900 } });
      if (scenario.setup) {
        await page.waitForLoadState('load');
        await page.evaluate(scenario.setup, scenario.setupArg);
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
      const box = await page.evaluate(listen, scenario.slider);
      await drag(page, box, INPUTS, 1000 / 60);
      const { inputs, latencies, ready, unanswered } = await page.evaluate(collect);
      const sorted = [...latencies].sort((a, b) => a - b);
      const sortedReady = [...ready].sort((a, b) => a - b);
      rows.push({
        figure: scenario.name,
        inputs,
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

/// The machine's CPU time over the next `ms` milliseconds: the share that was idle, and the share
/// a virtual machine's host took for others (steal; Linux only, else 0). On this two-core machine
/// the drag itself keeps the browser's threads busy for most of a core, so other work running
/// beside a measurement shows up in its p95 (one busy loop adds several ms).
async function cpuShares(ms = 1000) {
  const sample = () => {
    try {
      // /proc/stat's first line: user nice system idle iowait irq softirq steal …
      const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
      return { idle: fields[3] + fields[4], steal: fields[7], all: fields.reduce((a, b) => a + b, 0) };
    } catch {
      return cpus().reduce(
        (acc, { times }) => ({ idle: acc.idle + times.idle, steal: 0, all: acc.all + times.user + times.nice + times.sys + times.idle + times.irq }),
        { idle: 0, steal: 0, all: 0 },
      );
    }
  };
  const before = sample();
  await sleep(ms);
  const after = sample();
  const all = after.all - before.all;
  return all > 0 ? { idle: (after.idle - before.idle) / all, steal: (after.steal - before.steal) / all } : { idle: Number.NaN, steal: 0 };
}
const BUSY_BELOW = 0.85;

const ms = (x, width) => x.toFixed(1).padStart(width);
console.log('Frame latency: bandwidth slider input → painted frame (Chromium, headless)');
const summaries = [];
for (const mode of MODES.filter((candidate) => candidate.title.includes(ONLY_MODES))) {
  const { idle, steal } = await cpuShares();
  const busy = idle < BUSY_BELOW;
  const rows = await measure(mode);
  console.log(`\n${mode.title}`);
  console.log(
    `CPU idle in the second before: ${(100 * idle).toFixed(0)} % of ${cpus().length} cores` +
      (steal >= 0.01 ? `, ${(100 * steal).toFixed(0)} % taken by the virtual machine's host` : '') +
      (busy ? ' (warning: other work was running; these latencies include waiting for the CPU)' : ''),
  );
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
  const floor = rows.find((row) => row.figure.startsWith(mode.isolated ? 'floor: in-frame' : 'floor: echo'));
  const worst = figures.length ? Math.max(...figures.map((row) => row.p95)) : Number.NaN;
  summaries.push(
    `${mode.title}: worst painted p95 ${worst.toFixed(1)} ms` +
      (floor ? ` (floor p95 ${floor.p95.toFixed(1)} ms, so ${(worst - floor.p95).toFixed(1)} ms above it)` : '') +
      `; goal p95 < 16 ms ${worst < 16 ? 'met' : 'not met'}` +
      (busy ? ` (CPU only ${(100 * idle).toFixed(0)} % idle before measuring)` : ''),
  );
}
console.log(`\nmachine load average while measuring: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const line of summaries) console.log(line);
