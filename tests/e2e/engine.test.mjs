// The engine (web/src/engine/): where calls run, and how the page copes when loading fails.
// - cost.ts places a request on the page or in the worker, from its sizes; what is too large the
//   core refuses by its own work budget, wherever it runs.
// - A slider's small call is answered on the page within the input's own task (no worker round
//   trip, no worker at all), on a plain host without isolation headers; a heavy call goes to the
//   worker. The page's `kernelLensEngineLog` hook (bridge.ts) records each request's place.
// - A worker that stops by itself during an audit (noticed through its Web Lock), a worker script
//   that does not load, a .wasm
//   file that is missing, not wasm or cut short, a slow download, and a widget chunk that does not
//   load: each gets a message (which file, what to try) and the next input or Retry recovers.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformWithOxc } from 'vite';
import { distDir, embedPath, openSite, waitForText } from './harness.mjs';
import { loadKernelLens } from '../wasm/load.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

/// web/src/engine/cost.ts, compiled to plain JavaScript for Node.
async function loadCost() {
  const source = await readFile(fileURLToPath(new URL('../../web/src/engine/cost.ts', import.meta.url)), 'utf8');
  const { code } = await transformWithOxc(source, 'cost.ts');
  const file = join(tmpdir(), `kernel-lens-cost-${process.pid}.mjs`);
  await writeFile(file, code);
  try {
    return await import(file);
  } finally {
    await rm(file, { force: true });
  }
}

const range = (count, start, step) => Array.from({ length: count }, (_, i) => start + i * step);

test('cost.ts: slider-sized calls on the page, heavy ones in the worker, and too large ones left to the core to refuse', async () => {
  const { place: placeBy, PAGE_BUDGET_MS } = await loadCost();
  const { workOf } = await loadKernelLens();
  const place = (calls) => placeBy(calls, workOf);
  const where = (calls) => place(calls).where;
  // Figure 12.1's lookup, a 601-point smoothing curve over 60 keys, a softmax of scores.
  assert.equal(where([{ fn: 'attention', args: [[3.5], [1, 3, 5], [1.5, 2.8, 1.8], 1, 1, 0.6] }]), 'page');
  assert.equal(where([{ fn: 'attention', args: [new Float64Array(601), new Float64Array(60), new Float64Array(60), 1, 1, 0.3], keep: ['outputs'] }]), 'page');
  assert.equal(
    where([
      { fn: 'distanceScores', args: [new Float64Array(40), new Float64Array(40), 1] },
      { fn: 'rowSoftmax', args: [{ $result: 0 }, 40] },
    ]),
    'page',
  );
  assert.ok(place([{ fn: 'attention', args: [[3.5], [1, 3, 5], [1.5, 2.8, 1.8], 1, 1, 0.6] }]).ms < PAGE_BUDGET_MS / 10);
  // A large map, the audit, bandwidth selection, a large leave-one-out curve: the worker.
  assert.equal(where([{ fn: 'attention', args: [new Float64Array(1000), new Float64Array(1000), new Float64Array(1000), 1, 1, 0.3] }]), 'worker');
  assert.equal(
    where([
      { fn: 'distanceScores', args: [new Float64Array(1000), new Float64Array(1000), 1] },
      { fn: 'rowSoftmax', args: [{ $result: 0 }, 1000] },
    ]),
    'worker',
  );
  // The audit's marker (one bandwidth, the chapter's 1,000 worlds) is small; 20,000 worlds are not.
  assert.equal(where([{ fn: 'biasVarianceSweep', args: [{ bandwidths: [0.3] }] }, { fn: 'exactRisk', args: [{ bandwidths: [0.3] }] }]), 'page');
  assert.equal(where([{ fn: 'biasVarianceSweep', args: [{ bandwidths: [0.3], worlds: 20000 }] }]), 'worker');
  assert.equal(where([{ fn: 'bandwidthSelection', args: [{}] }]), 'worker');
  assert.equal(where([{ fn: 'looCurve', args: [new Float64Array(500), new Float64Array(500), 1, range(30, 0.05, 0.05)] }]), 'worker');
  assert.equal(where([{ fn: 'looCurve', args: [range(12, 0, 0.5), range(12, 0, 1), 1, [0.3, 0.6, 1]] }]), 'page');
  // 1,000 keys × 4,096 bandwidths is over the core's work budget (Limits::max_work): the core
  // refuses it before it starts (tests/cpp/test_laboratory.cpp), so the page only sends it on.
  assert.equal(where([{ fn: 'looCurve', args: [new Float64Array(1000), new Float64Array(1000), 1, new Float64Array(4096).fill(0.5)] }]), 'worker');
  assert.equal(where([{ fn: 'biasVarianceSweep', args: [{ worlds: 100000, keys: 4000, bandwidths: new Array(4096).fill(0.3) }] }]), 'worker');
  // Sizes that are no sizes (2³² and more, NaN, negative): no estimate, the core refuses them.
  assert.equal(where([{ fn: 'biasVarianceSweep', args: [{ worlds: 2 ** 32 + 1000 }] }]), 'worker');
  assert.equal(where([{ fn: 'linspace', args: [0, 1, 2 ** 32] }]), 'worker');
  assert.equal(where([{ fn: 'attention', args: [[1], [1], [1], Number.NaN, 1, 1] }]), 'worker');
});

