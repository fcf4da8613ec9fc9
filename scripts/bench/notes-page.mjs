#!/usr/bin/env node
// Course notes on a plain host: a page on one origin with five <kernel-lens-figure>s, Kernel Lens
// (dist/) on another origin that sends only `Access-Control-Allow-Origin: *` (no isolation
// headers, as GitHub Pages). Prints, per run and as the median: the bytes the page fetched from
// Kernel Lens (as served, and gzip-compressed as a host with compression would send them), the
// time from navigation until every figure shows its numbers, and the main-thread tasks over 50 ms
// from navigation until a second after that (PerformanceObserver 'longtask'; goal: none). Then
// the bytes a page with the script and no figure fetches (goal of the loader: at most 20 kB gzip).
// The window is 1280 × 4800 so that all five figures are in view at once: the worst case for a
// page's load, since a figure mounts when it nears the viewport.
// The same tasks are also read from a Chromium trace ('toplevel' events only) by the main
// thread's CPU time: on a machine busy with other work a task waits for a core and its wall time
// (what the long-task observer reports) grows; its CPU time is what the page itself asked for.
// On Linux it also reads, from /proc/<pid>/schedstat, how long the page's renderer main thread
// ran and how long it stood runnable in the run queue, waiting for a core, over the same time:
// the part of a task's wall time that is the machine's and not the page's.
// KERNEL_LENS_BENCH_RUNS sets the runs (3). Builds the site first unless KERNEL_LENS_BENCH_NO_BUILD
// or KERNEL_LENS_DIST is set.
import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { BROWSER_ARGS, chromiumPath, distDir } from '../../tests/e2e/harness.mjs';
import { TYPES } from '../serve.mjs';
import { buildSite } from './build-site.mjs';

const RUNS = Number(process.env.KERNEL_LENS_BENCH_RUNS ?? 3);

/// The five figures of the notes page and, for each, where its numbers show (in its shadow root).
const FIGURES = [
  { widget: 'lookup', attributes: 'h="0.6" q="3.5"', ready: '[data-testid=prediction]', pattern: '^2\\.7412$' },
  { widget: 'ols-vs-nw', attributes: '', ready: '[data-testid=ols-prediction]', pattern: '\\d' },
  { widget: 'temperature', attributes: '', ready: '.kl-table tbody td:nth-child(2)', pattern: '\\d' },
  { widget: 'smoothing', attributes: '', ready: '.kl-table tbody td', pattern: '\\d' },
  { widget: 'attention-map', attributes: '', ready: '[data-testid=shapes]', pattern: '\\d' },
];

if (!process.env.KERNEL_LENS_BENCH_NO_BUILD && !process.env.KERNEL_LENS_DIST) buildSite();


/// A plain static server for dist/ that sends `Access-Control-Allow-Origin: *` and logs every
/// response: { path, bytes, gzipBytes }. `log` is reset by the caller between pages.
async function startKernelLensHost() {
  const base = resolve(distDir);
  const gzipCache = new Map();
  const log = [];
  const server = createServer(async (request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    const file = normalize(join(base, decodeURIComponent(pathname)));
    const info = file.startsWith(base + sep) ? await stat(file).catch(() => null) : null;
    if (!info?.isFile()) {
      response.writeHead(404, { 'access-control-allow-origin': '*' }).end();
      log.push({ path: pathname, bytes: 0, gzipBytes: 0, status: 404 });
      return;
    }
    if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(await readFile(file), { level: 6 }).length);
    log.push({ path: pathname, bytes: info.size, gzipBytes: gzipCache.get(file), status: 200 });
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': info.size,
      'cache-control': 'no-cache',
      'access-control-allow-origin': '*',
    });
    createReadStream(file).pipe(response);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}/`, log, close: () => new Promise((done) => server.close(done)) };
}

function notesPage(kernelLens, figures) {
  const paragraph =
    '<p>Kernel regression predicts a value at a query by averaging the values at nearby keys, ' +
    'weighted by a kernel of the distance. The bandwidth sets what counts as nearby.</p>';
  const body = figures
    .map((figure, index) => `<h2>Part ${index + 1}</h2>${paragraph}\n<kernel-lens-figure widget="${figure.widget}" ${figure.attributes}></kernel-lens-figure>${paragraph}`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Week 3 notes</title>
<script type="module" src="${kernelLens}kernel-lens.js"></script>
<style>body { font: 18px/1.6 Georgia, serif; max-width: 46rem; margin: 2rem auto; }</style></head>
<body><h1>Week 3: kernel regression</h1>
${body || '<p>This page has no figure; the site includes the script on every page.</p>'}
</body></html>`;
}

