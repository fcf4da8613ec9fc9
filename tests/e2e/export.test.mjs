// Downloads: each chart as PNG at twice its CSS size, and the numbers behind a figure as CSV with
// the core's full precision, checked against NumPy (tests/e2e/make_export_fixture.py).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { embedPath, figuresDrawn, openSite, waitForText } from './harness.mjs';
import { CHAPTER_AUDIT_TABLE as CHAPTER_TABLE } from './chapter-numbers.mjs';

const fixture = JSON.parse(await readFile(new URL('./fixtures/export.json', import.meta.url), 'utf8'));

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

async function downloadFrom(page, name, timeout = 30000) {
  const downloads = page.locator('.kl-share__downloads');
  if (!(await downloads.evaluate((node) => node.open))) await downloads.locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download', { timeout }), downloads.getByRole('button', { name }).click()]);
  return { name: download.suggestedFilename(), body: await readFile(await download.path()) };
}

function parseCsv(text) {
  assert.ok(text.endsWith('\r\n'));
  return text.trimEnd().split('\r\n').map((line) => line.split(','));
}

/// Every printed number is the double itself: parsing it back gives NumPy's value to 1 ulp-ish.
function assertClose(actual, expected, what) {
  assert.ok(Math.abs(actual - expected) <= 4e-16 * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);
}

test('lookup: the weights and prediction CSVs hold the full-precision numbers', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'));
  await waitForText(page.getByTestId('prediction'), /^2\.7412$/);
  const weights = await downloadFrom(page, 'weights (CSV)');
  assert.equal(weights.name, 'lookup-weights.csv');
  const rows = parseCsv(weights.body.toString('utf8'));
  assert.deepEqual(rows[0], ['key', 'value', 'weight']);
  assert.deepEqual(rows.slice(1).map((row) => row.slice(0, 2)), [['1', '1.5'], ['3', '2.8'], ['5', '1.8']]);
  rows.slice(1).forEach((row, i) => assertClose(Number(row[2]), fixture.lookup.weights[i], `weight ${i + 1}`));
  // Not rounded for display: the chapter prints 0.9413, the file carries the double.
  assert.ok(rows[2][2].length > 12, rows[2][2]);
  assert.deepEqual(rows.slice(1).map((row) => Number(row[2]).toFixed(4)), ['0.0002', '0.9413', '0.0585']);

  const prediction = parseCsv((await downloadFrom(page, 'prediction (CSV)')).body.toString('utf8'));
  assert.deepEqual(prediction[0], ['query', 'prediction']);
  assert.equal(prediction[1][0], '3.5');
  assertClose(Number(prediction[1][1]), fixture.lookup.prediction, 'prediction');
  assert.deepEqual(errors, []);
});

test('ols-vs-nw: the signed OLS and convex NW weights as CSV', async () => {
  const { page } = await site.newPage(embedPath('ols-vs-nw'));
  await waitForText(page.getByTestId('ols-prediction'), /\d/);
  const { name, body } = await downloadFrom(page, 'weights (CSV)');
  assert.equal(name, 'ols-vs-nw-weights.csv');
  const rows = parseCsv(body.toString('utf8'));
  assert.deepEqual(rows[0], ['key', 'OLS weight', 'NW weight']);
  rows.slice(1).forEach((row, i) => {
    assert.equal(Number(row[0]), i - 2);
    assert.ok(Math.abs(Number(row[1]) - fixture.olsVsNw.ols[i]) < 1e-15, `OLS ${i}: ${row[1]}`);
    assertClose(Number(row[2]), fixture.olsVsNw.nw[i], `NW ${i}`);
  });
});

test('each chart downloads as a PNG at twice its CSS size', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'));
  await waitForText(page.getByTestId('prediction'), /^2\.7412$/);
  const canvases = page.locator('.kl-widget__body canvas[role="img"]');
  const count = await canvases.count();
  assert.equal(count, 2);
  const pixelWidths = () => canvases.evaluateAll((nodes) => nodes.map((canvas) => canvas.width));
  const before = await pixelWidths();
  for (let i = 0; i < count; i++) {
    const size = await canvases.nth(i).evaluate((canvas) => ({ width: canvas.clientWidth, height: canvas.clientHeight }));
    const { name, body } = await downloadFrom(page, `chart ${i + 1} (PNG)`);
    assert.equal(name, `lookup-chart-${i + 1}.png`);
    assert.equal(body.subarray(1, 4).toString('ascii'), 'PNG');
    assert.equal(body.readUInt32BE(16), size.width * 2);
    assert.equal(body.readUInt32BE(20), size.height * 2);
  }
  // The live charts are back at the screen's pixel ratio.
  assert.deepEqual(await pixelWidths(), before);
  assert.deepEqual(errors, []);
});

test('bias-variance: the audit table as CSV rounds to the chapter table', async () => {
  const { page } = await site.newPage(embedPath('bias-variance'));
  const rows = await csvWhenReady(page, 'bias-variance table (CSV)');
  assert.deepEqual(rows[0], ['h', 'tau', 'bias2', 'variance', 'MSE']);
  assert.deepEqual(
    rows.slice(1).map((row) => row.map((cell, i) => Number(cell).toFixed(i === 0 ? 2 : 4))),
    CHAPTER_TABLE,
  );
});

