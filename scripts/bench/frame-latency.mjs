#!/usr/bin/env node
// Input-to-painted-frame latency of the figures' sliders in Chromium: p50 / p95 per figure.
// The mouse drags each slider's thumb (real input through Chromium's input pipeline, which hands
// a drag's moves to the page at the start of a frame), about one move per frame. For each
// `input` event the slider fires we report, from the event's time stamp, when the core's answer
// reached the figure ("result") and when the first frame that shows it was rendered ("painted");
// pages opened with `kl-timing` leave the `kernel-lens:result` / `kernel-lens:frame` marks (see
// web/src/base/timing.ts). Every figure is measured under the MODES below beside two floors.
// The first mode is where readers are: the figure in a cross-origin iframe on a host page served
// without any isolation headers (the site and the host are two servers on 127.0.0.1, different
// ports, so different origins; the site's origin is given its own renderer process, as a figure
// embedded from another site would be). Goal: p95 < 16 ms at 60 Hz.
// Builds the site first (into $KERNEL_LENS_DIST when set) unless KERNEL_LENS_BENCH_NO_BUILD is
// set; KERNEL_LENS_BENCH_INPUTS sets the moves per figure (300), KERNEL_LENS_BENCH_ONLY picks
// figures by name, KERNEL_LENS_BENCH_MODES modes by name (a part of the title, e.g. "iframe").
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';
import { BROWSER_ARGS, chromiumPath, distDir, embedPath } from '../../tests/e2e/harness.mjs';
import { buildSite } from './build-site.mjs';

const INPUTS = Number(process.env.KERNEL_LENS_BENCH_INPUTS ?? 300);
/// KERNEL_LENS_BENCH_ONLY=text runs only the scenarios whose name contains `text`.
const ONLY = process.env.KERNEL_LENS_BENCH_ONLY ?? '';
const ONLY_MODES = process.env.KERNEL_LENS_BENCH_MODES ?? '';

/// The floors: the same drag against the least a figure can do, a slider whose answer fills one
/// canvas rectangle, marked as the figures mark theirs. By message (`onPage` false) the input goes
/// to an echo worker and its answer is handled after the frame that handled the input, so it
/// shows one frame later. On the page the answer is computed in the input's own task, as the
/// engine does for small calls (web/src/engine/cost.ts), so the input's own frame shows it.
function installFloor(onPage) {
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
  const worker = new Worker(URL.createObjectURL(new Blob(['onmessage = (event) => postMessage(event.data);'], { type: 'text/javascript' })));
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
    const issuedAt = performance.now();
    if (onPage) {
      draw(Number(slider.value), issuedAt);
      return;
    }
    const id = nextId++;
    pending.set(id, issuedAt);
    worker.postMessage({ id, value: Number(slider.value) });
  });
  slider.dataset.ready = '1';
}

/// Brings the full page's section `name` into view, as a reader scrolling to it would (its
/// figure mounts when its place nears the viewport).
function scrollToSection(name) {
  document.getElementById(`section-${name}`)?.scrollIntoView({ block: 'start' });
}

