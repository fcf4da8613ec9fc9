// Figure 12.3 (left) and the section 12.4 table in the browser: the chapter's audit digit for digit
// at the default settings, the grid minimum highlighted, the marker read-out moving under
// keyboard and pointer input, cancel, and a refused grid entry.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, openSite, screenshot, waitForText } from './harness.mjs';
import { CHAPTER_AUDIT_TABLE as CHAPTER_TABLE } from './chapter-numbers.mjs';
import { loadKernelLens } from '../wasm/load.mjs';

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

const CHAPTER_MINIMUM = 'grid minimum: h=0.18, MSE=0.0236';
assert.ok(CHAPTER_TABLE.length > 0, "the chapter's table has rows");

async function tableRows(page) {
  return page.locator('[data-testid=audit-table] tbody tr').evaluateAll((rows) =>
    rows.map((row) => Array.from(row.cells, (cell) => cell.textContent)),
  );
}

test("the audit reproduces the chapter's table and highlights the grid minimum", async () => {
  const { page, errors } = await site.newPage(embedPath('bias-variance'));
  await waitForText(page.getByTestId('grid-minimum'), /h=/, 30000);
  assert.equal(await page.getByTestId('grid-minimum').textContent(), CHAPTER_MINIMUM);
  assert.deepEqual(await tableRows(page), CHAPTER_TABLE);
  const best = page.locator('[data-testid=audit-table] tbody tr.kl-row--best');
  assert.equal(await best.count(), 1);
  assert.equal(await best.locator('th').textContent(), '0.18');
  assert.match(await page.getByTestId('audit-status').textContent(), /done: 8 bandwidths × 1,000 worlds/);
  // The marker starts at the grid minimum: its measured row repeats the table's 0.18 row.
  const marker = page.locator('[data-testid=marker-table] tbody tr');
  await waitForText(marker.first(), /0\.0236/);
  assert.deepEqual(await marker.first().locator('td').allTextContents(), ['0.0127', '0.0109', '0.0236']);
  assert.equal(await page.locator('canvas[role=img]').count(), 1);
  assert.ok((await page.locator('canvas[role=img]').getAttribute('aria-label')).includes('bandwidth'));
  await screenshot(page, 'bias-variance');
  assert.deepEqual(errors, []);
});

test('the marker slider and a drag on the chart move the read-out', async () => {
  const { page, errors } = await site.newPage(embedPath('bias-variance'));
  await waitForText(page.getByTestId('grid-minimum'), /h=/, 30000);
  const readout = page.getByTestId('marker-readout');
  await waitForText(readout, /h = 0\.180/);
  const slider = page.getByRole('slider', { name: /bandwidth/ });
  await slider.focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  const moved = await waitForText(readout, /h = (?!0\.180)/);
  assert.match(moved, /h = 0\.\d+/);
  const canvas = page.locator('canvas[role=img]');
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4, { steps: 4 });
  await page.mouse.up();
  const dragged = await waitForText(readout, new RegExp(`^(?!${moved.replace(/[.()²]/g, '\\$&')}$)`));
  const h = Number(/h = ([\d.]+)/.exec(dragged)[1]);
  assert.ok(h > 0.04 && h < 0.2, `dragged to h = ${h}`);
  assert.equal(await page.locator('[data-testid=marker-table] tbody tr').count(), 2);
  assert.deepEqual(errors, []);
});

