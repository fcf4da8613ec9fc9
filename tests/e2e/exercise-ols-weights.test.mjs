// Exercise 2's reveal in the browser: the OLS weights at q = 1.5 on the keys −2…2 as the chapter
// prints them, their sum, the negative entry, and target vectors that leave (or stay in) the range.
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

/// Section 12.1: "(−0.10, 0.05, 0.20, 0.35, 0.50)"; the witness (1, 0, 0, 0, 0) predicts −0.10.
const CHAPTER_WEIGHTS = '(−0.10, 0.05, 0.20, 0.35, 0.50)';

async function target(page, index, value) {
  const input = page.getByRole('spinbutton', { name: new RegExp(`target y${index} `) });
  await input.fill(value);
  await input.press('Enter');
}

test('the answer is hidden until asked for, then shows the chapter weights, their sum and the negative entry', async () => {
  const { page, errors } = await site.newPage(embedPath('exercise-ols-weights'));
  const summary = page.getByText('Check your answer');
  await summary.waitFor();
  assert.equal(await page.getByTestId('ols-weights').isVisible(), false);
  await summary.click();
  assert.equal(await waitForText(page.getByTestId('ols-weights'), /\d/), CHAPTER_WEIGHTS);
  assert.equal(await page.getByTestId('weight-sum').textContent(), '1.00');
  assert.match(await page.getByTestId('negative-weight').textContent(), /λ1 = −0\.10 on key −2/);
  // The default second vector (0, 1, 1, 1, 1): λᵀy = 1 − (−0.10) = 1.10 > 1.
  assert.equal(await page.getByTestId('prediction').textContent(), '1.1000');
  assert.match(await page.getByTestId('verdict').textContent(), /above the range/);
  await screenshot(page, 'exercise-ols-weights');
  assert.deepEqual(errors, []);
});

test("the chapter's witness leaves the range below; the reader's own vector is checked live", async () => {
  const { page, errors } = await site.newPage(embedPath('exercise-ols-weights', { reveal: 'true' }));
  await waitForText(page.getByTestId('ols-weights'), /\d/);
  await page.getByRole('button', { name: /witness/ }).click();
  await waitForText(page.getByTestId('prediction'), /^−0\.1000$/);
  assert.match(await page.getByTestId('verdict').textContent(), /below the range/);
  await target(page, 1, '0');
  await target(page, 5, '1');
  await waitForText(page.getByTestId('prediction'), /^0\.5000$/);
  assert.equal(await page.getByTestId('verdict').textContent(), 'inside the range (to 10⁻¹²)');
  assert.deepEqual(errors, []);
});

test('bad targets are refused with a visible message and the last answer stays', async () => {
  const { page } = await site.newPage(embedPath('exercise-ols-weights', { reveal: 'true', targets: '1,0,0,0,0' }));
  await waitForText(page.getByTestId('prediction'), /^−0\.1000$/);
  await target(page, 2, '9');
  await waitForText(page.locator('.kl-widget__error'), /y2 = 9 is refused/);
  await target(page, 2, '');
  await waitForText(page.locator('.kl-widget__error'), /targets\[1\] must be finite/);
  assert.equal(await page.getByTestId('prediction').textContent(), '−0.1000');
});

test('the query slider moves q from the keyboard', async () => {
  const { page } = await site.newPage(embedPath('exercise-ols-weights', { reveal: 'true' }));
  await waitForText(page.getByTestId('ols-weights'), /\d/);
  await page.getByRole('slider', { name: /query/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await waitForText(page.getByTestId('ols-weights'), /^(?!\(−0\.10, 0\.05)/);
  assert.equal(await page.getByTestId('weight-sum').textContent(), '1.00');
});
