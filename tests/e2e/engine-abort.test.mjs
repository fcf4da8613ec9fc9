// Cancel stops the computation: `Bridge.run(calls, signal)` (web/src/engine/bridge.ts), driven in
// Chromium through a small page that holds a bridge of its own, built from the engine's source with
// the site's Vite config. An aborted request in the worker rejects with an AbortError at once, the
// worker that was computing it is closed, a request queued behind it is still answered, and the
// next request is answered in a fraction of the time the aborted one takes when left to run.
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
/// A call cost.ts sends to the worker that takes milliseconds there.
const SHORT = [{ fn: 'attention', args: [new Array(1000).fill(0.5), new Array(1000).fill(0.25), new Array(1000).fill(1), 1, 1, 0.3], keep: ['outputs'] }];

test('an aborted worker computation stops: AbortError at once, its worker closed, the queued and the next requests answered promptly', async (t) => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  /// Per worker started, a promise of its end.
  const workers = [];
  page.on('worker', (worker) => workers.push(new Promise((closed) => worker.on('close', closed))));
  await page.goto(`${server.url}index.html`);
  await page.waitForFunction(() => globalThis.klBridge !== undefined);
  const result = await page.evaluate(
    async ({ long, short }) => {
      const bridge = globalThis.klBridge;
      const log = (globalThis.kernelLensEngineLog = []);
      const time = async (work) => {
        const start = performance.now();
        const value = await work;
        return { ms: performance.now() - start, value };
      };
      // Warm: both modules compiled and in the worker.
      await bridge.run(short);
      // The long request left to run, to know what it takes.
      const full = await time(bridge.run(long));
      // The same request again, with a short one queued behind it in the same worker; the long
      // one is aborted once both were posted to the worker.
      const post = Worker.prototype.postMessage;
      let sent;
      const posted = new Promise((done) => {
        sent = done;
      });
      Worker.prototype.postMessage = function (message, ...rest) {
        post.call(this, message, ...rest);
        if (message?.calls?.[0]?.fn === 'attention') sent();
      };
      const controller = new AbortController();
      const aborted = bridge.run(long, controller.signal).then(
        () => 'answered',
        (error) => `${error.name}: ${error.message}`,
      );
      const queued = bridge.run(short).then((results) => ({ at: performance.now(), results }));
      await posted;
      const abortedAt = performance.now();
      controller.abort();
      const outcome = await aborted;
      const rejectedMs = performance.now() - abortedAt;
      const behind = await queued;
      const next = await time(bridge.run(short));
      return {
        fullMs: full.ms,
        fullRows: full.value[0].length,
        outcome,
        rejectedMs,
        queuedAnswered: behind.results[0].outputs.length,
        queuedMs: behind.at - abortedAt,
        nextMs: next.ms,
        nextOutputs: next.value[0].outputs.length,
        places: [...new Set(log.map((entry) => `${entry.fns}: ${entry.where}`))],
      };
    },
    { long: LONG, short: SHORT },
  );
  t.diagnostic(`long ${Math.round(result.fullMs)} ms; after the abort: rejected in ${result.rejectedMs.toFixed(1)} ms, queued answered in ${Math.round(result.queuedMs)} ms, next in ${Math.round(result.nextMs)} ms`);
  assert.deepEqual(result.places, ['attention: worker', 'biasVarianceSweep: worker']);
  assert.equal(result.fullRows, 3);
  assert.ok(result.fullMs > 500, `the long request took ${result.fullMs} ms: too short to show anything`);
  assert.equal(result.outcome, 'AbortError: the computation was cancelled');
  // Rejected in the abort's own task, not when the computation would have ended.
  assert.ok(result.rejectedMs < result.fullMs / 4, JSON.stringify(result));
  // The queued request and the next one: answered by a new worker (its start and the modules'
  // instantiation take a second or so on a busy machine), not after the long computation.
  assert.equal(result.queuedAnswered, 1000);
  assert.ok(result.queuedMs < result.fullMs / 2, JSON.stringify(result));
  assert.equal(result.nextOutputs, 1000);
  assert.ok(result.nextMs < result.fullMs / 4, JSON.stringify(result));
  // Two workers: the first, closed by the abort, and its replacement.
  assert.equal(workers.length, 2);
  await workers[0];
  assert.deepEqual(errors, []);
  await page.close();
});
