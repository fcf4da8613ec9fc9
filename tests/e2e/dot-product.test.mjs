// Section 12.6's dot product in the browser: q = (1, 0), k1 = (1, 0), k2 = (2, 0) give dot scores
// 1 and 2 against negative squared distances 0 and −1; sliders and dragging change them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, findCursor, grid, openSite, screenshot, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

const column = (page, index) => page.locator('.kl-table tbody td:nth-child(' + index + ')').allTextContents();

test("the chapter's example: dot products 1 and 2, negative squared distances 0 and −1", async () => {
  const { page, errors } = await site.newPage(embedPath('dot-product'));
  assert.equal(await waitForText(page.getByTestId('dot-scores'), /\d/), '(1.00, 2.00)');
  assert.equal(await page.getByTestId('distance-scores').textContent(), '(0.00, −1.00)');
  const readout = await page.locator('.kl-readout').textContent();
  assert.match(readout, /\(1\.00, 2\.00\) → k2 ranks first; .*\(0\.00, −1\.00\) → k1 ranks first/);
  // softmax([1, 2]) = (0.2689, 0.7311) and softmax([0, −1]) = (0.7311, 0.2689) (NumPy).
  assert.deepEqual(await column(page, 5), ['0.2689', '0.7311']);
  assert.deepEqual(await column(page, 7), ['0.7311', '0.2689']);
  assert.deepEqual(await column(page, 3), ['1.00', '4.00']);
  assert.equal(await page.locator('canvas[role="img"]').count(), 1);
  await afterDrawn(page.locator('figure.kl-widget'));
  await screenshot(page, 'dot-product');
  assert.deepEqual(errors, []);
});

test('shrinking k2 to (1, 0) from the keyboard makes the dot products tie', async () => {
  const { page, errors } = await site.newPage(embedPath('dot-product'));
  await waitForText(page.getByTestId('dot-scores'), /\d/);
  const k2x = page.getByRole('slider', { name: 'key k2 coordinate 1' });
  await k2x.focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft');
  assert.equal(await waitForText(page.getByTestId('dot-scores'), /^\(1\.00, 1\.00\)$/), '(1.00, 1.00)');
  assert.equal(await page.getByTestId('distance-scores').textContent(), '(0.00, 0.00)');
  assert.match(await page.locator('.kl-readout').textContent(), /a tie/);
  const q2 = page.getByRole('slider', { name: 'query q coordinate 2' });
  await q2.focus();
  await page.keyboard.press('ArrowRight');
  await waitForText(page.getByTestId('distance-scores'), /^\(−0\.01, −0\.01\)$/);
  assert.deepEqual(errors, []);
});

test('dragging the k2 arrow head changes both scores; URL parameters set the vectors', async () => {
  const { page, errors } = await site.newPage(embedPath('dot-product'));
  await waitForText(page.getByTestId('dot-scores'), /^\(1\.00, 2\.00\)$/);
  const canvas = page.locator('.kl-chart--interactive canvas');
  const box = await canvas.boundingBox();
  // Scan the horizontal axis from the right until the cursor offers to grab k2's head.
  const found = await findCursor(page, canvas, 'grab', function* () {
    for (const f of [0.5, 0.48, 0.46, 0.52, 0.54]) {
      const y = box.y + box.height * f;
      yield* grid({ x0: box.x + box.width - 2, x1: box.x + box.width * 0.5, dx: -3 }, { y0: y, y1: y + 1, dy: 1 });
    }
  });
  assert.ok(found, 'the k2 head is grabbable');
  await page.mouse.move(found.x, found.y);
  await page.mouse.down();
  await page.mouse.move(found.x, found.y - box.height * 0.25, { steps: 5 });
  await page.mouse.up();
  await waitForText(page.getByTestId('distance-scores'), /^\(0\.00, (?!−1\.00\))/);
  assert.equal(await page.getByTestId('dot-scores').textContent(), '(1.00, 2.00)');

  const custom = await site.newPage(embedPath('dot-product', { q: '0,1', k1: '0,2', k2: '3,0' }));
  assert.equal(await waitForText(custom.page.getByTestId('dot-scores'), /\d/), '(2.00, 0.00)');
  assert.equal(await custom.page.getByTestId('distance-scores').textContent(), '(−1.00, −10.00)');
  assert.deepEqual(errors, []);
});
