// The learn-bandwidth figure (beyond the chapter) in the browser: every h, risk and gradient it
// prints is the core's looDescent run on the chapter sample (the same calls made in Node), Step
// answers the keyboard, Play walks downhill and pauses, the address restores a run, and a bad
// URL value falls back with a note.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadKernelLens } from '../wasm/load.mjs';
import { afterDrawn, embedPath, openSite, screenshot, waitForText } from './harness.mjs';

let site;
let kl;
let data;
before(async () => {
  site = await openSite({ shareContexts: true });
  kl = await loadKernelLens();
  data = kl.chapterDataset();
});
after(async () => {
  await site?.close();
});

/// The figure's read-outs at step t of the run from `start` at `rate` (its number formats).
function expected(start, rate, t) {
  const run = kl.looDescent(data.keys, data.observedValues, 1, start, rate, t);
  const four = (x) => x.toFixed(4).replace('-', '−');
  return {
    step: String(t),
    h: String(Number(run.bandwidths[t].toPrecision(4))),
    risk: four(run.risks[t]),
    gradient: four(run.gradients[t]),
  };
}

const figure = (page) => page.locator('.kl-widget[data-widget="learn-bandwidth"]');

/// Runs in the page before its scripts: keeps the set of intervals set and not yet cleared.
function countIntervals() {
  const live = new Set();
  const set = globalThis.setInterval;
  const clear = globalThis.clearInterval;
  globalThis.setInterval = (...args) => {
    const id = set(...args);
    live.add(id);
    return id;
  };
  globalThis.clearInterval = (id) => {
    live.delete(id);
    clear(id);
  };
  globalThis.klLiveIntervals = live;
}

async function readouts(page) {
  return {
    step: await page.getByTestId('learn-step').textContent(),
    h: await page.getByTestId('learn-bandwidth').textContent(),
    risk: await page.getByTestId('learn-risk').textContent(),
    gradient: await page.getByTestId('learn-gradient').textContent(),
  };
}

test('step 0 and three steps from the keyboard are the core\'s descent; the risk falls; the address keeps the run', async () => {
  const { page, errors } = await site.newPage(embedPath('learn-bandwidth'));
  await waitForText(page.getByTestId('learn-risk'), /\d/, 30000);
  assert.deepEqual(await readouts(page), expected(1.5, 3, 0));
  const step = page.getByRole('button', { name: 'Step' });
  await step.focus();
  for (let t = 1; t <= 3; t += 1) {
    await afterDrawn(figure(page), () => page.keyboard.press('Enter'));
    assert.deepEqual(await readouts(page), expected(1.5, 3, t));
  }
  assert.ok(Number(expected(1.5, 3, 3).risk) < Number(expected(1.5, 3, 0).risk));
  await page.waitForFunction(() => /steps=3/.test(location.search), null, { timeout: 5000 });
  await screenshot(page, 'learn-bandwidth');
  assert.deepEqual(errors, []);
});

test('a link restores the run; Play walks on and Pause stops it', async () => {
  const { page, errors } = await site.newPage(embedPath('learn-bandwidth', { start: '0.05', rate: '2', steps: '4' }), { init: countIntervals });
  await waitForText(page.getByTestId('learn-step'), /^4$/, 30000);
  await waitForText(page.getByTestId('learn-risk'), new RegExp(`^${expected(0.05, 2, 4).risk}$`));
  assert.deepEqual(await readouts(page), expected(0.05, 2, 4));
  const intervals = () => page.evaluate(() => globalThis.klLiveIntervals.size);
  const idle = await intervals();
  const play = page.getByRole('button', { name: 'Play' });
  await play.click();
  const pause = page.getByRole('button', { name: 'Pause' });
  assert.equal(await pause.getAttribute('aria-pressed'), 'true');
  assert.equal(await intervals(), idle + 1, 'Play sets its timer');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="learn-step"]')?.textContent) >= 7, null, { timeout: 20000 });
  await pause.click();
  // Nothing moves after Pause: its timer is gone, and once a step still under way is drawn the
  // figure has no work left.
  assert.equal(await intervals(), idle, 'Pause clears the timer');
  await page.waitForFunction((element) => !element.hasAttribute('data-kl-busy'), await figure(page).elementHandle());
  const paused = await readouts(page);
  assert.ok(Number(paused.step) >= 7);
  assert.deepEqual(paused, expected(0.05, 2, Number(paused.step)));
  assert.equal(await page.getByRole('button', { name: 'Play' }).getAttribute('aria-pressed'), 'false');
  assert.deepEqual(errors, []);
});