/// The notes site: `/notes.html` (five figures) and `/plain.html` (the script, no figure).
async function startNotesHost(kernelLens) {
  const pages = { '/notes.html': notesPage(kernelLens, FIGURES), '/plain.html': notesPage(kernelLens, []) };
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (!(pathname in pages)) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }).end(pages[pathname]);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((done) => server.close(done)) };
}

/// Installed before the page's scripts: long tasks, and the time every figure first shows its numbers.
function observe(figures) {
  const record = { tasks: [], ready: null, perFigure: {} };
  window.__notesBench = record;
  // Names the page's main thread in the trace (see traceTasks).
  performance.mark('kernel-lens-notes-page');
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    const elements = [...document.querySelectorAll('kernel-lens-figure')];
    let all = elements.length === figures.length;
    figures.forEach((figure, index) => {
      if (record.perFigure[figure.widget] !== undefined) return;
      const target = elements[index]?.shadowRoot?.querySelector(figure.ready);
      if (target && new RegExp(figure.pattern).test(target.textContent.trim())) record.perFigure[figure.widget] = performance.now();
      else all = false;
    });
    if (all && figures.every((figure) => record.perFigure[figure.widget] !== undefined)) {
      record.ready = Math.max(...Object.values(record.perFigure));
    } else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/// Starts a trace of the page's tasks ('toplevel': each task with its thread's CPU time; the
/// page's main thread is the one that marks 'kernel-lens-notes-page', see `observe`).
async function traceTasks(context, page) {
  const session = await context.newCDPSession(page);
  const events = [];
  session.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await session.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', 'blink.user_timing'] }, transferMode: 'ReportEvents' });
  /// Stops it; the main thread's tasks as { cpu, wall } in ms.
  return async () => {
    const complete = new Promise((done) => session.once('Tracing.tracingComplete', done));
    await session.send('Tracing.end');
    await complete;
    const mark = events.find((e) => e.name === 'kernel-lens-notes-page');
    return events
      .filter((e) => mark && e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask')
      .map((e) => ({ cpu: (e.tdur ?? 0) / 1000, wall: e.dur / 1000 }));
  };
}

/// Each Chromium renderer's main thread (its thread id is the process id): { ran, waited } in ms
/// so far, from the kernel's scheduler statistics; an empty map where /proc has none.
function rendererMainThreads() {
  const threads = new Map();
  if (!existsSync('/proc/self/schedstat')) return threads;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const [ran, waited] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
      threads.set(pid, { ran: ran / 1e6, waited: waited / 1e6 });
    } catch {
      // The process ended while being read.
    }
  }
  return threads;
}

/// The page's renderer main thread between two readings: the one that ran the most in between.
function mainThreadBetween(before, after) {
  let best = null;
  for (const [pid, now] of after) {
    const then = before.get(pid) ?? { ran: 0, waited: 0 };
    const delta = { ran: now.ran - then.ran, waited: now.waited - then.waited };
    if (!best || delta.ran > best.ran) best = delta;
  }
  return best;
}

const sum = (items, key) => items.reduce((total, item) => total + item[key], 0);
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const kernelLens = await startKernelLensHost();
const notes = await startNotesHost(kernelLens.url);
const browser = await chromium.launch({ executablePath: chromiumPath, args: BROWSER_ARGS, headless: true });
const runs = [];
let plain = null;
let errorCount = 0;
try {
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 4800 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => {
      errorCount += 1;
      console.error(`notes page: ${error}`);
    });
    await page.addInitScript(observe, FIGURES);
    kernelLens.log.length = 0;
    const stopTrace = await traceTasks(context, page);
    const threadsBefore = rendererMainThreads();
    await page.goto(`${notes.url}notes.html`);
    await page.waitForFunction(() => window.__notesBench.ready !== null, null, { timeout: 120000 });
    await page.waitForTimeout(1000);
    const record = await page.evaluate(() => window.__notesBench);
    const mainThread = mainThreadBetween(threadsBefore, rendererMainThreads());
    const traced = await stopTrace();
    const during = record.tasks.filter((task) => task.start < record.ready + 1000);
    runs.push({
      ready: record.ready,
      perFigure: record.perFigure,
      bytes: sum(kernelLens.log, 'bytes'),
      gzipBytes: sum(kernelLens.log, 'gzipBytes'),
      files: kernelLens.log.length,
      tasks: during.length,
      longest: Math.max(0, ...during.map((task) => task.duration)),
      cpuTasks: traced.filter((task) => task.cpu > 50).length,
      longestCpu: Math.max(0, ...traced.map((task) => task.cpu)),
      longestWall: Math.max(0, ...traced.map((task) => task.wall)),
      mainThread,
    });
    await context.close();
  }

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  kernelLens.log.length = 0;
  await page.goto(`${notes.url}plain.html`, { waitUntil: 'load' });
  await page.waitForTimeout(1500);
  plain = { bytes: sum(kernelLens.log, 'bytes'), gzipBytes: sum(kernelLens.log, 'gzipBytes'), files: kernelLens.log.map((entry) => entry.path) };
  await context.close();
} finally {
  await browser.close();
  await notes.close();
  await kernelLens.close();
}

