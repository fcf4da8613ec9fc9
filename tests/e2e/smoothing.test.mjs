// Figure 12.2 in the browser: the truth curve, the chapter's noisy sample and prediction curves at
// 0.05 / 0.18 / 0.65, checked at five dense queries against NumPy (fixtures/smoothing.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { loadKernelLens } from '../wasm/load.mjs';
import { afterDrawn, embedPath, openSite, screenshot, waitForText } from './harness.mjs';

const reference = JSON.parse(readFileSync(new URL('./fixtures/smoothing.json', import.meta.url), 'utf8'));
const minus = (text) => text.replace('-', '−');
const figure = (page) => page.locator('.kl-widget[data-widget="smoothing"]');

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

async function tableRows(page) {
  return page.locator('.kl-table tbody tr').evaluateAll((rows) =>
    rows.map((row) => Array.from(row.cells, (cell) => cell.textContent)),
  );
}

async function waitForCurves(page, count) {
  await page.waitForFunction(
    (n) => {
      const rows = document.querySelectorAll('.kl-table tbody tr');
      return rows.length === n + 1 && !document.querySelector('.kl-table tbody')?.textContent?.includes('…');
    },
    count,
    { timeout: 20000 },
  );
}

test('smoothing draws the chapter sample and matches NumPy at h = 0.05, 0.18, 0.65', async () => {
  assert.ok(reference.queries.length > 0 && reference.truth.length === reference.queries.length, 'the fixture lists queries');
  const { page, errors } = await site.newPage(embedPath('smoothing'));
  await waitForCurves(page, 3);
  const header = await page.locator('.kl-table thead tr > *').allTextContents();
  assert.deepEqual(header.slice(1), reference.queries.map((q) => `q = ${minus(q)}`));
  const rows = await tableRows(page);
  assert.deepEqual(rows[0], ['truth f(q)', ...reference.truth.map(minus)]);
  assert.deepEqual(rows[1], ['h = 0.05', ...reference.predictions['0.05'].map(minus)]);
  assert.deepEqual(rows[2], ['h = 0.18', ...reference.predictions['0.18'].map(minus)]);
  assert.deepEqual(rows[3], ['h = 0.65', ...reference.predictions['0.65'].map(minus)]);
  await afterDrawn(figure(page));
  await screenshot(page, 'smoothing');
  assert.deepEqual(errors, []);
});

test('dragging a bandwidth slider redraws its curve; bandwidths can be added and removed', async () => {
  const { page, errors } = await site.newPage(embedPath('smoothing', { bandwidths: '0.18' }));
  await waitForCurves(page, 1);
  const before = (await tableRows(page))[1];
  const slider = page.getByRole('slider', { name: 'bandwidth h1' });
  const box = await slider.boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 10 });
  await page.mouse.up();
  await page.waitForFunction((old) => {
    const cells = document.querySelectorAll('.kl-table tbody tr:nth-child(2) td');
    return cells.length > 0 && cells[0].textContent !== old && !cells[0].textContent.includes('…');
  }, before[1]);
  await page.getByRole('button', { name: 'Add a bandwidth' }).click();
  await waitForCurves(page, 2);
  await page.getByRole('button', { name: 'Remove bandwidth h1' }).click();
  await waitForCurves(page, 1);
  assert.equal((await tableRows(page))[1][0], 'h = 0.3');
  assert.deepEqual(errors, []);
});

