// Section 12.1 in the browser: OLS weights (−0.10, 0.05, 0.20, 0.35, 0.50), NW weights
// (0.0010, 0.0206, 0.1520, 0.4132, 0.4132) and the witness predictions −0.1000 / 0.0010.
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

const column = (page, index) => page.locator(`.kl-table tbody tr td:nth-child(${index})`).allTextContents();

test('ols-vs-nw prints the chapter weights and witness predictions at q = 1.5, h = 1', async () => {
  const { page, errors } = await site.newPage(embedPath('ols-vs-nw'));
  assert.equal(await waitForText(page.getByTestId('ols-prediction'), /\d/), '−0.1000');
  assert.equal(await page.getByTestId('nw-prediction').textContent(), '0.0010');
  assert.deepEqual(await column(page, 3), ['−0.1000', '0.0500', '0.2000', '0.3500', '0.5000']);
  assert.deepEqual(await column(page, 4), ['0.0010', '0.0206', '0.1520', '0.4132', '0.4132']);
  // The chapter's "sum: 1.0" for both, from the core's pairwise row sums.
  assert.deepEqual(await page.locator('.kl-table tfoot td').allTextContents(), ['', '1.0', '1.0']);
  assert.match(await page.locator('.kl-readout').textContent(), /target range \[0, 1\] — OLS leaves it \(by more than 10⁻¹²\)/);
  assert.equal(await page.locator('.kl-strip__marker--ols.kl-strip__marker--outside').count(), 1);
  await screenshot(page, 'ols-vs-nw');
  assert.deepEqual(errors, []);
});

test('the query slider moves both predictions; at q = 0 OLS stays inside the range', async () => {
  const { page, errors } = await site.newPage(embedPath('ols-vs-nw', { q: '0' }));
  const ols = page.getByTestId('ols-prediction');
  // λ(0) = 1/5 for every key, so the witness prediction is 0.2.
  assert.equal(await waitForText(ols, /\d/), '0.2000');
  const query = page.getByRole('slider', { name: /query/ });
  await query.focus();
  await page.keyboard.press('End');
  const moved = await waitForText(ols, /^(?!0\.2000$)/);
  // λ_1(q) = 1/5 + q·k_1/Σk² = 1/5 − 6/10 at q = 3 (the slider's end).
  assert.equal(moved, '−0.4000');
  assert.deepEqual(errors, []);
});

test('at q = 1.00 the first OLS weight is exactly 0 (NumPy’s solve route): no verdict turns on a round-off sign', async () => {
  const { page, errors } = await site.newPage(embedPath('ols-vs-nw', { q: '1' }));
  // λ(1) = (0, 0.1, 0.2, 0.3, 0.4): the witness prediction is λ₁ = 0, on the range's edge.
  assert.equal(await waitForText(page.getByTestId('ols-prediction'), /\d/), '0.0000');
  assert.deepEqual(await column(page, 3), ['0.0000', '0.1000', '0.2000', '0.3000', '0.4000']);
  const readout = await page.locator('.kl-readout').textContent();
  assert.doesNotMatch(readout, /leaves it/);
  assert.match(readout, /target range \[0, 1\] \(to 10⁻¹²\)/);
  assert.equal(await page.locator('.kl-strip__marker--outside').count(), 0);
  assert.deepEqual(errors, []);
});

test('the bandwidth slider changes only the NW side', async () => {
  const { page } = await site.newPage(embedPath('ols-vs-nw'));
  const nw = page.getByTestId('nw-prediction');
  await waitForText(nw, /^0\.0010$/);
  const bandwidth = page.getByRole('slider', { name: /bandwidth/ });
  await bandwidth.focus();
  await page.keyboard.press('PageUp');
  await waitForText(nw, /^(?!0\.0010$)/);
  assert.equal(await page.getByTestId('ols-prediction').textContent(), '−0.1000');
});
