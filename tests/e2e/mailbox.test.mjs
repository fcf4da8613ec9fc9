// Answers within the input's frame (web/src/core/mailbox.ts): on a cross-origin isolated page a
// slider's input is answered before the browser runs any other task, so the frame that handled
// the input shows its numbers; without the isolation headers the answer comes by message. Both
// must give the same numbers. The page is told to wait for every answer however long the worker
// takes (`kernelLensMailboxTiming`), so the test checks the mailbox, not the machine's speed: with
// the default timing, a machine busy with other tests may rightly send every answer by message.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embedPath, openSite, waitForText } from './harness.mjs';

let isolated;
let plain;
before(async () => {
  isolated = await openSite();
  plain = await openSite({ isolated: false });
});
after(async () => {
  await isolated?.close();
  await plain?.close();
});

/// In the page: sets each bandwidth in turn on the lookup's slider, dispatches its input event and
/// lets only microtasks run (no task: no message from the worker can arrive) before reading the
/// figure's readout and table. Returns, per bandwidth, whether the readout changed within the
/// task, and the readout and weights once the figure has settled.
function drive(bandwidths) {
  const slider = [...document.querySelectorAll('input[type=range]')].find((input) => /bandwidth/.test(input.getAttribute('aria-label') ?? ''));
  const readout = document.querySelector('[data-testid=prediction]').parentElement;
  const weights = () => [...document.querySelectorAll('.kl-table tbody tr td:nth-child(4)')].map((cell) => cell.textContent);
  const settle = () => new Promise((done) => setTimeout(done, 150));
  return (async () => {
    const out = [];
    for (const h of bandwidths) {
      const before = readout.textContent;
      // The slider's position for h on its logarithmic scale (0.05 … 5).
      slider.value = String(Number(slider.min) + ((Number(slider.max) - Number(slider.min)) * Math.log(h / 0.05)) / Math.log(100));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      for (let i = 0; i < 100; i++) await Promise.resolve();
      const inTask = readout.textContent !== before;
      await settle();
      out.push({ inTask, readout: readout.textContent, weights: weights() });
    }
    return out;
  })();
}

const BANDWIDTHS = [0.3, 0.8, 0.15, 2, 0.5, 1.2, 0.25, 3, 0.4, 0.9];

/// Runs in the page before its scripts: wait for every answer, for up to 10 s.
function waitAlways() {
  globalThis.kernelLensMailboxTiming = { quickMs: Number.POSITIVE_INFINITY, waitMs: 10000 };
}

async function run(site, init = waitAlways) {
  const { page, errors } = await site.newPage(embedPath('lookup'), { init });
  await waitForText(page.getByTestId('prediction'), /^2\.7412$/);
  const crossOriginIsolated = await page.evaluate(() => globalThis.crossOriginIsolated);
  const rows = await page.evaluate(drive, BANDWIDTHS);
  return { crossOriginIsolated, rows, errors };
}

test('on an isolated page slider inputs are answered within their task; without isolation by message, with the same numbers', async () => {
  const fast = await run(isolated);
  const slow = await run(plain);
  assert.equal(fast.crossOriginIsolated, true);
  assert.equal(slow.crossOriginIsolated, false);
  const inTask = fast.rows.filter((row) => row.inTask).length;
  assert.equal(inTask, BANDWIDTHS.length, `only ${inTask} of ${BANDWIDTHS.length} inputs were answered within their task`);
  assert.equal(slow.rows.filter((row) => row.inTask).length, 0, 'an answer arrived without a message on a page without isolation');
  assert.deepEqual(
    fast.rows.map(({ readout, weights }) => ({ readout, weights })),
    slow.rows.map(({ readout, weights }) => ({ readout, weights })),
  );
  assert.deepEqual(fast.errors, []);
  assert.deepEqual(slow.errors, []);
});

test('a page that sets waitMs to 0 gets every answer by message, even when isolated', async () => {
  const { crossOriginIsolated, rows, errors } = await run(isolated, () => {
    globalThis.kernelLensMailboxTiming = { waitMs: 0, quickMs: Number.POSITIVE_INFINITY };
  });
  assert.equal(crossOriginIsolated, true);
  assert.equal(rows.filter((row) => row.inTask).length, 0);
  assert.deepEqual(errors, []);
});

test('waits that keep running out back off: none skipped after one miss, then 1, 2, 4 … up to the cooldown', async () => {
  // The page's requests reach the worker only after the task that posts them (a wrapped
  // postMessage forwards them from a timer), so every wait runs out; what each request says
  // (`wait`) shows whether the page waited.
  const { page, errors } = await isolated.newPage(embedPath('lookup'), {
    init: () => {
      globalThis.kernelLensMailboxTiming = { quickMs: Number.POSITIVE_INFINITY, cooldown: 4 };
      globalThis.klWaits = [];
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message, ...rest) {
        if (!message || !Array.isArray(message.calls)) return post.call(this, message, ...rest);
        globalThis.klWaits.push(message.wait === true);
        setTimeout(() => post.call(this, message, ...rest), 0);
      };
    },
  });
  await waitForText(page.getByTestId('prediction'), /^2\.7412$/);
  const rows = await page.evaluate(drive, [0.3, 0.8, 0.15, 2, 0.5, 1.2, 0.25, 3, 0.4, 0.9, 0.35, 0.7, 1.5, 0.6]);
  const pattern = (await page.evaluate(() => globalThis.klWaits)).map((waited) => (waited ? 'W' : '-')).join('');
  // Requests sent before the worker was ready are not waited for. From the first wait on: miss,
  // miss (skip 1), miss (skip 2), miss (skip 4), then skip 4 (the cooldown) after every miss.
  const fromFirst = pattern.slice(pattern.indexOf('W'));
  assert.ok(fromFirst.length >= 14, `only ${fromFirst.length} requests after the first wait: ${pattern}`);
  assert.equal(fromFirst, 'WW-W--W----W----W----W----W----'.slice(0, fromFirst.length), `requests: ${pattern}`);
  // Every answer still arrived, by message: the readout shows the last input's bandwidth (0.6 on
  // the slider's steps) and its prediction.
  assert.equal(rows.filter((row) => row.inTask).length, 0);
  assert.match(rows.at(-1).readout, /at h = 0\.601 = 2\.7407$/);
  assert.deepEqual(errors, []);
});