/// A small valid call of every function of both modules (its arguments in the binding's order).
const q = [0.5, 2.5];
const k = [1, 2, 3, 4];
const v = [1.5, 2.8, 1.8, 2.2];
const SAMPLES = {
  attention: [q, k, v, 1, 1, 0.6],
  attentionMap: [q, k, v, 1, 1, 0.6, { row: 0, palette: new Uint8Array(1028) }],
  auditWorlds: [{ worlds: 20 }, 0.3, 5, 0],
  bandCoverage: [[1, 2], [1, 2], [0, 0], [1, 1], 2],
  bandwidthFromTemperature: [2],
  bandwidthSelection: [{ train: 20, validation: 10, test: 10, curvePoints: 21, bandwidths: [0.2, 0.5] }],
  biasVarianceSweep: [{ worlds: 20, bandwidths: [0.3] }],
  chapterConfig: [],
  chapterDataset: [],
  csvLimits: [],
  distanceScores: [q, k, 1],
  dotProductScores: [q, k, 1],
  exactRisk: [{ bandwidths: [0.3, 0.6] }],
  gridMinimum: [[0.1, 0.2], [2, 1]],
  heapBytes: [],
  histogram: [[1, 2, 3], 2],
  interp: [q, k, v],
  kernelNames: [],
  labMemoryUsage: [],
  limits: [],
  linspace: [0, 1, 5],
  localLinear: [q, k, v, 1, 0.6],
  logScores: [q, k, 1, 0.6],
  looCurve: [k, v, 1, [0.5, 1]],
  looDescent: [k, v, 1, 0.5, 0.1, 3],
  looFit: [k, v, 1, 0.5],
  looRiskGradient: [k, v, 1, 0.5],
  maxRowSumError: [[0.5, 0.5, 1, 0], 2],
  memoryUsage: [],
  naiveNormalize: [[0, -1, -2, 0], 2],
  nearestKeyLimit: [[2.5], k, 1],
  olsPredict: [k, v, q, 1],
  olsWeights: [k, [2.5], 1],
  parseCsv: ['x,y\n1,2\n2,3\n3,5\n'],
  rowSoftmax: [[0, -1, -2, 0], 2],
  rowSums: [[0.5, 0.5, 1, 0], 2],
  smootherAudit: [q, k, 1, v, [1, 2], 0.25, 0.6],
  softmaxWithTemperature: [[0, -1, -2, 0], 2, 0.5],
  sortedKeyPosition: [q, k],
  squaredDistances: [q, k, 1],
  standardizeExercise: [{ keys: 20, queries: 5 }],
  temperatureFromBandwidth: [0.5],
  truth: [q],
  underflowReport: [[2.5], k, 1, 0.6],
  uniformLimit: [4],
  workFormulas: [],
  workOf: ['attention', [1, 1, 1, 1]],
};

