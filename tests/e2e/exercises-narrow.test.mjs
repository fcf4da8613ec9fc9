// The dot-product, memory-bank, ties and exercise widgets at 360 px in the dark theme: nothing
// wider than the screen, numbers still shown, no console error (screenshots for reading).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embedPath, openSite, screenshot, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite({ viewport: { width: 360, height: 780 }, colorScheme: 'dark' });
});
after(async () => {
  await site?.close();
});

const WIDGETS = [
  { name: 'dot-product', testid: 'dot-scores' },
  { name: 'memory-bank', testid: 'output' },
  { name: 'ties', testid: 'weights' },
  { name: 'exercise-convexity', testid: 'nw-prediction', params: { reveal: 'true' } },
  { name: 'exercise-ols-weights', testid: 'ols-weights', params: { reveal: 'true' } },
];

for (const { name, testid, params = {} } of WIDGETS) {
  test(`${name} fits 360 px in the dark theme`, async () => {
    const { page, errors } = await site.newPage(embedPath(name, params));
    await waitForText(page.getByTestId(testid), /\d/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name} overflows by ${overflow}px`);
    await page.evaluate(() => document.fonts.ready);
    await screenshot(page.locator('.kl-widget'), `${name}-360-dark`);
    assert.deepEqual(errors, []);
  });
}