console.log('A notes page with five <kernel-lens-figure>s on a plain host, Kernel Lens on another origin (no isolation headers)');
console.log(`figures: ${FIGURES.map((figure) => figure.widget).join(', ')}; window 1280 × 4800 (all in view); Chromium headless`);
console.log('run  files  served      gzip-6    every figure shows its numbers  tasks >50 ms  longest task  tasks >50 ms CPU  longest task CPU  longest wall (trace)  main thread ran / waited for a core');
runs.forEach((run, index) => {
  console.log(
    `${String(index + 1).padStart(3)}${String(run.files).padStart(7)}${kB(run.bytes).padStart(10)}${kB(run.gzipBytes).padStart(10)}` +
      `${`${run.ready.toFixed(0)} ms`.padStart(34)}${String(run.tasks).padStart(14)}${(run.longest ? `${run.longest.toFixed(0)} ms` : '—').padStart(14)}` +
      `${String(run.cpuTasks).padStart(18)}${`${run.longestCpu.toFixed(0)} ms`.padStart(18)}${`${run.longestWall.toFixed(0)} ms`.padStart(21)}` +
      (run.mainThread ? `${`${run.mainThread.ran.toFixed(0)} / ${run.mainThread.waited.toFixed(0)} ms`.padStart(37)}` : ''),
  );
});
const last = runs.at(-1);
console.log(`per figure (last run, ms after navigation): ${Object.entries(last.perFigure).map(([widget, time]) => `${widget} ${time.toFixed(0)}`).join(', ')}`);
const medianReady = median(runs.map((run) => run.ready));
const worst = Math.max(...runs.map((run) => run.longest));
/// Every task the long-task observer reports took over 50 ms, whatever its rounded duration says.
const overLimit = runs.reduce((total, run) => total + run.tasks, 0);
console.log(`median: ${kB(median(runs.map((run) => run.bytes)))} served (${kB(median(runs.map((run) => run.gzipBytes)))} gzip), every figure's numbers after ${medianReady.toFixed(0)} ms`);
console.log(
  `longest main-thread task during load over ${runs.length} runs: ${worst ? `${worst.toFixed(0)} ms` : 'none over 50 ms'}` +
    ` (goal: none over 50 ms: ${overLimit ? `not met, ${overLimit} task${overLimit === 1 ? '' : 's'} over it` : 'met'})`,
);
const measured = runs.filter((run) => run.mainThread);
if (measured.length) {
  const ran = median(measured.map((run) => run.mainThread.ran));
  const waited = median(measured.map((run) => run.mainThread.waited));
  console.log(
    `the page's main thread, median over ${measured.length} runs from navigation to a second after every figure's numbers: ` +
      `ran ${ran.toFixed(0)} ms, stood runnable waiting for a core ${waited.toFixed(0)} ms (its tasks' wall time is about ${((ran + waited) / ran).toFixed(1)}× their CPU time)`,
  );
}
const worstCpu = Math.max(...runs.map((run) => run.longestCpu));
console.log(`longest main-thread task by CPU time over ${runs.length} runs: ${worstCpu.toFixed(0)} ms (${worstCpu > 50 ? 'over' : 'within'} 50 ms)`);
console.log(
  `a page with the script and no figure fetched ${kB(plain.bytes)} (${kB(plain.gzipBytes)} gzip) in ${plain.files.length} file${plain.files.length === 1 ? '' : 's'}: ${plain.files.join(', ')}` +
    ` (goal: at most 20 kB gzip: ${plain.gzipBytes > 20000 ? 'not met' : 'met'})`,
);
const load = loadavg();
console.log(`machine load average while measuring: ${load.map((x) => x.toFixed(1)).join(' ')}`);
if (load[0] > availableParallelism()) console.log('warning: the machine was busy with other work; times and long tasks include waiting for the CPU');
if (errorCount) console.log(`${errorCount} page errors (printed above)`);