test("cost.ts reads every function's sizes as the core's work formula takes them, from the binding's arguments", async () => {
  const { place, RULE_NAMES } = await loadCost();
  const kernelLens = await loadKernelLens();
  const formulas = kernelLens.workFormulas();
  const manifest = JSON.parse(await readFile(fileURLToPath(new URL('../../build/wasm/kernel_lens_modules.json', import.meta.url)), 'utf8'));
  const exported = [...manifest.core, ...manifest.lab].sort();
  assert.deepEqual(Object.keys(formulas).sort(), exported, "the core's work formulas (left) against the modules' functions");
  assert.deepEqual([...RULE_NAMES].sort(), exported, "cost.ts's rules (left) against the modules' functions");
  assert.deepEqual(Object.keys(SAMPLES).sort(), exported, 'a sample call for every function');
  for (const fn of exported) {
    // The sample is a call the core answers (so its arguments are in the binding's order), and
    // cost.ts reads from it the sizes the core's formula takes (else no estimate: NaN).
    assert.doesNotThrow(() => kernelLens[fn](...SAMPLES[fn]), fn);
    const { ms } = place([{ fn, args: SAMPLES[fn] }], kernelLens.workOf);
    assert.ok(Number.isFinite(ms) && ms > 0, `${fn}: ${ms}`);
  }
});

test("cost.ts: the page instance's slowdown starts cold and follows the measured calls", async () => {
  const { COLD_SLOWDOWN, relaxedSlowdown, slowdownAfter } = await loadCost();
  assert.ok(COLD_SLOWDOWN > 1);
  // A warm instance on a fast machine (calls under their estimates) comes down to 1 in a few calls.
  let slowdown = COLD_SLOWDOWN;
  for (let i = 0; i < 6; i++) slowdown = slowdownAfter(slowdown, 2, 0.8);
  assert.ok(slowdown < 1.1, String(slowdown));
  // A phone four times slower settles near 4; a call 100 times its estimate counts as 16 at most.
  for (let i = 0; i < 12; i++) slowdown = slowdownAfter(slowdown, 1, 4);
  assert.ok(Math.abs(slowdown - 4) < 0.01, String(slowdown));
  assert.equal(slowdownAfter(16, 1, 100), 16);
  // Calls too small to time, and unusable timings, leave it as it is.
  assert.equal(slowdownAfter(3, 0.01, 5), 3);
  assert.equal(slowdownAfter(3, Number.NaN, 5), 3);
  assert.equal(slowdownAfter(3, 1, Number.NaN), 3);
  // Calls sent on for the slowdown alone bring it down to 1 after a few, not at once.
  let relaxed = COLD_SLOWDOWN;
  const steps = [];
  while (relaxed > 1) {
    relaxed = relaxedSlowdown(relaxed);
    steps.push(relaxed);
  }
  assert.ok(steps.length >= 4 && steps.length <= 12, String(steps));
  assert.equal(relaxedSlowdown(1), 1);
});

/// In the page: sets each bandwidth in turn on the lookup's slider, dispatches its input event and
/// lets only microtasks run (no task: no message from a worker can arrive) before reading the
/// read-out; then lets the page settle. Returns, per bandwidth, whether the read-out changed
/// within the task, and the read-out once settled.
function drive(bandwidths) {
  const slider = [...document.querySelectorAll('input[type=range]')].find((input) => /bandwidth/.test(input.getAttribute('aria-label') ?? ''));
  const readout = document.querySelector('[data-testid=prediction]').parentElement;
  return (async () => {
    const out = [];
    for (const h of bandwidths) {
      const before = readout.textContent;
      // The slider's position for h on its logarithmic scale (0.05 … 5).
      slider.value = String(Number(slider.min) + ((Number(slider.max) - Number(slider.min)) * Math.log(h / 0.05)) / Math.log(100));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      for (let i = 0; i < 100; i++) await Promise.resolve();
      const inTask = readout.textContent !== before;
      // Settled: the figure drew what this input asked for (its drawn signal, after every answer).
      const figure = readout.closest('.kl-widget');
      await new Promise((done) => figure.addEventListener('kernel-lens:drawn', () => done(), { once: true }));
      out.push({ inTask, readout: readout.textContent });
    }
    return out;
  })();
}