test('attention-map: the 31 x 60 attention matrix as CSV, every row summing to one', async () => {
  const { page } = await site.newPage(embedPath('attention-map'));
  await page.locator('.kl-widget canvas').first().waitFor();
  const rows = await csvWhenReady(page, 'attention matrix (CSV)');
  assert.equal(rows.length, 32);
  assert.equal(rows[0].length, 61);
  assert.equal(Number(rows[1][0]), -2.9);
  assert.equal(Number(rows[31][0]), 2.9);
  for (const row of rows.slice(1)) {
    const sum = row.slice(1).reduce((total, cell) => total + Number(cell), 0);
    assert.ok(Math.abs(sum - 1) < 1e-14, `row ${row[0]} sums to ${sum}`);
  }
});

test('dot-product: the chapter scores 1 and 2 with their weights as CSV', async () => {
  const { page } = await site.newPage(embedPath('dot-product'));
  await page.locator('.kl-table tbody tr').first().waitFor();
  const rows = await csvWhenReady(page, 'scores and weights (CSV)');
  assert.equal(rows.length, 3);
  // Section 12.6: q = (1, 0), k1 = (1, 0), k2 = (2, 0) have dot products 1 and 2.
  assert.deepEqual(rows.slice(1).map((row) => [row[0], row[2]]), [['k1', '1'], ['k2', '2']]);
  // softmax(1, 2) = (1, e) / (1 + e), from the definition.
  assertClose(Number(rows[1][3]), 1 / (1 + Math.E), 'softmax weight of k1');
});

/// Downloads the CSV named `name` once the figure has drawn everything it computes (an audit
/// included: its job counts as work under way).
async function csvWhenReady(page, name) {
  await figuresDrawn(page, 180000);
  const { body } = await downloadFrom(page, name);
  return parseCsv(body.toString('utf8'));
}

test('underflow: naive weights are NaN at q = 1000, h = 0.1 while the stable ones sum to one on the nearest key', async () => {
  const { page, errors } = await site.newPage(embedPath('underflow'));
  await waitForText(page.getByTestId('naive-finite'), /^False$/);
  const rows = await csvWhenReady(page, 'naive and stable weights (CSV)');
  assert.deepEqual(rows[0], ['q', 'h', 'key', 'log-score', 'kernel exp(log-score)', 'naive weight', 'stable weight']);
  const data = rows.slice(1).map((row) => row.map(Number));
  assert.equal(data.length, 60);
  const nearest = data.reduce((best, row) => (Math.abs(row[2] - 1000) < Math.abs(best[2] - 1000) ? row : best));
  for (const [q, h, key, logScore, kernel, naive, stable] of data) {
    assert.equal(q, 1000);
    assert.equal(h, 0.1);
    assertClose(logScore, -((q - key) ** 2) / (2 * h * h), `log-score of ${key}`);
    assert.equal(kernel, 0);
    assert.ok(Number.isNaN(naive));
    assert.equal(stable, key === nearest[2] ? 1 : 0);
  }
  assert.deepEqual(errors, []);
});

test('your-data: the parsed data with fitted values and the leave-one-out curve as CSV', async () => {
  const { page, errors } = await site.newPage(embedPath('your-data'));
  await waitForText(page.getByTestId('prediction'), /^2\.7412$/);
  const keys = [1, 3, 5];
  const values = [1.5, 2.8, 1.8];
  const gaussian = (x, k, h) => Math.exp(-((x - k) ** 2) / (2 * h * h));
  /// Nadaraya–Watson at x over the points not excluded, from the definition.
  const nw = (x, h, excluded = -1) => {
    let num = 0;
    let den = 0;
    keys.forEach((k, j) => {
      if (j === excluded) return;
      num += gaussian(x, k, h) * values[j];
      den += gaussian(x, k, h);
    });
    return num / den;
  };
  const data = await csvWhenReady(page, 'data and fitted values (CSV)');
  // The table's own column names: the chapter's for its example.
  assert.deepEqual(data[0], ['location', 'response', 'fitted', 'h', 'kernel']);
  assert.deepEqual(data.slice(1).map((row) => row.slice(0, 2).map(Number)), keys.map((k, i) => [k, values[i]]));
  data.slice(1).forEach((row, i) => {
    assert.deepEqual(row.slice(3), ['0.6', 'gaussian']);
    assert.ok(Math.abs(Number(row[2]) - nw(keys[i], 0.6)) < 1e-14, `fitted ${i + 1}: ${row[2]}`);
  });

  const curve = await csvWhenReady(page, 'leave-one-out curve (CSV)');
  assert.deepEqual(curve[0], ['h', 'leave-one-out MSE']);
  assert.equal(curve.length, 1 + 25);
  for (const [h, mse] of curve.slice(1).map((row) => row.map(Number))) {
    const expected = keys.reduce((total, k, i) => total + (nw(k, h, i) - values[i]) ** 2, 0) / keys.length;
    if (Number.isFinite(expected)) assert.ok(Math.abs(mse - expected) <= 1e-12 * Math.max(1, expected), `h = ${h}: ${mse} vs ${expected}`);
  }
  assert.deepEqual(errors, []);
});
