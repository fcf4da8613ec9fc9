// Cancel stops the computation: `Bridge.run(calls, signal)` (web/src/engine/bridge.ts), driven in
// Chromium through a small page that holds a bridge of its own, built from the engine's source with
// the site's Vite config. An aborted request in the worker rejects with an AbortError at once, the
// worker that was computing it is closed, a request queued behind it is still answered, and the
// next request is answered by the worker that replaced it, not after the long computation.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build, loadConfigFromFile } from 'vite';
import { startServer } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS, chromiumPath } from './harness.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let dir;
let server;
let browser;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kernel-lens-abort-'));
  const entry = join(dir, 'probe.ts');
  await writeFile(entry, `import { Bridge } from ${JSON.stringify(join(repo, 'web/src/engine/index.ts'))};\nglobalThis.klBridge = new Bridge();\n`);
  // The site's own config (the worker chunk, the wasm alias), with this page as its one input.
  const { config } = await loadConfigFromFile({ command: 'build', mode: 'production' }, join(repo, 'web/vite.config.ts'));
  config.build.rollupOptions.input = { probe: entry };
  config.build.rollupOptions.output.entryFileNames = 'probe.js';
  Object.assign(config.build, { outDir: join(dir, 'out'), emptyOutDir: true, minify: false, manifest: false });
  await build({ ...config, configFile: false, logLevel: 'error' });
  await writeFile(join(dir, 'out', 'index.html'), '<!doctype html><title>engine</title><script type="module" src="probe.js"></script>');
  server = await startServer({ root: join(dir, 'out') });
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/// The chapter's audit at about the core's work budget: seconds of work in the worker.
const LONG = [{ fn: 'biasVarianceSweep', args: [{ worlds: 100000, keys: 140, bandwidths: [0.2, 0.4, 0.8] }] }];
/// A small sweep, sent to the worker, that compiles the laboratory there.
const WARM = [{ fn: 'biasVarianceSweep', args: [{ worlds: 2000, keys: 40, bandwidths: [0.3] }] }];
/// A call cost.ts sends to the worker that takes milliseconds there.
const SHORT = [{ fn: 'attention', args: [new Array(1000).fill(0.5), new Array(1000).fill(0.25), new Array(1000).fill(1), 1, 1, 0.3], keep: ['outputs'] }];

// What is checked is the order of events, never a ratio of times (a busy machine stretches
// those): the abort closes the worker inside its own dispatch, the request is rejected right after,
// and the queued and the next requests are answered after that worker is gone, so by its
// replacement and not by a worker that finished the long computation first.
test('an aborted worker computation stops: AbortError at once, its worker closed, the queued and the next requests answered by a new worker', async (t) => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  /// Per worker started, a promise of its end.
  const workers = [];
  page.on('worker', (worker) => workers.push(new Promise((closed) => worker.on('close', closed))));
  await page.goto(`${server.url}index.html`);
  await page.waitForFunction(() => globalThis.klBridge !== undefined);
  const result = await page.evaluate(
    async ({ long, short, warm }) => {
      const bridge = globalThis.klBridge;
      const log = (globalThis.kernelLensEngineLog = []);
      const events = [];
      // Warm: the worker started with both modules, so the long request is posted at once and
      // the short one after it.
      await bridge.run(short);
      await bridge.run(warm);
      log.length = 0;
      const post = Worker.prototype.postMessage;
      const terminate = Worker.prototype.terminate;
      let sent;
      const posted = new Promise((done) => {
        sent = done;
      });
      // Posted to the worker: the long request and the short one.
      const inWorker = new Set();
      Worker.prototype.postMessage = function (message, ...rest) {
        post.call(this, message, ...rest);
        const fn = message?.calls?.[0]?.fn;
        if (fn) inWorker.add(fn);
        if (inWorker.has('attention') && inWorker.has('biasVarianceSweep')) sent();
      };
      Worker.prototype.terminate = function () {
        events.push('worker closed');
        terminate.call(this);
      };
      // The long request, with a short one queued behind it in the same worker; the long one is
      // aborted once both were posted to the worker (in either order).
      const controller = new AbortController();
      const aborted = bridge.run(long, controller.signal).then(
        () => {
          events.push('long answered');
          return 'answered';
        },
        (error) => {
          events.push('long rejected');
          return `${error.name}: ${error.message}`;
        },
      );
      const queued = bridge.run(short).then((results) => {
        events.push('queued answered');
        return results;
      });
      await posted;
      const abortedAt = performance.now();
      controller.abort();
      events.push('abort returned');
      const outcome = await aborted;
      const rejectedMs = performance.now() - abortedAt;
      const behind = await queued;
      const queuedMs = performance.now() - abortedAt;
      const next = await bridge.run(short);
      events.push('next answered');
      return {
        events,
        outcome,
        rejectedMs,
        queuedMs,
        queuedAnswered: behind[0].outputs.length,
        nextOutputs: next[0].outputs.length,
        places: [...new Set(log.map((entry) => `${entry.fns}: ${entry.where}`))].sort(),
      };
    },
    { long: LONG, short: SHORT, warm: WARM },
  );
  t.diagnostic(`after the abort: rejected in ${result.rejectedMs.toFixed(1)} ms, queued answered in ${Math.round(result.queuedMs)} ms`);
  assert.deepEqual(result.places, ['attention: worker', 'biasVarianceSweep: worker']);
  assert.equal(result.outcome, 'AbortError: the computation was cancelled');
  assert.deepEqual(result.events, ['worker closed', 'abort returned', 'long rejected', 'queued answered', 'next answered']);
  assert.equal(result.queuedAnswered, 1000);
  assert.equal(result.nextOutputs, 1000);
  // Two workers: the first, closed by the abort, and its replacement.
  assert.equal(workers.length, 2);
  await workers[0];
  assert.deepEqual(errors, []);
  await page.close();
});