test('settings from the URL recompute the table; cancel stops a long audit; a bad grid is refused', async () => {
  const { page, errors } = await site.newPage(embedPath('bias-variance', { worlds: '200', noise: '0.5', bandwidths: '0.1,0.3' }));
  await waitForText(page.getByTestId('grid-minimum'), /h=/, 30000);
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((r) => r[0]), ['0.10', '0.30']);
  assert.notDeepEqual(rows[0], CHAPTER_TABLE[0]);

  // Long enough (12 bandwidths × 100,000 worlds) that the cancel lands while it runs.
  const grid = page.getByRole('textbox', { name: 'bandwidth grid' });
  await grid.fill('0.1, 0.12, 0.14, 0.16, 0.18, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1');
  await grid.press('Enter');
  const worlds = page.getByRole('textbox', { name: 'noisy worlds' });
  await worlds.fill('100000');
  await worlds.press('Enter');
  await waitForText(page.getByTestId('audit-status'), /of 12 bandwidths, 100,000 worlds/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await waitForText(page.getByTestId('audit-status'), /cancelled/);
  assert.match(await page.getByTestId('grid-minimum').textContent(), /not computed/);

  await grid.fill('0.1, 0');
  await grid.press('Enter');
  await waitForText(page.locator('.kl-widget__error'), /bandwidth grid = .* refused/);
  assert.equal(await grid.getAttribute('aria-invalid'), 'true');
  assert.deepEqual(errors, []);
});

/// Page script: records what the core's workers are asked and answer. `klWorkerLog` gets
/// `{ answered: fns }` for each answer and `{ terminated: fns[] }` (the requests it still had) when
/// a worker is stopped; `klWorkerWaiting()` lists the requests the live workers have not answered.
function watchWorkers() {
  const Native = globalThis.Worker;
  const log = (globalThis.klWorkerLog = []);
  const live = new Set();
  globalThis.klWorkerWaiting = () => [...live].flatMap((waiting) => [...waiting.values()]);
  globalThis.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      const waiting = new Map();
      live.add(waiting);
      this.addEventListener('message', (event) => {
        const fns = waiting.get(event.data?.id);
        if (fns === undefined) return;
        waiting.delete(event.data.id);
        log.push({ answered: fns });
      });
      const post = this.postMessage;
      this.postMessage = (message, ...rest) => {
        if (Array.isArray(message?.calls)) waiting.set(message.id, message.calls.map((c) => c.fn).join(' '));
        return post.call(this, message, ...rest);
      };
      const terminate = this.terminate;
      this.terminate = () => {
        log.push({ terminated: [...waiting.values()] });
        live.delete(waiting);
        return terminate.call(this);
      };
    }
  };
}

test('Cancel stops the audit in the worker: no step answers after it, and the marker is answered next', async () => {
  const grid = '0.1,0.12,0.14,0.16,0.18,0.2,0.25,0.3,0.4,0.5,0.7,1';
  const { page, errors } = await site.newPage(embedPath('bias-variance', { worlds: '100000', bandwidths: grid }), { init: watchWorkers });
  const figure = page.locator('.kl-widget');
  const status = page.getByTestId('audit-status');
  await waitForText(status, /^0 of 12 bandwidths, 100,000 worlds each$/);
  // The audit's first step (biasVarianceSweep alone; the marker asks it with exactRisk) is in a worker.
  await page.waitForFunction(() => globalThis.klWorkerWaiting().includes('biasVarianceSweep'));
  // The log marks the click itself: on a fast machine a step may finish between our look and it.
  const cancel = page.getByRole('button', { name: 'Cancel' });
  await cancel.evaluate((button) => button.addEventListener('click', () => globalThis.klWorkerLog.push({ cancel: true }), { capture: true }));
  await cancel.click();
  const cancelled = (await status.textContent()) ?? '';
  const finished = Number(/^cancelled after (\d+) of 12 bandwidths; the table keeps the finished rows$/.exec(cancelled)?.[1] ?? Number.NaN);
  assert.ok(finished >= 0 && finished < 12, cancelled);
  const sent = await page.evaluate(() => globalThis.klWorkerLog.findIndex((entry) => entry.cancel));
  const stopped = await page.evaluate((from) => globalThis.klWorkerLog.slice(from), sent);
  assert.ok(
    stopped.some((entry) => entry.terminated?.includes('biasVarianceSweep')),
    `the worker running the step was stopped: ${JSON.stringify(stopped)}`,
  );

  // The marker's computation is answered next, by a worker that no audit step holds up.
  const readout = page.getByTestId('marker-readout');
  const slider = page.getByRole('slider', { name: /bandwidth/ });
  await slider.focus();
  await afterDrawn(figure, () => page.keyboard.press('ArrowRight'), 60000);
  assert.match(await readout.textContent(), /^At h = (?!0\.180)0\.\d+ \(τ = 2h² = 0\.\d+\):$/);
  const log = await page.evaluate((from) => globalThis.klWorkerLog.slice(from), sent);
  assert.ok(log.some((entry) => entry.answered === 'biasVarianceSweep exactRisk'), JSON.stringify(log));
  assert.deepEqual(log.filter((entry) => entry.answered === 'biasVarianceSweep'), [], 'no audit step answered after Cancel');
  assert.deepEqual(await page.evaluate(() => globalThis.klWorkerWaiting()), []);
  // Nothing of the cancelled audit reached the page after Cancel.
  assert.equal(await status.textContent(), cancelled);
  assert.equal(await page.getByTestId('grid-minimum').textContent(), 'grid minimum: not computed (the audit was cancelled)');
  assert.equal(await page.locator('[data-testid=audit-table] tbody tr').count(), finished);
  assert.deepEqual(errors, []);
});

