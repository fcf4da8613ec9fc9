// The distant-query trap in the browser: the chapter's printed lines at q = 1000, h = 0.1 and the
// identity difference at q = 0.37, h = 0.28, then keyboard and typed input moving both.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, openSite, press, screenshot, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

test('at q = 1000, h = 0.1 and q = 0.37, h = 0.28 the chapter\'s four lines appear', async () => {
  const { page, errors } = await site.newPage(embedPath('underflow'));
  assert.equal(await waitForText(page.getByTestId('identity-difference'), /e/), '2.78e-17');
  assert.match(await waitForText(page.getByTestId('naive-denominator'), /\d/), /^0\.0\b/);
  assert.equal(await page.getByTestId('naive-finite').textContent(), 'False');
  assert.match(await page.getByTestId('naive-weights').textContent(), /0 ÷ 0 = NaN for 60 of 60 keys/);
  assert.equal(await page.getByTestId('stable-sum').textContent(), '1.0');
  assert.equal(await page.getByTestId('nearest-key').textContent(), '2.9886');
  const text = await page.locator('.kl-widget').textContent();
  assert.match(text, /max \|normalize\(K\)−softmax\(log K\)\|: 2\.78e-17/);
  const canvases = await page.locator('canvas').all();
  assert.ok(canvases.length > 0);
  for (const canvas of canvases) assert.equal(await canvas.getAttribute('role'), 'img');
  await afterDrawn(page.locator('.kl-widget'));
  await screenshot(page, 'underflow');
  assert.deepEqual(errors, []);
});

test('near the keys the naive route is finite again; further out it is not', async () => {
  const { page } = await site.newPage(embedPath('underflow', { q: '3.5', h: '0.6' }));
  await waitForText(page.getByTestId('naive-finite'), /True/);
  assert.equal(await page.getByTestId('nearest-key').textContent(), '2.9886');
  const typed = page.getByRole('spinbutton', { name: 'far query q, typed value' });
  await typed.fill('-5000');
  await typed.press('Enter');
  await waitForText(page.getByTestId('naive-finite'), /False/);
  assert.equal(await page.getByTestId('stable-sum').textContent(), '1.0');
  assert.equal(await page.getByTestId('nearest-key').textContent(), '−2.9444');
});

test('the identity sliders move the measured difference; h = 0 is refused', async () => {
  const { page, errors } = await site.newPage(embedPath('underflow'));
  const difference = page.getByTestId('identity-difference');
  await waitForText(difference, /e-17/);
  // The rounding-level difference depends on the exp implementation; it stays near 1e-17.
  const identityQuery = page.getByRole('slider', { name: 'identity query q' });
  await afterDrawn(page.locator('.kl-widget'), () => press(identityQuery, 'End'));
  assert.equal(await identityQuery.getAttribute('aria-valuetext'), '3.00');
  assert.match(await difference.textContent(), /^\d\.\d\de-1[67]$/);
  const typed = page.getByRole('spinbutton', { name: 'bandwidth h, typed value' });
  await typed.fill('0');
  await typed.press('Enter');
  assert.match(await waitForText(page.locator('.kl-widget__error'), /refused/), /bandwidth/);
  assert.equal(await page.getByTestId('nearest-key').textContent(), '2.9886');
  // An emptied field is named as empty, never as "h = NaN is refused".
  await typed.fill('');
  await typed.press('Enter');
  const empty = await waitForText(page.locator('.kl-widget__error'), /empty/);
  assert.equal(empty, 'h is empty: type a number.');
  assert.deepEqual(errors, []);
});

test('usable at 360 px in the dark theme', async () => {
  const { page } = await site.newPage(embedPath('underflow'), { viewport: { width: 360, height: 1600 }, colorScheme: 'dark' });
  await waitForText(page.getByTestId('nearest-key'), /\d/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  await afterDrawn(page.locator('.kl-widget'));
  await screenshot(page, 'underflow-360-dark');
});
