// Exercise 5 in the browser: raw and standardised attention maps of 2-D keys in mixed units, with
// the training statistics and distance shares from the core, and controls that change them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, openSite, press, screenshot, waitForText } from './harness.mjs';

/// NumPy's exercise 5 at the default settings (scripts/gen_fixtures_lab.py).
const [numpy] = JSON.parse(readFileSync(new URL('../fixtures/laboratory.json', import.meta.url), 'utf8')).standardize;
const digits = (x, n) => x.toFixed(n).replace('-', '−');

/// Waits until the figure has drawn the core's answer and both maps' images are painted (31 × 60).
async function mapsDrawn(page) {
  await afterDrawn(page.locator('.kl-widget'));
  const images = await page.locator('.kl-heatmap__image').all();
  assert.equal(images.length, 2);
  for (const image of images) await page.waitForFunction((c) => c.width === 60 && c.height === 31, await image.elementHandle());
  return images;
}

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

test('in raw units feature 2 owns the distance; standardising shares it', async () => {
  const { page, errors } = await site.newPage(embedPath('standardize'));
  assert.equal(await waitForText(page.getByTestId('raw-share'), /\d/), digits(numpy.rawDistanceShare[1], 6));
  assert.equal(await page.getByTestId('standardized-share').textContent(), digits(numpy.standardizedDistanceShare[1], 4));
  assert.equal(await page.getByTestId('raw-mse').textContent(), digits(numpy.rawMse, 4));
  assert.equal(await page.getByTestId('standardized-mse').textContent(), digits(numpy.standardizedMse, 4));
  const means = await page.locator('.kl-table tbody td:nth-child(3)').allTextContents();
  const stds = await page.locator('.kl-table tbody td:nth-child(4)').allTextContents();
  assert.deepEqual(means, numpy.mean.map((x) => digits(x, 4)));
  assert.deepEqual(stds, numpy.scale.map((x) => digits(x, 4)));
  for (const image of await mapsDrawn(page)) assert.equal(await image.getAttribute('role'), 'img');
  assert.equal(await page.locator('.kl-table tbody tr').count(), 2);
  await screenshot(page, 'standardize');
  assert.deepEqual(errors, []);
});

test('equal units make both maps agree; the keyboard moves the unit and the bandwidth', async () => {
  const { page } = await site.newPage(embedPath('standardize', { scale2: '1' }));
  const rawShare = page.getByTestId('raw-share');
  const first = Number(await waitForText(rawShare, /\d/));
  assert.ok(first < 0.9, `raw share with equal units ${first}`);
  await press(page.getByRole('slider', { name: /unit of feature 2/ }), 'End');
  await waitForText(rawShare, /^1\.0000|^0\.9999/);
  const mse = page.getByTestId('standardized-mse');
  const before = await mse.textContent();
  await press(page.getByRole('slider', { name: 'bandwidth h' }), 'ArrowRight', 40);
  await waitForText(mse, new RegExp(`^(?!${before.replace('.', '\\.')}$)`));
});

test('usable at 360 px in the dark theme with the log colour scale', async () => {
  const { page } = await site.newPage(embedPath('standardize', { scale: 'log' }), { viewport: { width: 360, height: 1400 }, colorScheme: 'dark' });
  await waitForText(page.getByTestId('raw-share'), /\d/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  await mapsDrawn(page);
  await screenshot(page, 'standardize-360-dark');
});
