// Figure 12.3 (right) in the browser: the chapter's shapes line and row-sum error at h = 0.18, the
// key-location ticks, the linked row view by keyboard and pointer, the log scale, and large maps.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, openSite, press, screenshot, waitForText } from './harness.mjs';

const interpolation = JSON.parse(readFileSync(new URL('../fixtures/interpolation.json', import.meta.url), 'utf8'));
const ascii = (text) => text.replace(/−/g, '-');

/// Waits until the figure has drawn its first map: the core's answers shown, the row's chart drawn
/// and the map's image painted at the default 31 × 60 cells.
async function firstMapDrawn(page) {
  await afterDrawn(page.locator('.kl-widget'));
  await page.waitForFunction((c) => c.width === 60 && c.height === 31, await page.locator('.kl-heatmap__image').elementHandle());
}

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

test('at h = 0.18 the chapter prints the shapes line and a 2.22e-16 row-sum error', async () => {
  const { page, errors } = await site.newPage(embedPath('attention-map'));
  assert.equal(
    await waitForText(page.getByTestId('shapes'), /AV/),
    'Q (31, 1), K (60, 1), V (60, 1), A (31, 60), AV (31, 1)',
  );
  assert.equal(await waitForText(page.getByTestId('row-sum-error'), /e/), '2.22e-16');
  // The read-outs are set when the result arrives; the map, its ticks and its canvas size are
  // painted in the next animation frame, which a loaded machine can hold back.
  const image = page.locator('.kl-heatmap__image');
  await firstMapDrawn(page);
  const ticks = await page.locator('.kl-heatmap__x-ticks .kl-heatmap__tick').allTextContents();
  assert.deepEqual(ticks.map(ascii), interpolation.tick_labels);
  assert.match(await page.locator('.kl-map__title').textContent(), /h = 0\.18/);
  assert.equal(await image.getAttribute('role'), 'img');
  await screenshot(page, 'attention-map');
  assert.deepEqual(errors, []);
});

test('the highlighted row follows the keyboard and the pointer', async () => {
  const { page } = await site.newPage(embedPath('attention-map'));
  await waitForText(page.getByTestId('row-sum-error'), /e/);
  const query = page.getByTestId('row-query');
  assert.equal(await waitForText(query, /\d/), '0.0000');
  const before = await page.getByTestId('row-prediction').textContent();
  await press(page.getByRole('slider', { name: 'highlighted query', exact: true }), 'ArrowRight', 5);
  assert.equal(await waitForText(query, /^0\.9667$/), '0.9667');
  assert.notEqual(await page.getByTestId('row-prediction').textContent(), before);

  const box = await page.locator('.kl-heatmap__plot').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height - 2);
  assert.equal(await waitForText(query, /^−2\.9/), '−2.9000');
  assert.equal(await page.getByRole('slider', { name: 'highlighted query', exact: true }).inputValue(), '0');
});

test('one coordinate system, rows named by q, 1-based keys, and a colour note that follows the state', async () => {
  const { page, errors } = await site.newPage(embedPath('attention-map'));
  await waitForText(page.getByTestId('row-sum-error'), /e/);
  await firstMapDrawn(page);
  const slider = page.getByRole('slider', { name: 'highlighted query', exact: true });
  assert.equal(await waitForText(page.locator('.kl-control__value').filter({ hasText: /^q = / }), /\d/), 'q = 0.00');
  assert.equal(await slider.getAttribute('aria-valuetext'), 'q = 0.00');
  await press(slider, 'ArrowLeft', 15);
  assert.equal(await waitForText(page.getByTestId('row-query'), /^−2\.9/), '−2.9000');
  assert.equal(await slider.getAttribute('aria-valuetext'), 'q = −2.90');
  await press(slider, 'ArrowRight', 15);
  await waitForText(page.getByTestId('row-query'), /^0\.0000$/);
  // The table names keys k₁…k₆₀ (sorted), never a 0-based index.
  const names = await page.locator('.kl-map__column .kl-table tbody th, .kl-map__column .kl-table tbody td:first-child').allTextContents();
  assert.ok(names.length > 0 && names.every((name) => /^k[₀-₉]+$/.test(name) && !/^k₀$/.test(name)), names.join(' '));
  assert.ok(names.includes('k₂₆'), names.join(' '));
  // The bar chart's key axis is the heat map's: sorted keys labelled by location.
  assert.equal(await page.locator('canvas[aria-label*="on the map’s key axis"]').count(), 1);
  // At h = 0.18 nothing underflows, and the note says so with the smallest weight.
  const note = await page.locator('.kl-map__range').textContent();
  assert.match(note, /^Linear colour scale: black = \d\.\d\de-\d+, the smallest weight .*; brightest = 0\.6151, the largest\./);
  assert.match(note, /At h = 0\.18 no weight underflows: the smallest is \d\.\d\de-\d+ > 0\./);
  assert.doesNotMatch(note, /underflow to exactly 0/);
  assert.deepEqual(errors, []);
});

