// Exercise 4 in the browser: keys [0, 0, 1], query 0; halving h drives the weights to the
// tie-splitting limit (0.5, 0.5, 0) and h = 0 is refused with the core's reason.
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

/// exp(−1/(2h²)) / (2 + exp(−1/(2h²))) for the third key, and the tie's share, at h = 1 (NumPy, 4 d.p.).
const AT_ONE = ['0.3837', '0.3837', '0.2327'];
const LIMIT = '(0.5, 0.5, 0.0)';

const rows = (page) => page.locator('.kl-ties__history tbody tr');

test('starts at h = 1 with the softmax weights and the (0.5, 0.5, 0) limit from the core', async () => {
  const { page, errors } = await site.newPage(embedPath('ties'));
  assert.equal(await waitForText(page.getByTestId('limit'), /\d/), LIMIT);
  assert.equal(await waitForText(page.getByTestId('weights'), /\d/), `(${AT_ONE.join(', ')})`);
  assert.deepEqual(errors, []);
});

test('halving h step by step converges to (0.5000, 0.5000, 0.0000)', async () => {
  const { page, errors } = await site.newPage(embedPath('ties'));
  await waitForText(page.getByTestId('weights'), /\d/);
  const halve = page.getByRole('button', { name: /Halve the bandwidth/ });
  for (let step = 1; step <= 5; step++) {
    await halve.click();
    await page.waitForFunction((n) => document.querySelectorAll('.kl-ties__history tbody tr').length === n, step + 1);
  }
  assert.equal(await page.getByTestId('bandwidth').textContent(), '0.0313');
  assert.equal(await page.getByTestId('weights').textContent(), '(0.5000, 0.5000, 0.0000)');
  // h = 0.5: τ = 0.5, score of k3 = −2, α3 = e^−2 / (2 + e^−2) = 0.0634 (checked by hand).
  const second = await rows(page).nth(1).locator('td').allTextContents();
  assert.deepEqual(second.slice(0, 6), ['0.500', '0.500', '−2.00', '0.4683', '0.4683', '0.0634']);
  await screenshot(page, 'ties');
  assert.deepEqual(errors, []);
});

test('typing h = 0 or a negative h is refused with the reason; the last drawing stays', async () => {
  const { page, errors } = await site.newPage(embedPath('ties', { h: '0.25' }));
  await waitForText(page.getByTestId('weights'), /\d/);
  const before = await page.getByTestId('weights').textContent();
  const typed = page.getByRole('spinbutton', { name: /bandwidth/ });
  for (const bad of ['0', '-1']) {
    await typed.fill(bad);
    await typed.press('Enter');
    const alert = page.locator('.kl-widget__error');
    const message = await waitForText(alert, new RegExp(`got ${bad}`));
    assert.match(message, /refused: bandwidth must be positive and finite/);
    assert.match(message, bad === '0' ? /divides by 2h² = 0: .* 0\/0/ : /asks for h > 0/);
    assert.match(message, /limit h → 0⁺ exists, \(0\.5, 0\.5, 0\.0\)/);
    assert.equal(await page.getByTestId('weights').textContent(), before);
  }
  await typed.fill('1e-200');
  await typed.press('Enter');
  assert.match(await waitForText(page.locator('.kl-widget__error'), /1e-200|1\.00e−200/), /too small: 2h\^2 underflows to 0.*0\/0/);
  assert.equal(await page.getByTestId('weights').textContent(), before);
  await screenshot(page, 'ties-refused');
  await typed.fill('0.1');
  await typed.press('Enter');
  await page.waitForFunction(() => document.querySelector('.kl-widget__error')?.hidden === true);
  assert.equal(await page.getByTestId('bandwidth').textContent(), '0.100');
  assert.deepEqual(errors, []);
});

test('the bandwidth slider works from the keyboard and an invalid URL h falls back with a note', async () => {
  const { page } = await site.newPage(embedPath('ties', { h: '0' }));
  // Other notes (the core still loading) may be shown at the same time: find this one by its text.
  await waitForText(page.locator('.kl-widget__note', { hasText: 'Invalid parameters' }), /h=0/);
  await waitForText(page.getByTestId('bandwidth'), /^1\.00$/);
  const bandwidth = page.getByRole('slider', { name: /bandwidth/ });
  await bandwidth.focus();
  await page.keyboard.press('PageDown');
  await waitForText(page.getByTestId('bandwidth'), /^(?!1\.00$)/);
});

test('the documented range is inclusive: ties?h=1e-6 (its minimum) starts there, not at the default', async () => {
  const { page, errors } = await site.newPage(embedPath('ties', { h: '1e-6' }));
  assert.equal(await waitForText(page.getByTestId('weights'), /\d/), '(0.5000, 0.5000, 0.0000)');
  assert.doesNotMatch((await page.locator('.kl-widget__notes').textContent()) ?? '', /Invalid parameters/);
  assert.deepEqual(errors, []);
});