test('from the keyboard: arrow keys move a bandwidth, and Enter on the buttons adds and removes curves', async () => {
  const { page, errors } = await site.newPage(embedPath('smoothing'));
  await waitForCurves(page, 3);
  const before = await tableRows(page);
  const slider = page.getByRole('slider', { name: 'bandwidth h2' });
  await slider.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  // The table once it shows the slider's last value (an earlier press's row can be drawn first).
  const moved = await slider.getAttribute('aria-valuetext');
  await page.waitForFunction((shown) => {
    const header = document.querySelector('.kl-table tbody tr:nth-child(3) th')?.textContent ?? '';
    const cells = document.querySelectorAll('.kl-table tbody tr:nth-child(3) td');
    return header === `h = ${shown}` && cells.length > 0 && cells[0].textContent !== '…';
  }, moved);
  const after = await tableRows(page);
  assert.ok(Number(after[2][0].slice(4)) > 0.18, `h2 moved right: ${after[2][0]}`);
  assert.notDeepEqual(after[2].slice(1), before[2].slice(1));
  // The other curves stay as they were.
  assert.deepEqual(after[1], before[1]);
  assert.deepEqual(after[3], before[3]);
  await page.getByRole('button', { name: 'Add a bandwidth' }).focus();
  await page.keyboard.press('Enter');
  await waitForCurves(page, 4);
  await page.getByRole('button', { name: 'Remove bandwidth h1' }).focus();
  await page.keyboard.press('Enter');
  await waitForCurves(page, 3);
  assert.equal((await tableRows(page))[1][0], after[2][0]);
  assert.deepEqual(errors, []);
});

test('bandwidths from the URL; an invalid list falls back with a note', async () => {
  const { page } = await site.newPage(embedPath('smoothing', { bandwidths: '0.05,abc' }));
  await waitForText(page.locator('.kl-widget__note', { hasText: 'Invalid parameters' }), /bandwidths=0\.05,abc/);
  await waitForCurves(page, 3);
});

test('the ±2 sd band: its table rows are the core\'s exact sd at the laboratory\'s noise; the button toggles it and the URL keeps it', async () => {
  const kl = await loadKernelLens();
  const data = kl.chapterDataset();
  const dense = kl.linspace(-3, 3, 601);
  const audit = kl.smootherAudit(dense, data.keys, 1, data.truthAtKeys, kl.truth(dense), kl.chapterConfig().noise, 0.18);
  const sd = [100, 200, 300, 400, 500].map((i) => minus(audit.nadarayaWatson.sd[i].toFixed(4)));
  // How often the band holds the truth: this sample's share counted here, a fresh sample's chance
  // from the core's bandCoverage (checked against the laboratory's worlds in tests/wasm).
  const curve = kl.attention(dense, data.keys, data.observedValues, 1, 1, 0.18).outputs;
  const truth = kl.truth(dense);
  let inside = 0;
  curve.forEach((y, r) => {
    if (Math.abs(y - truth[r]) <= 2 * audit.nadarayaWatson.sd[r]) inside += 1;
  });
  const coverage = kl.bandCoverage(curve, truth, audit.nadarayaWatson.bias, audit.nadarayaWatson.sd, 2);
  assert.equal(coverage.observed, inside / dense.length);
  const percent = (x) => `${(100 * x).toFixed(1)}\u00a0%`;
  const { page, errors } = await site.newPage(embedPath('smoothing', { bandwidths: '0.18', band: 'true' }));
  const note = await waitForText(page.getByTestId('coverage'), /h = 0\.18: \d/);
  assert.equal(note, `Truth inside the ±2 sd band at the 601 queries, this sample (a fresh sample's expected share): h = 0.18: ${percent(inside / dense.length)} (${percent(coverage.expected)}).`);
  const sdRow = page.locator('.kl-table tbody tr', { hasText: 'sd, h = 0.18' });
  await page.waitForFunction(() => [...document.querySelectorAll('.kl-table tbody tr')].some((row) => row.cells[0]?.textContent === 'sd, h = 0.18' && !row.textContent.includes('…')), null, { timeout: 20000 });
  assert.deepEqual(await sdRow.locator('td').allTextContents(), sd);
  const toggle = page.getByRole('button', { name: /±2 sd bands/ });
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  assert.equal(await page.getByTestId('coverage').isHidden(), true);
  await waitForCurves(page, 1);
  await page.waitForFunction(() => !/band=/.test(location.search), null, { timeout: 5000 });
  await toggle.click();
  await page.waitForFunction(() => /band=true/.test(location.search), null, { timeout: 5000 });
  assert.deepEqual(errors, []);
});

