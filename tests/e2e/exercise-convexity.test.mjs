// Exercise 1's reveal in the browser: the chapter's OLS and NW weights at q = 1.5, h = 1 on the
// witness targets, the three proof steps checked live, and inputs that change them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embedPath, openSite, screenshot, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

/// Section 12.2's printout: OLS [-0.1 0.05 0.2 0.35 0.5], NW [0.001 0.0206 0.152 0.4132 0.4132],
/// both sums 1.0, witness predictions OLS −0.1000 and NW 0.0010.
const CHAPTER = {
  ols: ['−0.1000', '0.0500', '0.2000', '0.3500', '0.5000'],
  nw: ['0.0010', '0.0206', '0.1520', '0.4132', '0.4132'],
};

const column = (page, caption, index) =>
  page.locator('table', { has: page.locator('caption', { hasText: caption }) }).locator(`tbody td:nth-child(${index})`).allTextContents();
const checks = (page) => page.locator('table', { has: page.locator('caption', { hasText: 'three steps' }) }).locator('tbody tr');

test('the revealed answer shows the chapter weights, sums and witness predictions', async () => {
  const { page, errors } = await site.newPage(embedPath('exercise-convexity'));
  await page.getByText('Check your answer').click();
  assert.equal(await waitForText(page.getByTestId('ols-prediction'), /\d/), '−0.1000');
  assert.equal(await page.getByTestId('nw-prediction').textContent(), '0.0010');
  assert.equal(await page.getByTestId('target-range').textContent(), '[0.00, 1.00]');
  assert.deepEqual(await column(page, 'Weights per key', 3), CHAPTER.ols);
  assert.deepEqual(await column(page, 'Weights per key', 4), CHAPTER.nw);
  const rows = await checks(page).allTextContents();
  assert.deepEqual(rows, [
    'smallest weight−0.10000.0010',
    '1. every weight ≥ 0 (to 10⁻¹²)?noyes',
    '2. sum of weights1.00001.0000',
    'prediction−0.10000.0010',
    '3. inside [min v, max v] (to 10⁻¹²)?noyes',
  ]);
  await screenshot(page, 'exercise-convexity');
  assert.deepEqual(errors, []);
});

test('editing the targets and the bandwidth recomputes every check', async () => {
  const { page, errors } = await site.newPage(embedPath('exercise-convexity', { reveal: 'true' }));
  await waitForText(page.getByTestId('ols-prediction'), /^−0\.1000$/);
  const y3 = page.getByRole('spinbutton', { name: /target y3 / });
  await y3.fill('2');
  await y3.press('Enter');
  // λ3 = 0.2, so OLS becomes −0.1 + 0.4 = 0.3 (inside [0, 2]).
  await waitForText(page.getByTestId('ols-prediction'), /^0\.3000$/);
  assert.equal(await page.getByTestId('target-range').textContent(), '[0.00, 2.00]');
  const nwBefore = await page.getByTestId('nw-prediction').textContent();
  await page.getByRole('slider', { name: /bandwidth/ }).focus();
  await page.keyboard.press('PageUp');
  await waitForText(page.getByTestId('nw-prediction'), new RegExp(`^(?!${nwBefore}$)`));
  assert.deepEqual(errors, []);
});

test('at q = 1.00 every OLS weight is ≥ 0: the first is exactly 0, as NumPy’s solve route gives it', async () => {
  const { page, errors } = await site.newPage(embedPath('exercise-convexity', { reveal: 'true', q: '1' }));
  assert.equal(await waitForText(page.getByTestId('ols-prediction'), /\d/), '0.0000');
  assert.deepEqual(await column(page, 'Weights per key', 3), ['0.0000', '0.1000', '0.2000', '0.3000', '0.4000']);
  const rows = await checks(page).allTextContents();
  assert.equal(rows[0], 'smallest weight0.00000.0047');
  assert.equal(rows[1], '1. every weight ≥ 0 (to 10⁻¹²)?yesyes');
  assert.equal(rows[4], '3. inside [min v, max v] (to 10⁻¹²)?yesyes');
  assert.deepEqual(errors, []);
});