test('the start and rate sliders answer the keyboard and begin a new run', async () => {
  const { page, errors } = await site.newPage(embedPath('learn-bandwidth', { steps: '3' }));
  await waitForText(page.getByTestId('learn-step'), /^3$/, 30000);
  await page.getByRole('slider', { name: 'starting bandwidth h0' }).focus();
  await page.keyboard.press('Home');
  await waitForText(page.getByTestId('learn-step'), /^0$/);
  await waitForText(page.getByTestId('learn-risk'), new RegExp(`^${expected(0.02, 3, 0).risk}$`));
  assert.deepEqual(await readouts(page), expected(0.02, 3, 0));
  await page.getByRole('slider', { name: 'bandwidth learning rate η' }).focus();
  await page.keyboard.press('End');
  await page.getByRole('button', { name: 'Step' }).click();
  await waitForText(page.getByTestId('learn-step'), /^1$/);
  await waitForText(page.getByTestId('learn-risk'), new RegExp(`^${expected(0.02, 30, 1).risk}$`));
  assert.deepEqual(await readouts(page), expected(0.02, 30, 1));
  await page.waitForFunction(() => /start=0\.02/.test(location.search) && /rate=30/.test(location.search), null, { timeout: 5000 });
  assert.deepEqual(errors, []);
});

test('a bad URL rate falls back to the default with a note', async () => {
  const { page, errors } = await site.newPage(embedPath('learn-bandwidth', { rate: '0' }));
  await waitForText(page.locator('.kl-widget__note', { hasText: 'Invalid parameters' }), /rate=0/);
  await waitForText(page.getByTestId('learn-risk'), /\d/, 30000);
  assert.deepEqual(await readouts(page), expected(1.5, 3, 0));
  assert.deepEqual(errors, []);
});

test('the leave-one-out risk beside the audit: σ², the audit\'s grid minimum and the exact one, from the core', async () => {
  const kl = await loadKernelLens();
  const data = kl.chapterDataset();
  // The curve's grid: 121 bandwidths evenly spaced in log h over the sliders' range.
  const grid = Float64Array.from({ length: 121 }, (_, i) => 0.02 * Math.exp((Math.log(3 / 0.02) * i) / 120));
  const loo = kl.gridMinimum(grid, kl.looCurve(data.keys, data.observedValues, 1, grid));
  const audit = kl.biasVarianceSweep();
  const auditBest = kl.gridMinimum(audit.map((row) => row.bandwidth), audit.map((row) => row.mse));
  const exactBest = kl.gridMinimum(grid, kl.exactRisk({ bandwidths: Array.from(grid) }).map((row) => row.mse));
  const h = (x) => String(Number(x.toPrecision(3)));
  const expected =
    `Beside the audit: this curve is lowest at h = ${h(loo.bandwidth)}, R = ${loo.risk.toFixed(4)}. ` +
    `Each held-out observation carries the noise, σ² = ${(kl.chapterConfig().noise ** 2).toFixed(4)}, which the audit's error against the truth does not; ` +
    `the audit's grid is lowest at h = ${h(auditBest.bandwidth)} (MSE ${auditBest.risk.toFixed(4)}), ` +
    `and the exact risk on this curve's grid at h = ${h(exactBest.bandwidth)} (MSE ${exactBest.risk.toFixed(4)}).`;
  const { page, errors } = await site.newPage(embedPath('learn-bandwidth'));
  assert.equal(await waitForText(page.getByTestId('audit-comparison'), /exact risk/, 60000), expected);
  assert.deepEqual(errors, []);
});