/// Runs in the page before its scripts: records the engine's placements, the workers started and
/// the requests posted to them.
function instrument() {
  globalThis.kernelLensEngineLog = [];
  globalThis.klWorkers = 0;
  globalThis.klPosted = [];
  const NativeWorker = globalThis.Worker;
  globalThis.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      globalThis.klWorkers++;
    }
  };
  const post = NativeWorker.prototype.postMessage;
  NativeWorker.prototype.postMessage = function (message, ...rest) {
    if (message && Array.isArray(message.calls)) globalThis.klPosted.push(message.calls.map((c) => c.fn).join(' '));
    if (message && message.module) globalThis.klPosted.push(`module ${message.part}`);
    return post.call(this, message, ...rest);
  };
}

test('a slider answer for a small call is computed on the page within the input task, with no worker, on a plain host', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'), { init: instrument });
  await waitForText(page.getByTestId('prediction'), /^2\.7412$/);
  assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), false);
  const bandwidths = [0.3, 0.8, 0.15, 2, 0.5, 1.2, 0.25, 3, 0.4, 0.9];
  const rows = await page.evaluate(drive, bandwidths);
  assert.equal(rows.filter((row) => row.inTask).length, bandwidths.length, JSON.stringify(rows));
  // h = 0.9 on the slider's steps, the chapter's points.
  assert.match(rows.at(-1).readout, /at h = 0\.(899|9\d*) = \d\.\d{4}$/);
  const { log, workers, posted } = await page.evaluate(() => ({
    log: globalThis.kernelLensEngineLog,
    workers: globalThis.klWorkers,
    posted: globalThis.klPosted,
  }));
  assert.ok(log.length >= bandwidths.length);
  // The weights, then their sum (the table's footer).
  assert.deepEqual([...new Set(log.map((entry) => `${entry.fns}: ${entry.where}`))], ['attention: page', 'rowSums: page']);
  assert.equal(workers, 0, 'the lookup started a worker');
  assert.deepEqual(posted, []);
  assert.deepEqual(errors, []);
});

test('the audit runs in the worker, which gets the compiled laboratory module from the page; each .wasm file is fetched once', async () => {
  const fetched = [];
  const { page, errors } = await site.newPage(embedPath('bias-variance', { worlds: 20000 }), {
    init: instrument,
  });
  page.on('request', (request) => {
    const name = new URL(request.url()).pathname.split('/').pop() ?? '';
    if (name.endsWith('.wasm')) fetched.push(name.replace(/-[^.]+\.wasm$/, '.wasm'));
  });
  await waitForText(page.getByTestId('grid-minimum'), /h=/, 60000);
  const { log, workers, posted } = await page.evaluate(() => ({
    log: globalThis.kernelLensEngineLog,
    workers: globalThis.klWorkers,
    posted: globalThis.klPosted,
  }));
  assert.ok(log.some((entry) => entry.fns === 'biasVarianceSweep' && entry.where === 'worker'), JSON.stringify(log));
  assert.ok(log.some((entry) => entry.fns.split(' ').every((fn) => fn === 'gridMinimum') && entry.where === 'page'), JSON.stringify(log));
  assert.equal(workers, 1);
  assert.equal(posted[0], 'module lab');
  assert.ok(posted.includes('biasVarianceSweep'));
  assert.ok(!posted.includes('gridMinimum'));
  assert.deepEqual(fetched.filter((name) => name === 'kernel_lens_lab.wasm'), ['kernel_lens_lab.wasm']);
  assert.deepEqual(errors, []);
});