/// `ready`: an element whose text has digits (or `data-ready`) once the figure has its numbers.
const SCENARIOS = [
  { name: 'floor: echo worker + 1 rect', path: 'embed.html?widget=none', slider: 'floor slider', setup: installFloor, setupArg: false, ready: '[data-ready]' },
  { name: 'floor: on-page answer + 1 rect', path: 'embed.html?widget=none', slider: 'floor slider', setup: installFloor, setupArg: true, ready: '[data-ready]' },
  { name: 'lookup (Figure 12.1)', path: embedPath('lookup'), slider: 'bandwidth h', ready: '[data-testid=prediction]' },
  // The query's tick label moves with it, so each frame lays the points chart out again.
  { name: 'lookup, query slider', path: embedPath('lookup'), slider: 'query q', ready: '[data-testid=prediction]' },
  { name: 'ols-vs-nw', path: embedPath('ols-vs-nw'), slider: 'bandwidth h', ready: '[data-testid=nw-prediction]' },
  { name: 'temperature', path: embedPath('temperature'), slider: 'bandwidth h', ready: '[data-testid=temperature]' },
  { name: 'smoothing (Figure 12.2)', path: embedPath('smoothing'), slider: 'bandwidth h2', ready: '.kl-table tbody tr:nth-child(4) td' },
  { name: 'attention-map (Figure 12.3)', path: embedPath('attention-map'), slider: 'bandwidth h', ready: '.kl-readout' },
  { name: 'ties', path: embedPath('ties'), slider: 'bandwidth h', ready: '.kl-readout' },
  { name: 'underflow', path: embedPath('underflow'), slider: 'bandwidth h', ready: '.kl-readout' },
  // These draw no Chart.js charts (heat maps, tables, read-outs), so they leave no frame marks of
  // their own: the bench marks them (markFrames).
  { name: 'memory-bank', path: embedPath('memory-bank'), slider: 'bandwidth h', ready: '[data-testid=output]', markFrames: true },
  { name: 'standardize', path: embedPath('standardize'), slider: 'bandwidth h', ready: '.kl-readout', markFrames: true },
  { name: 'exercise-convexity', path: embedPath('exercise-convexity', { reveal: 'true' }), slider: 'bandwidth h', ready: '[data-testid=nw-prediction]', markFrames: true },
  { name: 'your-data', path: embedPath('your-data'), slider: 'bandwidth h', ready: '.kl-readout' },
  { name: 'bias-variance marker', path: embedPath('bias-variance'), slider: 'marker h, marker bandwidth h', ready: '[data-testid=marker-readout]' },
  // On the full page a section's figure mounts as the reader nears it: the bench scrolls there.
  { name: 'full page, lookup slider', path: 'index.html', slider: 'bandwidth h', ready: '[data-testid=prediction]', pageOnly: true, setup: scrollToSection, setupArg: 'lookup' },
];

if (!process.env.KERNEL_LENS_BENCH_NO_BUILD) buildSite(process.env.KERNEL_LENS_DIST);

/// In the page, for a figure that leaves no `kernel-lens:frame` marks: after each
/// `kernel-lens:result` mark, marks the end of the rendering of the next frame (its drawing is done
/// by then: it follows the result within the same task, or in an animation frame callback queued
/// after this one), as web/src/charts/frame.ts does for charts.
function markFrames() {
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    const entry = mark(name, options);
    if (name === 'kernel-lens:result') {
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => mark('kernel-lens:frame', options);
        channel.port2.postMessage(null);
      });
    }
    return entry;
  };
}

