// Downloads: each chart as PNG at twice its CSS size, and the numbers behind a figure as CSV with
// the core's full precision, checked against NumPy (tests/e2e/make_export_fixture.py).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { embedPath, openSite, waitForText } from './harness.mjs';

const fixture = JSON.parse(await readFile(new URL('./fixtures/export.json', import.meta.url), 'utf8'));

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

async function downloadFrom(page, name) {
  const downloads = page.locator('.kl-share__downloads');
  if (!(await downloads.evaluate((node) => node.open))) await downloads.locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), downloads.getByRole('button', { name }).click()]);
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