test('the bandwidth changes the map and the log scale shows the underflowed cells', async () => {
  const { page, errors } = await site.newPage(embedPath('attention-map', { h: '0.05' }));
  await waitForText(page.getByTestId('row-sum-error'), /e/);
  assert.match(await page.locator('.kl-map__title').textContent(), /h = 0\.05/);
  await page.getByRole('button', { name: 'Log colour scale' }).click();
  assert.match(await waitForText(page.locator('.kl-map__range'), /Log/), /At h = 0\.05 some weights underflow to exactly 0 \(grey cells\)/);
  await screenshot(page, 'attention-map-log');
  await press(page.getByRole('slider', { name: 'bandwidth h' }), 'ArrowRight', 40);
  await waitForText(page.locator('.kl-map__title'), /h = 0\.(0[6-9]|[1-9])/);
  assert.deepEqual(errors, []);
});

test('h = 0 is refused with a message and the last map stays', async () => {
  const { page } = await site.newPage(embedPath('attention-map'));
  await waitForText(page.getByTestId('row-sum-error'), /e/);
  await page.getByRole('spinbutton', { name: /bandwidth/ }).fill('0');
  await page.getByRole('spinbutton', { name: /bandwidth/ }).press('Enter');
  assert.match(await waitForText(page.locator('.kl-widget__error'), /refused/), /bandwidth/);
  assert.equal(await page.getByTestId('row-sum-error').textContent(), '2.22e-16');
});

test('241 × 60 and 2048 × 2048 maps are one image each, of at most the plot\'s pixels', async () => {
  const { page, errors } = await site.newPage(embedPath('attention-map', { queries: '241' }));
  assert.equal(await waitForText(page.getByTestId('shapes'), /A \(241, 60\)/), 'Q (241, 1), K (60, 1), V (60, 1), A (241, 60), AV (241, 1)');
  // How fast this is belongs to `npm run bench`; here only that it arrives.
  await page.getByRole('button', { name: '2048 × 2048' }).click();
  await waitForText(page.getByTestId('shapes'), /A \(2048, 2048\)/, 120000);
  // The core sends the image at the plot's size (each pixel the mean of its cells), not 2048².
  const size = await page.waitForFunction(() => {
    const canvas = document.querySelector('.kl-heatmap__image');
    const plot = document.querySelector('.kl-heatmap__plot');
    const width = Math.round(plot.clientWidth * devicePixelRatio);
    const height = Math.round(plot.clientHeight * devicePixelRatio);
    return Math.abs(canvas.width - width) <= 1 && Math.abs(canvas.height - height) <= 1 && { width: canvas.width, height: canvas.height };
  });
  const { width, height } = await size.jsonValue();
  assert.ok(width < 2048 && height < 2048 && width > 100 && height > 100, `image ${width} × ${height}`);
  assert.equal(await page.locator('.kl-heatmap canvas').count(), 3);
  await screenshot(page, 'attention-map-2048');
  assert.deepEqual(errors, []);
});

test('usable at 360 px and in the dark theme', async () => {
  const { page } = await site.newPage(embedPath('attention-map'), { viewport: { width: 360, height: 1400 }, colorScheme: 'dark' });
  await waitForText(page.getByTestId('row-sum-error'), /e/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  await firstMapDrawn(page);
  await screenshot(page, 'attention-map-360-dark');
});

test('a large map still computing when the reader switches to a small one never replaces it', async () => {
  // A new bandwidth sends a 2048 × 2048 map to the worker (the map keeps up to two requests
  // going); the 31 × 60 preset, clicked in the same task, is answered on the page first: the
  // older, larger answer arriving after it is dropped. The figure counts as drawn only once every
  // request it made has been answered, the large one too.
  const { page, errors } = await site.newPage(embedPath('attention-map', { queries: '2048', keys: '2048', h: '0.3' }), {
    init: () => {
      globalThis.kernelLensEngineLog = [];
    },
  });
  await waitForText(page.getByTestId('shapes'), /A \(2048, 2048\)/, 60000);
  const figure = page.locator('.kl-widget');
  await afterDrawn(figure, undefined, 60000);
  const asked = await page.evaluate(() => globalThis.kernelLensEngineLog.length);
  await afterDrawn(
    figure,
    () =>
      page.evaluate(() => {
        const slider = document.querySelector('input[type=range][aria-label^="bandwidth h"]');
        slider.value = String(Number(slider.value) + 0.05 * (Number(slider.max) - Number(slider.min)));
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        [...document.querySelectorAll('button')].find((button) => button.textContent === '31 × 60 (Figure 12.3)').click();
      }),
    60000,
  );
  const maps = (await page.evaluate((from) => globalThis.kernelLensEngineLog.slice(from), asked)).filter((entry) => entry.fns === 'attentionMap');
  // Both maps were asked: the large one in the worker, then the small one.
  assert.ok(maps.length >= 2 && maps[0].where === 'worker', JSON.stringify(maps));
  assert.equal(await page.getByTestId('shapes').textContent(), 'Q (31, 1), K (60, 1), V (60, 1), A (31, 60), AV (31, 1)');
  assert.deepEqual(errors, []);
});