/// In the page: starts recording the time stamps of the slider's `input` events and returns the
/// slider's box, scrolled into view (unless `scroll` is false: the host page scrolls an iframe).
function listen([label, scroll]) {
  const slider = Array.from(document.querySelectorAll('input[type=range]')).find(
    (input) => input.getAttribute('aria-label') === label,
  );
  if (!slider) throw new Error(`no slider named ${label}`);
  if (scroll) slider.scrollIntoView({ block: 'center' });
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

/// The modes: Chromium's 60 Hz frame clock with the figure in a cross-origin iframe on a host page
/// without isolation headers (where figures are embedded: course notes, documentation sites), on
/// and on a page of its own served as a plain static host does (`npm start`); then unthrottled frames (`--disable-frame-rate-limit --disable-gpu-vsync`: a frame is drawn
/// as soon as there is something new), which measures the figures' own work.
const MODES = [
  { title: '60 Hz frame clock, figure in a cross-origin iframe on a host without isolation headers', args: [], iframe: true },
  { title: '60 Hz frame clock, page of its own on a plain static host', args: [] },
  { title: 'unthrottled frames, page of its own on a plain static host', args: ['--disable-frame-rate-limit', '--disable-gpu-vsync'] },
];

/// The host page of the iframe mode: some text, then the figure's iframe (tall enough that the
/// figure never scrolls inside it), its address taken from `?src=`.
const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Course notes</title></head>
<body style="margin:0;font:16px sans-serif"><p style="margin:16px">Course notes with an embedded figure.</p>
<iframe id="figure" title="Kernel Lens figure" style="display:block;width:1100px;height:2600px;border:0"></iframe>
<script>document.getElementById('figure').src = new URLSearchParams(location.search).get('src');</script>
</body></html>`;

/// Starts the site's server (and, for the iframe mode, the host's) and the browser.
async function openMode(mode) {
  const site = await startServer({ root: distDir });
  let host = null;
  let hostDir = null;
  const args = [...BROWSER_ARGS, ...mode.args];
  if (mode.iframe) {
    hostDir = mkdtempSync(join(tmpdir(), 'kernel-lens-host-'));
    writeFileSync(join(hostDir, 'index.html'), HOST_PAGE);
    host = await startServer({ root: hostDir, cors: false });
    args.push(`--isolate-origins=${new URL(site.url).origin}`);
  }
  const browser = await chromium.launch({ executablePath: chromiumPath, args, headless: true });
  return {
    browser,
    /// Opens `path` of the site (inside the host's iframe in the iframe mode) and answers the page,
    /// the frame the figure lives in, and its console errors.
    async open(path) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(String(error)));
      if (!host) {
        await page.goto(site.url + path);
        return { page, frame: page.mainFrame(), errors, close: () => context.close() };
      }
      await page.goto(`${host.url}?src=${encodeURIComponent(site.url + path)}`);
      const element = await page.waitForSelector('#figure');
      const frame = await element.contentFrame();
      await frame.waitForURL((url) => url.href.startsWith(site.url));
      await frame.waitForLoadState('load');
      return { page, frame, errors, close: () => context.close() };
    },
    async close() {
      await browser.close();
      await site.close();
      await host?.close();
      if (hostDir) rmSync(hostDir, { recursive: true, force: true });
    },
  };
}

async function measure(mode) {
  const opened = await openMode(mode);
  const rows = [];
  try {
    for (const scenario of SCENARIOS.filter((candidate) => candidate.name.includes(ONLY) && !(mode.iframe && candidate.pageOnly))) {
      const path = `${scenario.path}${scenario.path.includes('?') ? '&' : '?'}kl-timing`;
      const { page, frame, errors, close } = await opened.open(path);
      try {
        if (scenario.markFrames) await frame.evaluate(markFrames);
        if (scenario.setup) {
          await frame.waitForLoadState('load');
          await frame.evaluate(scenario.setup, scenario.setupArg);
        }
        await frame.waitForFunction(
          (selector) =>
            [...document.querySelectorAll(selector)].some((element) => element.hasAttribute('data-ready') || /\d/.test(element.textContent ?? '')),
          scenario.ready,
          { timeout: 60000 },
        );
        await page.waitForTimeout(300);
        let box = await frame.evaluate(listen, [scenario.slider, !mode.iframe]);
        if (mode.iframe) {
          // Scroll the host page so the slider sits mid-screen, then add the iframe's offset.
          await page.evaluate((y) => window.scrollTo(0, document.getElementById('figure').offsetTop + y - 450), box.y);
          await page.waitForTimeout(200);
          const offset = await page.evaluate(() => {
            const rect = document.getElementById('figure').getBoundingClientRect();
            return { x: rect.left, y: rect.top };
          });
          box = { ...box, x: box.x + offset.x, y: box.y + offset.y };
        }
        await drag(page, box, INPUTS, 1000 / 60);
        const { inputs, latencies, ready, unanswered } = await frame.evaluate(collect);
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
      } catch (error) {
        console.error(`${scenario.name}: not measured (${String(error).split('\n')[0]})`);
      } finally {
        await close();
      }
    }
  } finally {
    await opened.close();
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
  const floor = rows.find((row) => row.figure.startsWith('floor: on-page'));
  const worst = figures.length ? Math.max(...figures.map((row) => row.p95)) : Number.NaN;
  summaries.push(
    `${mode.title}: worst painted p95 ${worst.toFixed(1)} ms` +
      (floor ? ` (on-page floor p95 ${floor.p95.toFixed(1)} ms, so ${(worst - floor.p95).toFixed(1)} ms above it)` : '') +
      `; goal p95 < 16 ms ${worst < 16 ? 'met' : `not met (${figures.filter((row) => !(row.p95 < 16)).map((row) => row.figure).join(', ')})`}` +
      (busy ? ` (CPU only ${(100 * idle).toFixed(0)} % idle before measuring)` : ''),
  );
}
console.log(`\nmachine load average while measuring: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const line of summaries) console.log(line);