/// Runs `action` and waits until the figure has drawn everything it caused: a drawn signal after
/// the last time its work ended. (A run of inputs may be drawn in between: the first drawn signal
/// after the action can come before the last input's answer is drawn.)
async function drawnAfterAll(page, action) {
  const target = figure(page);
  await target.evaluate((element) => {
    element.klSignals?.disconnect();
    const order = [];
    element.klOrder = order;
    element.klSignals = new MutationObserver((records) => {
      for (const record of records) order.push(record.attributeName === 'data-kl-drawn' ? 'drawn' : record.oldValue === null ? 'busy' : 'idle');
    });
    element.klSignals.observe(element, { attributes: true, attributeOldValue: true, attributeFilter: ['data-kl-drawn', 'data-kl-busy'] });
  });
  await action();
  await page.waitForFunction(
    (element) => element.klOrder.at(-1) === 'drawn' && !element.hasAttribute('data-kl-busy'),
    await target.elementHandle(),
    { timeout: 20000 },
  );
}

/// The chart's pixels.
function chartPixels(page) {
  return page.locator('canvas[role=img]').first().evaluate((canvas) => canvas.toDataURL());
}

test('after drags the chart looks exactly as when drawn from scratch at the same bandwidths', async () => {
  // A drag redraws the chart over a picture of its axes and unchanged curves (charts.ts): the
  // pixels must be those of a full draw of the same state.
  const { page, errors } = await site.newPage(embedPath('smoothing'));
  await waitForCurves(page, 3);
  await drawnAfterAll(page, async () => {
    for (const name of ['bandwidth h1', 'bandwidth h3', 'bandwidth h2']) {
      const box = await page.getByRole('slider', { name }).boundingBox();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
      await page.mouse.down();
      for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + box.width * (0.5 + i * 0.02), box.y + box.height / 2);
      await page.mouse.up();
    }
  });
  await waitForCurves(page, 3);
  const dragged = await chartPixels(page);
  // The address follows the state a moment later (debounced): it holds the bandwidths shown.
  await page.waitForFunction(() => {
    const shown = [...document.querySelectorAll('.kl-table tbody tr th')].slice(1).map((th) => th.textContent.replace('h = ', ''));
    const listed = (new URLSearchParams(location.search).get('bandwidths') ?? '').split(',').map((h) => String(Number(Number(h).toPrecision(3))));
    return shown.length === 3 && shown.join() === listed.join();
  }, null, { timeout: 5000 });
  const address = await page.evaluate(() => location.href);
  assert.ok(!address.endsWith(embedPath('smoothing')), `the drags changed the state: ${address}`);
  const fresh = await site.newPage(address.slice(site.url.length));
  await waitForCurves(fresh.page, 3);
  await afterDrawn(figure(fresh.page));
  assert.equal(await tableRows(fresh.page).then(JSON.stringify), await tableRows(page).then(JSON.stringify));
  assert.ok((await chartPixels(fresh.page)) === dragged, 'the dragged chart differs from a fresh draw');
  assert.deepEqual(errors, []);
  assert.deepEqual(fresh.errors, []);
});

test('a bandwidth slider nudged right and back left returns to the chapter value, not its neighbour on the grid', async () => {
  const { page, errors } = await site.newPage(embedPath('smoothing'));
  await waitForCurves(page, 3);
  const slider = page.getByRole('slider', { name: 'bandwidth h1' });
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('.kl-table tbody tr:nth-child(2) th')?.textContent !== 'h = 0.05');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('.kl-table tbody tr:nth-child(2) th')?.textContent === 'h = 0.05', null, { timeout: 5000 });
  await waitForCurves(page, 3);
  const rows = await tableRows(page);
  assert.deepEqual(rows[1], ['h = 0.05', ...reference.predictions['0.05'].map(minus)]);
  assert.equal(await slider.getAttribute('aria-valuetext'), '0.05');
  assert.deepEqual(errors, []);
});