test('a worker that closes itself during an audit: the page says so, re-enables Run, and the next run works', async () => {
  // Enough worlds that the audit takes a few seconds, one bandwidth at a time.
  const { page, errors } = await site.newPage(embedPath('bias-variance', { worlds: 100000 }));
  const status = page.getByTestId('audit-status');
  await waitForText(status, /^[1-9]\d* of \d+ bandwidths/, 60000);
  const [worker] = page.workers();
  assert.ok(worker, 'the audit runs in a worker');
  await worker.evaluate(() => self.close()).catch(() => undefined);
  await waitForText(status, /^stopped after \d+ of \d+ bandwidths/, 20000);
  await waitForText(page.locator('.kl-widget__error'), /the core stopped while computing this \(the core worker stopped by itself\)/);
  const run = page.getByRole('button', { name: 'Run the audit' });
  assert.equal(await run.isEnabled(), true);
  assert.equal(await page.getByRole('button', { name: 'Cancel' }).isEnabled(), false);
  // The next run starts a new worker and progresses.
  await run.click();
  await waitForText(status, /^[1-9]\d* of \d+ bandwidths/, 60000);
  await page.getByRole('button', { name: 'Cancel' }).click();
  assert.deepEqual(errors, []);
});

test('a worker script that does not load: light work runs on the page instead, heavy work is reported, and its next run tries again', async () => {
  const { page, errors } = await site.newPage('embed.html?widget=none', { init: instrument });
  let refused = 0;
  await page.context().route(/\/assets\/worker-[^/]*\.js$/, (route) => {
    refused++;
    return route.fulfill({ status: 404, body: 'not found' });
  });
  // 20,000 worlds: each bandwidth's sweep is estimated under cost.ts' NO_WORKER_BUDGET_MS.
  await page.goto(`${site.url}${embedPath('bias-variance', { worlds: 20000 })}`);
  await waitForText(page.getByTestId('grid-minimum'), /h=/, 60000);
  assert.equal((await page.locator('.kl-widget__error').allTextContents()).join('').trim(), '', 'an error beside a finished audit');
  const log = await page.evaluate(() => globalThis.kernelLensEngineLog);
  // The first sweep was sent to the worker, which did not start; it and the later ones ran on the page.
  const sweeps = log.filter((entry) => entry.fns === 'biasVarianceSweep');
  assert.equal(sweeps[0]?.where, 'worker', JSON.stringify(log));
  assert.ok(sweeps.length > 1 && sweeps.slice(1).every((entry) => entry.where === 'page'), JSON.stringify(log));
  assert.equal(refused, 1, 'one worker was tried');

  // 100,000 worlds: too heavy for the page; the reason is shown and the audit stops.
  await page.goto(`${site.url}${embedPath('bias-variance', { worlds: 100000 })}`);
  const status = page.getByTestId('audit-status');
  await waitForText(page.locator('.kl-widget__error'), /the core worker's script could not be started \(HTTP 404 for .*worker-.*\.js\); change any input to try again/, 30000);
  await waitForText(status, /^stopped after \d+ of \d+ bandwidths/);
  await page.context().unroute(/\/assets\/worker-[^/]*\.js$/);
  await page.getByRole('button', { name: 'Run the audit' }).click();
  await waitForText(status, /^[1-9]\d* of \d+ bandwidths/, 60000);
  await page.getByRole('button', { name: 'Cancel' }).click();
  assert.ok(errors.every((error) => /404|worker/i.test(error)), errors.join('\n'));
});

/// Opens the lookup with the core .wasm answered by `fulfill` (a route handler) the first time, or
/// every time with `every`.
async function lookupWithWasm(fulfill, { every = false } = {}) {
  const { page } = await site.newPage('embed.html?widget=none');
  let served = 0;
  await page.context().route(/kernel_lens_core-[^/]*\.wasm$/, async (route) => {
    served++;
    if (every || served === 1) return fulfill(route);
    return route.continue();
  });
  await page.goto(`${site.url}${embedPath('lookup')}`);
  return page;
}

/// Moves the lookup's bandwidth slider by one step (an input that asks the core again).
async function nudge(page) {
  const slider = page.getByRole('slider', { name: /bandwidth/ });
  await slider.focus();
  await slider.press('ArrowRight');
  await slider.press('ArrowLeft');
}

test('a missing .wasm file is named with its HTTP status, and the next input loads it', async () => {
  const page = await lookupWithWasm((route) => route.fulfill({ status: 404, body: 'not found' }));
  const error = page.locator('.kl-widget__error');
  await waitForText(error, /kernel_lens_core-[^ ]*\.wasm could not be loaded: the server answered HTTP 404 .*Check that the site's assets folder was published whole/);
  await nudge(page);
  await waitForText(page.getByTestId('prediction'), /^2\.74\d\d$/);
  assert.equal(await error.isHidden(), true);
});

test('a .wasm file that is a web page, or cut short, is called so', async () => {
  const html = await lookupWithWasm((route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Not here</title>' }));
  await waitForText(html.locator('.kl-widget__error'), /kernel_lens_core-[^ ]*\.wasm is not a WebAssembly file \(\d+ bytes, starting "<!doctype html><title>/);
  const truncated = await lookupWithWasm(async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    return route.fulfill({ response, body: body.subarray(0, 5000) });
  });
  await waitForText(truncated.locator('.kl-widget__error'), /kernel_lens_core-[^ ]*\.wasm is truncated or corrupt \(5,000 bytes; .*\)\. Reload the page/);
  await nudge(truncated);
  await waitForText(truncated.getByTestId('prediction'), /^2\.74\d\d$/);
});

test('a slow download shows a loading note, which goes once the figure has its numbers', async () => {
  // Every request for the core's module is held until the note has been seen: the download is as
  // slow as the test needs, whatever the machine's speed (a fixed delay raced the note's polling).
  let release;
  const released = new Promise((resolve) => (release = resolve));
  let held = 0;
  const page = await lookupWithWasm(async (route) => {
    held++;
    await released;
    return route.continue();
  }, { every: true });
  const note = page.locator('.kl-widget__note', { hasText: 'Loading' });
  await waitForText(note, /^Loading the core \(kernel_lens_core-[^ ]*\.wasm\)…$/);
  assert.ok(held > 0, 'the note came before the module was asked for');
  // No number yet: the read-out holds a blank the width of one (so its arrival shifts nothing).
  assert.match(await page.getByTestId('prediction').textContent(), /^[\u2007\u2008]+$/);
  // The note lies over the figure: the figure does not move when it comes or goes.
  const bodyTop = () => page.locator('.kl-widget__body').evaluate((body) => body.getBoundingClientRect().top);
  const topWithNote = await bodyTop();
  release();
  await waitForText(page.getByTestId('prediction'), /^2\.7412$/);
  await note.waitFor({ state: 'detached', timeout: 5000 });
  assert.equal(await bodyTop(), topWithNote, 'the figure moved when the loading note went');
});

test('a widget chunk that does not load shows an error with Retry, and Retry shows the figure', async () => {
  const { page } = await site.newPage('embed.html?widget=none');
  const chunk = /\/assets\/lookup-[^/]*\.js$/;
  await page.context().route(chunk, (route) => route.abort('internetdisconnected'));
  await page.goto(`${site.url}${embedPath('lookup')}`);
  const alert = page.locator('.kl-load-error');
  await waitForText(alert, /The figure "lookup" could not be loaded \(.*lookup-.*\.js.*\)\. Check the connection, then retry\./);
  await page.context().unroute(chunk);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await waitForText(page.getByTestId('prediction'), /^2\.7412$/, 30000);
  assert.equal(await alert.count(), 0);
});

test('the standalone file from disk runs small calls on the page and the audit in its worker, from the inlined module', async () => {
  const file = pathToFileURL(join(distDir, 'kernel-lens-standalone.html')).href;
  const { page, errors } = await site.newPage('embed.html?widget=none');
  await page.addInitScript(instrument);
  await page.goto(`${file}?widget=bias-variance&worlds=5000`);
  await waitForText(page.getByTestId('grid-minimum'), /h=0\.\d+, MSE=0\.0\d{3}/, 90000);
  const log = await page.evaluate(() => globalThis.kernelLensEngineLog);
  assert.ok(log.some((entry) => entry.fns === 'biasVarianceSweep' && entry.where === 'worker'));
  assert.ok(log.some((entry) => entry.fns.split(' ').every((fn) => fn === 'gridMinimum') && entry.where === 'page'));
  assert.deepEqual(errors, []);
});
