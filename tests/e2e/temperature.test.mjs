// Section 12.3 in the browser: τ = 2h² beside h, kernel weights equal to softmax(s/τ), the two
// limits reached by driving h, and h = 0 refused with the core's message.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, openSite, screenshot, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

const column = (page, index) => page.locator(`.kl-table tbody tr td:nth-child(${index})`).allTextContents();

test('at h = 0.6 the temperature is 0.720 and both weight columns are the chapter weights', async () => {
  const { page, errors } = await site.newPage(embedPath('temperature'));
  assert.equal(await waitForText(page.getByTestId('temperature'), /\d/), '0.720');
  assert.deepEqual(await column(page, 2), ['0.0002', '0.9413', '0.0585']);
  assert.deepEqual(await column(page, 3), ['0.0002', '0.9413', '0.0585']);
  await afterDrawn(page.locator('figure.kl-widget'));
  await screenshot(page, 'temperature');
  assert.deepEqual(errors, []);
});

test('driving h toward 0+ collapses the weight on the nearest key; an exact tie splits it', async () => {
  const { page } = await site.newPage(embedPath('temperature'));
  await waitForText(page.getByTestId('temperature'), /\d/);
  await page.getByRole('button', { name: /toward 0/ }).click();
  await waitForText(page.getByTestId('bandwidth'), /^0\.0100$/);
  await page.waitForFunction(() => document.querySelector('.kl-table tbody tr:nth-child(2) td:nth-child(2)')?.textContent === '1.0000');
  assert.deepEqual(await column(page, 2), ['0.0000', '1.0000', '0.0000']);

  const tie = await site.newPage(embedPath('temperature', { keys: '0,0,1', q: '0', h: '0.01' }));
  await waitForText(tie.page.getByTestId('temperature'), /\d/);
  assert.deepEqual(await column(tie.page, 2), ['0.5000', '0.5000', '0.0000']);
  assert.deepEqual(await column(tie.page, 4), ['0.5000', '0.5000', '0.0000']);
});

test('driving h toward infinity approaches 1/n', async () => {
  const { page } = await site.newPage(embedPath('temperature'));
  await waitForText(page.getByTestId('temperature'), /\d/);
  await page.getByRole('button', { name: /toward infinity/ }).click();
  await waitForText(page.getByTestId('bandwidth'), /^100\.?$/, 20000);
  await page.waitForFunction(() => document.querySelector('.kl-table tbody tr td:nth-child(2)')?.textContent === '0.3333');
  // At h = 100 the weights are within 1e-4 of 1/n; the limit column is exactly 1/3.
  const weights = await column(page, 2);
  assert.equal(weights.length, 3);
  for (const w of weights) assert.ok(Math.abs(Number(w) - 1 / 3) < 2e-4, w);
  assert.deepEqual(await column(page, 5), ['0.3333', '0.3333', '0.3333']);
});

test('h = 0 is refused with a message and the last drawing stays', async () => {
  const { page, errors } = await site.newPage(embedPath('temperature'));
  await waitForText(page.getByTestId('temperature'), /\d/);
  await page.getByRole('button', { name: /h = 0/ }).click();
  const alert = page.locator('.kl-widget__error');
  assert.match(await waitForText(alert, /refused/), /h = 0.* refused: .*bandwidth/i);
  assert.deepEqual(await column(page, 2), ['0.0002', '0.9413', '0.0585']);
  // Typing a valid bandwidth clears the message.
  await page.getByRole('spinbutton', { name: /bandwidth/ }).fill('0.6');
  await page.getByRole('spinbutton', { name: /bandwidth/ }).press('Enter');
  await page.waitForFunction(() => document.querySelector('.kl-widget__error')?.hidden === true);
  assert.deepEqual(errors, []);
});

test('the temperature dial sets the bandwidth through τ = 2h²', async () => {
  const { page } = await site.newPage(embedPath('temperature'));
  await waitForText(page.getByTestId('temperature'), /^0\.720$/);
  const dial = page.getByRole('slider', { name: /temperature/ });
  await dial.focus();
  await page.keyboard.press('PageUp');
  await waitForText(page.getByTestId('bandwidth'), /^(?!0\.600$)/);
});
