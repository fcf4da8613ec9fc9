// Leaks: 10,000 core calls through the site's worker (the calls the widgets make, good and bad)
// and 10,000 widget updates; the wasm stack pointer, the wasm heap, the malloc'd bytes, embind's
// live handles and the JS heap must stay flat after warm-up. (tests/wasm/leak.test.mjs makes
// 100,000 failing calls of every export in Node.)
//
// What is measured: `memoryUsage()` of the core module and `labMemoryUsage()` of the laboratory
// module (wasm memory size, bytes malloc'd and not freed, `count_emval_handles()`, the wasm stack
// pointer), asked through the same worker protocol the bridge speaks; the page's
// JS heap through CDP `Runtime.getHeapUsage` after a forced garbage collection.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { distDir, embedPath, openSite, waitForText } from './harness.mjs';

const UPDATES = 10_000;

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

async function jsHeap(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

test('10,000 core calls through the worker leave wasm memory, allocations and handles flat', async () => {
  const assets = readdirSync(`${distDir}assets`);
  const worker = assets.find((file) => /^worker-.*\.js$/.test(file));
  const wasm = ['core', 'lab'].map((part) => assets.find((file) => new RegExp(`^kernel_lens_${part}-.*\\.wasm$`).test(file)));
  assert.ok(worker && wasm.every(Boolean), 'the built site has a worker script and both .wasm files');
  const { page, errors } = await site.newPage('embed.html?widget=none');
  const result = await page.evaluate(
    async ({ url, wasmUrls, updates }) => {
      const core = new Worker(url, { type: 'module' });
      // As the engine does: the page compiles both parts and hands them to the worker.
      for (const [i, part] of ['core', 'lab'].entries()) {
        core.postMessage({ id: -1, part, module: await WebAssembly.compileStreaming(fetch(wasmUrls[i])) });
      }
      let nextId = 1;
      const waiting = new Map();
      core.addEventListener('message', ({ data }) => {
        const settle = waiting.get(data.id);
        if (!settle) return;
        waiting.delete(data.id);
        settle(data);
      });
      const run = (calls) =>
        new Promise((resolve) => {
          const id = nextId++;
          waiting.set(id, resolve);
          core.postMessage({ id, calls });
        });
      const keys = Array.from({ length: 120 }, (_, i) => (i * 6) / 119 - 3);
      const values = keys.map((x) => Math.sin(1.5 * x));
      const grid = Array.from({ length: 241 }, (_, i) => -3 + (6 * i) / 240);
      const csv = 'x,y\n' + keys.map((x, i) => `${x},${values[i]}`).join('\n');
      const step = (i) => {
        const h = 0.05 + (i % 97) / 50;
        switch (i % 7) {
          case 0:
            return [{ fn: 'attention', args: [grid, keys, values, 1, 1, h, 'gaussian', 'nearest'] }];
          case 1:
            return [{ fn: 'looCurve', args: [keys, values, 1, [h, 2 * h, 3 * h], 'tricube'] }];
          case 2:
            return [{ fn: 'parseCsv', args: [csv] }];
          case 3:
            return [{ fn: 'parseCsv', args: [`x,y\n1,2\n${i},abc\n`] }];
          case 4:
            return [{ fn: 'attention', args: [[i], keys, values, 1, 1, 1e-9, 'epanechnikov'] }];
          case 5:
            return [{ fn: 'attention', args: [grid, keys, values, 1, 1, -h] }, { fn: 'olsWeights', args: [keys, [h], 1] }];
          default:
            return [{ fn: 'looCurve', args: [keys, values, 2 ** 32, [h]] }];
        }
      };
      /// Both modules' usage: the core's and the laboratory's (looCurve lives there).
      const usage = async () => {
        const { results } = await run([
          { fn: 'memoryUsage', args: [] },
          { fn: 'labMemoryUsage', args: [] },
        ]);
        return { core: results[0], lab: results[1] };
      };
      let failures = 0;
      for (let i = 0; i < 600; i++) await run(step(i));
      const start = await usage();
      for (let i = 0; i < updates; i++) {
        const reply = await run(step(i));
        if (reply.error && i % 7 < 3) failures++;
      }
      const end = await usage();
      core.terminate();
      return { start, end, failures };
    },
    { url: new URL(`assets/${worker}`, site.url).href, wasmUrls: wasm.map((file) => new URL(`assets/${file}`, site.url).href), updates: UPDATES },
  );
  assert.equal(result.failures, 0, 'the valid calls all succeeded');
  for (const part of ['core', 'lab']) {
    const start = result.start[part];
    const end = result.end[part];
    assert.equal(end.heapBytes, start.heapBytes, `${part}: wasm memory did not grow`);
    assert.ok(Math.abs(end.allocatedBytes - start.allocatedBytes) <= 4096, `${part}: malloc'd bytes ${JSON.stringify(result)}`);
    assert.equal(end.liveHandles, start.liveHandles, `${part}: embind handles`);
    assert.equal(typeof start.stackPointer, 'number', `${part}: the stack pointer is reported`);
    assert.equal(end.stackPointer, start.stackPointer, `${part}: wasm stack pointer`);
  }
  assert.deepEqual(errors, []);
});

test('10,000 widget updates keep the page JS heap flat', async () => {
  const { page, errors } = await site.newPage(embedPath('your-data'));
  const prediction = page.getByTestId('prediction');
  await waitForText(prediction, /\d/);
  const drive = (count) =>
    page.evaluate(async (count) => {
      const sliders = [...document.querySelectorAll('input[type=range]')];
      for (let i = 0; i < count; i++) {
        const slider = sliders[i % sliders.length];
        slider.value = String((i * 37) % Number(slider.max || 100));
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        if (i % 50 === 49) await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      }
      // Until the figure has answered the last input (no work under way) and drawn it.
      const figure = document.querySelector('.kl-widget');
      await new Promise((done) => {
        const idle = () => !figure.hasAttribute('data-kl-busy');
        const observer = new MutationObserver(() => {
          if (!idle()) return;
          observer.disconnect();
          done();
        });
        observer.observe(figure, { attributes: true, attributeFilter: ['data-kl-busy'] });
        if (idle()) {
          observer.disconnect();
          done();
        }
      });
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    }, count);
  await drive(1000);
  const start = await jsHeap(page);
  await drive(UPDATES);
  const end = await jsHeap(page);
  assert.ok(end - start < 2 * 1024 * 1024, `JS heap grew from ${start} to ${end} bytes`);
  await waitForText(prediction, /\d/);
  assert.deepEqual(errors, []);
});

test('a dead worker is replaced: the page says so, the widget keeps its state and computes again', async () => {
  // The audit runs in the worker (small calls run on the page and start none); 100,000 worlds so
  // that it is still running when the worker dies (with fewer, an idle machine can finish it first).
  const { page } = await site.newPage(embedPath('bias-variance', { worlds: '100000' }));
  const status = page.getByTestId('audit-status');
  await waitForText(status, /^[1-9]\d* of \d+ bandwidths, 100,000 worlds/, 60000);
  const [worker] = page.workers();
  assert.ok(worker, 'the core worker is running');
  await worker.evaluate(() => setTimeout(() => {
    throw new Error('simulated crash');
  }));
  const note = await waitForText(page.locator('.kl-widget__note').last(), /restarted/, 30000);
  assert.match(note, /The core stopped \(.*simulated crash\) and was restarted/);
  await waitForText(status, /^stopped after \d+ of \d+ bandwidths/);
  await page.getByRole('button', { name: 'Run the audit' }).click();
  // The new worker runs the whole audit (a Cancel click here would race its end on a fast machine).
  await waitForText(status, /^done: \d+ bandwidths × 100,000 worlds/, 120000);
});
