// Touch on the four figures of the chapter's first part: a finger dragging a bandwidth slider
// (touch events through Chromium's input pipeline, as on a phone) moves the slider's read-out
// and the figure's printed numbers, and leaves no console error. The lookup's own chart
// gestures (tap to add a point, drag the query) are in lookup.test.mjs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embedPath, openSite, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

/// Each figure: its slider's accessible name and a printed number that follows the bandwidth.
const FIGURES = [
  { widget: 'lookup', slider: 'bandwidth h', number: '[data-testid=prediction]' },
  { widget: 'ols-vs-nw', slider: 'bandwidth h', number: '[data-testid=nw-prediction]' },
  { widget: 'temperature', slider: 'bandwidth h', number: '[data-testid=temperature]' },
  { widget: 'smoothing', slider: 'bandwidth h2', number: '.kl-table tbody tr:nth-child(3) td' },
];

for (const figure of FIGURES) {
  test(`touch: a finger dragging ${figure.widget}'s ${figure.slider} slider changes its numbers`, async () => {
    const { page, errors } = await site.newPage(embedPath(figure.widget), { hasTouch: true, viewport: { width: 390, height: 844 } });
    const number = page.locator(figure.number).first();
    const before = await waitForText(number, /\d/, 30000);
    const slider = page.getByRole('slider', { name: figure.slider, exact: true });
    await slider.scrollIntoViewIfNeeded();
    const readout = await slider.evaluate((input) => input.nextElementSibling?.textContent);
    const box = await slider.boundingBox();
    const y = box.y + box.height / 2;
    /// Where the thumb is, as a fraction of the slider's range.
    const thumb = () => slider.evaluate((input) => (Number(input.value) - Number(input.min)) / (Number(input.max) - Number(input.min)));
    // From the thumb (at the slider's value) to the right end: the finger must grab the thumb.
    const thumbAt = await thumb();
    const start = box.x + box.width * thumbAt;
    const cdp = await page.context().newCDPSession(page);
    const touch = (type, x) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    await touch('touchStart', start);
    for (let i = 1; i <= 10; i++) await touch('touchMove', start + ((box.x + box.width - 2 - start) * i) / 10);
    await touch('touchEnd');
    // The finger ended at the slider's right end, and the thumb followed it there.
    const thumbEnd = await thumb();
    assert.ok(thumbEnd > 0.95 && thumbAt < 0.9, `thumb moved from ${thumbAt} to ${thumbEnd}`);
    await page.waitForFunction(
      ([name, text]) => {
        const input = [...document.querySelectorAll('input[type=range]')].find((node) => node.getAttribute('aria-label') === name);
        return input?.nextElementSibling?.textContent !== text;
      },
      [figure.slider, readout],
      { timeout: 15000 },
    );
    await page.waitForFunction(
      ([selector, text]) => {
        const value = document.querySelector(selector)?.textContent ?? '';
        return /\d/.test(value) && value !== text;
      },
      [figure.number, before],
      { timeout: 15000 },
    );
    assert.deepEqual(errors, []);
  });
}