test('the audit is usable at 360 px in the dark theme', async () => {
  const { page, errors } = await site.newPage(embedPath('bias-variance'), { viewport: { width: 360, height: 900 }, colorScheme: 'dark' });
  await waitForText(page.getByTestId('grid-minimum'), /h=/, 30000);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `horizontal overflow ${overflow}px`);
  await screenshot(page, 'bias-variance-360-dark');
  assert.deepEqual(errors, []);
});

test('the noisy worlds behind the table: curves and one query\'s spread, the core\'s numbers, shown on request', async () => {
  const kl = await loadKernelLens();
  const worlds = kl.auditWorlds(undefined, 0.18, 30, -1);
  const four = (x) => x.toFixed(4).replace('-', '−');
  const expected = `At h = 0.18 and q = ${worlds.query.toFixed(2).replace('-', '−')}: the truth f(q) = ${four(worlds.truth)}; over the 1,000 worlds the predictions average ${four(worlds.meanCurve[worlds.queryIndex])}; on the fixed design their exact mean is ${four(worlds.exactMean)} and their exact sd ${four(worlds.exactSd)}.`;
  const { page, errors } = await site.newPage(embedPath('bias-variance', { q: '-1' }));
  const toggle = page.getByRole('button', { name: 'Show the noisy worlds' });
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  assert.equal(await page.getByTestId('worlds-summary').isVisible(), false);
  await toggle.click();
  assert.equal(await waitForText(page.getByTestId('worlds-summary'), /exact sd/, 60000), expected);
  // The histogram's bins are the core's over all 1,000 worlds: its data table lists them.
  const bins = kl.histogram(worlds.atQuery, 30);
  const data = page.locator('.kl-audit-worlds .kl-chart-data').nth(1);
  await page.waitForFunction(() => document.querySelectorAll('.kl-audit-worlds .kl-chart-data').length === 2);
  // Open once the histogram is drawn (its series in the chart's description).
  await page.waitForFunction(() => /1,000 worlds/.test(document.querySelectorAll('.kl-audit-worlds canvas')[1]?.getAttribute('aria-label') ?? ''), null, { timeout: 30000 });
  await data.locator('summary').click();
  // The table's rows are written when it opens.
  await data.locator('tbody tr th:text-is("1,000 worlds")').first().waitFor();
  const heights = await data.locator('tbody tr').evaluateAll((rows) =>
    rows.filter((row) => row.cells[0]?.textContent === '1,000 worlds').map((row) => Number(row.cells[2]?.textContent?.replace('−', '-'))),
  );
  assert.equal(heights.length, 2 * bins.counts.length + 2);
  assert.equal(Math.max(...heights), Math.max(...bins.counts));
  assert.equal(bins.counts.reduce((sum, c) => sum + c, 0), 1000);
  await page.getByRole('button', { name: 'Hide the noisy worlds' }).click();
  assert.equal(await page.getByTestId('worlds-summary').isVisible(), false);
  assert.deepEqual(errors, []);
});
