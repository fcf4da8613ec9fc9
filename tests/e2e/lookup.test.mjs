// Figure 12.1 in the browser: the chapter's weights and prediction at q = 3.5, h = 0.6, and
// keyboard, slider and pointer input changing them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, findCursor, grid, openSite, press, screenshot, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

/// The chapter's printed numbers (section 12 opening): weights (0.0002, 0.9413, 0.0585), prediction 2.7412.
const CHAPTER = { weights: ['0.0002', '0.9413', '0.0585'], prediction: '2.7412' };

async function weightCells(page) {
  return page.locator('.kl-table tbody tr td:nth-child(4)').allTextContents();
}

test('lookup shows the chapter weights and prediction at q = 3.5, h = 0.6', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'));
  const prediction = page.getByTestId('prediction');
  assert.equal(await waitForText(prediction, /\d/), CHAPTER.prediction);
  assert.deepEqual(await weightCells(page), CHAPTER.weights);
  // The weights' sum from the core's rowSums, in the weight column's four decimals.
  assert.equal(await waitForText(page.locator('.kl-table tfoot td:nth-child(4)'), /^\d/), '1.0000');
  await afterDrawn(page.locator('figure.kl-widget'));
  await screenshot(page, 'lookup');
  assert.deepEqual(errors, []);
});

test('the bandwidth and query sliders have accessible names and work from the keyboard', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'));
  const prediction = page.getByTestId('prediction');
  await waitForText(prediction, /^2\.7412$/);
  const bandwidth = page.getByRole('slider', { name: /bandwidth/ });
  const query = page.getByRole('slider', { name: /query/ });
  await bandwidth.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const wider = await waitForText(prediction, /^(?!2\.7412$)/);
  assert.notEqual(wider, CHAPTER.prediction);
  await query.focus();
  await page.keyboard.press('ArrowLeft');
  await waitForText(prediction, new RegExp(`^(?!${wider.replace('.', '\\.')}$)`));
  assert.deepEqual(errors, []);
});

test('the sum row keeps the column’s four decimals where the core’s sum is 0.9999999999999999', async () => {
  // At q = 0.1, h = 0.6 the three chapter weights add up to 1 − 2⁻⁵³ in double precision.
  const { page, errors } = await site.newPage(embedPath('lookup', { q: '0.1', h: '0.6' }));
  assert.equal(await waitForText(page.locator('.kl-table tfoot td:nth-child(4)'), /^\d/), '1.0000');
  assert.deepEqual(errors, []);
});

test('URL parameters set the state: q = 3 with h = 0.6 puts nearly all weight on k2', async () => {
  const { page } = await site.newPage(embedPath('lookup', { q: '3', h: '0.6' }));
  await waitForText(page.getByTestId('prediction'), /\d/);
  const weights = (await weightCells(page)).map(Number);
  assert.ok(weights[1] > 0.93 && weights[1] < 1, `weights ${weights}`);
});

test('dragging the query line on the chart moves the query; clicking empty space adds a point', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'));
  const prediction = page.getByTestId('prediction');
  await waitForText(prediction, /^2\.7412$/);
  const canvas = page.locator('.kl-chart--interactive canvas');
  const box = await canvas.boundingBox();
  // Find the query line by the grab cursor the chart shows over it, then drag it left.
  const y = box.y + box.height * 0.45;
  const line = await findCursor(page, canvas, 'ew-resize', () => grid({ x0: box.x + box.width * 0.3, x1: box.x + box.width, dx: 3 }, { y0: y, y1: y + 1, dy: 1 }));
  assert.ok(line, 'the query line is grabbable');
  const startX = line.x;
  await page.mouse.move(startX, y);
  await page.mouse.down();
  await page.mouse.move(startX - 40, y, { steps: 5 });
  await page.mouse.up();
  const moved = await waitForText(page.locator('.kl-readout'), /f̂\((?!3\.50)/);
  assert.match(moved, /f̂\(\d\.\d\d\)/);
  assert.notEqual(await prediction.textContent(), CHAPTER.prediction);

  const rows = page.locator('.kl-table tbody tr');
  assert.equal(await rows.count(), 3);
  await page.mouse.click(box.x + box.width * 0.85, box.y + box.height * 0.15);
  await page.waitForFunction(() => document.querySelectorAll('.kl-table tbody tr').length === 4);
  await page.getByRole('button', { name: 'Remove point k4' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.kl-table tbody tr').length === 3);
  await page.getByRole('button', { name: /Reset/ }).click();
  await waitForText(prediction, /^2\.7412$/);
  assert.deepEqual(errors, []);
});

test('dragging a point moves that point only; double-clicking it removes it', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'));
  const prediction = page.getByTestId('prediction');
  await waitForText(prediction, /^2\.7412$/);
  // k3 = (5, 1.8) lies right of the middle, below the middle: find it by the grab cursor.
  const canvas = page.locator('.kl-chart--interactive canvas');
  const found = await findCursor(page, canvas, 'grab', (box) =>
    grid({ x0: box.x + box.width * 0.65, x1: box.x + box.width * 0.98, dx: 8 }, { y0: box.y + box.height * 0.3, y1: box.y + box.height * 0.8, dy: 8 }),
  );
  assert.ok(found, 'the point k3 is grabbable');
  // Each point's key is the number field in its row's second cell.
  const keys = () => page.locator('.kl-table tbody tr td:nth-child(2) input').evaluateAll((inputs) => inputs.map((input) => input.value));
  assert.deepEqual(await keys(), ['1.00', '3.00', '5.00']);
  await page.mouse.down();
  await page.mouse.move(found.x - 30, found.y - 40, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('.kl-table tbody tr:nth-child(3) td:nth-child(2) input')?.value !== '5.00');
  const moved = await keys();
  assert.deepEqual(moved.slice(0, 2), ['1.00', '3.00']);
  assert.ok(Number(moved[2]) < 5, `k3 moved to ${moved[2]}`);
  await page.mouse.dblclick(found.x - 30, found.y - 40);
  await page.waitForFunction(() => document.querySelectorAll('.kl-table tbody tr').length === 2);
  assert.deepEqual(await keys(), ['1.00', '3.00']);
  assert.deepEqual(errors, []);
});

test('mismatched keys and values fall back with a visible note', async () => {
  const { page } = await site.newPage(embedPath('lookup', { keys: '1,2', values: '1,2,3', h: 'wide' }));
  const notes = page.locator('.kl-widget__note');
  await waitForText(page.locator('.kl-widget__note', { hasText: 'Invalid parameters' }), /h=wide/);
  await waitForText(page.getByTestId('prediction'), /^2\.7412$/);
  assert.ok((await notes.allTextContents()).some((text) => /same length/.test(text)));
});

test('touch: a tap on empty space adds a point and a touch drag moves the query', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'), { hasTouch: true });
  const prediction = page.getByTestId('prediction');
  await waitForText(prediction, /^2\.7412$/);
  const box = await page.locator('.kl-chart--interactive canvas').boundingBox();
  await page.touchscreen.tap(box.x + box.width * 0.85, box.y + box.height * 0.15);
  await page.waitForFunction(() => document.querySelectorAll('.kl-table tbody tr').length === 4);

  const cdp = await page.context().newCDPSession(page);
  const y = box.y + box.height * 0.75;
  const touch = (type, x) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  await touch('touchStart', box.x + box.width * 0.3);
  for (let i = 1; i <= 6; i++) await touch('touchMove', box.x + box.width * (0.3 - i * 0.02));
  await touch('touchEnd');
  await waitForText(page.locator('.kl-readout'), /f̂\((?!3\.50)/);
  assert.deepEqual(errors, []);
});

test('the prediction star is as large on a 2× screen as on a 1× one', async () => {
  // Pixels of the star's orange in the points chart: the star and the dashed query line. On a 2×
  // screen every shape covers four times the device pixels; a star drawn from a picture at its
  // pixel size would cover sixteen times as many (the whole count gave a ratio of 19.7 so).
  const orangePixels = async (deviceScaleFactor) => {
    const { page, errors } = await site.newPage(embedPath('lookup'), { deviceScaleFactor });
    await waitForText(page.getByTestId('prediction'), /^2\.7412$/);
    // Counted once both charts show the core's answer (the figure's drawn signal).
    await afterDrawn(page.locator('figure.kl-widget'));
    const count = await page.locator('.kl-chart--interactive canvas').evaluate((canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - 0xe5) + Math.abs(data[i + 1] - 0x72) + Math.abs(data[i + 2] - 0x00) < 40) n += 1;
      }
      return n;
    });
    assert.deepEqual(errors, []);
    return count;
  };
  const one = await orangePixels(1);
  const two = await orangePixels(2);
  assert.ok(one > 50, `${one} orange pixels at 1×`);
  const ratio = two / one;
  assert.ok(ratio > 3 && ratio < 5.5, `2× / 1× orange pixels = ${two} / ${one} = ${ratio.toFixed(2)}`);
});

/// The tick labels under the points chart, read off its pixels: the query line's column (the
/// column with the most orange), and the centre and width of each dark run of columns in the
/// first band of dark rows under the plot's bottom edge (the tick labels; the axis title is the
/// next band), right of the plot's left edge (the y axis' "0" straddles the bottom edge).
/// Reads them on each animation frame until `ready` holds ({ labels: n } — that many labels;
/// { queryLeftOf: x } — the query line left of column x), for up to 10 s: the chart paints in an
/// animation frame after the read-out's text changes, and a loaded machine can hold it back.
function tickLabelsWhen(page, ready) {
  return page.locator('.kl-chart--interactive canvas').evaluate((canvas, ready) => {
    const read = () => {
      const { width, height } = canvas;
      const { data } = canvas.getContext('2d').getImageData(0, 0, width, height);
      const orange = (i) => Math.abs(data[i] - 0xe5) + Math.abs(data[i + 1] - 0x72) + Math.abs(data[i + 2]) < 40;
      const dark = (i) => data[i] + data[i + 1] + data[i + 2] < 3 * 140;
      let queryX = 0;
      let most = 0;
      let bottom = 0;
      for (let x = 0; x < width; x++) {
        let n = 0;
        let last = 0;
        for (let y = 0; y < height; y++) if (orange(4 * (y * width + x))) (n += 1), (last = y);
        if (n > most) (most = n), (queryX = x), (bottom = last);
      }
      // The bottom edge: the row near the query line's end with the longest run of drawn pixels
      // (the axis line); the run's start is the plot's left edge (less the y ticks' marks).
      const drawn = (i) => Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) > 12;
      let edge = bottom;
      let left = 0;
      let longest = 0;
      for (let y = Math.max(0, bottom - 8); y < Math.min(height, bottom + 8); y++) {
        for (let x = 0, run = 0; x < width; x++) {
          run = drawn(4 * (y * width + x)) ? run + 1 : 0;
          if (run > longest) (longest = run), (edge = y), (left = x - run + 1);
        }
      }
      const rowDark = (y) => {
        for (let x = left; x < width; x++) if (dark(4 * (y * width + x))) return true;
        return false;
      };
      let top = edge + 1;
      while (top < height && !rowDark(top)) top++;
      let end = top;
      while (end < height && rowDark(end)) end++;
      // Columns with ink, joined across gaps of up to 5 columns (between a label's characters).
      const runs = [];
      for (let x = left; x < width; x++) {
        let inked = false;
        for (let y = top; y < end; y++) if (dark(4 * (y * width + x))) inked = true;
        if (!inked) continue;
        const run = runs.at(-1);
        if (run && x - run.to <= 6) run.to = x;
        else runs.push({ from: x, to: x });
      }
      return { queryX, labels: runs.map((run) => ({ centre: (run.from + run.to) / 2, width: run.to - run.from + 1 })) };
    };
    const holds = (ticks) =>
      (ready.labels === undefined || ticks.labels.length === ready.labels) && (ready.queryLeftOf === undefined || ticks.queryX < ready.queryLeftOf);
    const deadline = performance.now() + 10000;
    return new Promise((resolve) => {
      const frame = () => {
        const ticks = read();
        if (holds(ticks) || performance.now() > deadline) resolve(ticks);
        else requestAnimationFrame(frame);
      };
      frame();
    });
  }, ready);
}

test('the location axis has the chapter\'s ticks: one at each key and "q=3.5" at the query', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'));
  await waitForText(page.getByTestId('prediction'), /^2\.7412$/);
  const chapter = await tickLabelsWhen(page, { labels: 4 });
  // Four labels: 1, 3, q=3.5, 5 at their places on a linear axis (the query 5/8 of the way from
  // key 1 to key 5); the query's is the widest and sits under the query line.
  assert.equal(chapter.labels.length, 4, JSON.stringify(chapter));
  const [one, three, q, five] = chapter.labels;
  const along = (label) => (label.centre - one.centre) / (five.centre - one.centre);
  assert.ok(Math.abs(along(three) - 0.5) < 0.03, JSON.stringify(chapter));
  assert.ok(Math.abs(along(q) - 0.625) < 0.03, JSON.stringify(chapter));
  assert.ok(Math.abs(q.centre - chapter.queryX) < 4, JSON.stringify(chapter));
  assert.ok(q.width > 2 * Math.max(one.width, three.width, five.width), JSON.stringify(chapter));

  // The query's label follows the query slider.
  await press(page.getByRole('slider', { name: /query/ }), 'ArrowLeft', 20);
  await waitForText(page.locator('.kl-readout'), /f̂\(2\.50\)/);
  const moved = await tickLabelsWhen(page, { queryLeftOf: chapter.queryX - 20 });
  assert.equal(moved.labels.length, 4, JSON.stringify(moved));
  assert.ok(Math.abs(moved.labels[1].centre - moved.queryX) < 4, JSON.stringify(moved));
  assert.ok(moved.queryX < chapter.queryX - 20, JSON.stringify(moved));
  assert.deepEqual(errors, []);
});

test('a key under the query, or too near it for both labels, gives its label to the query\'s', async () => {
  const { page } = await site.newPage(embedPath('lookup', { q: '3' }));
  await waitForText(page.getByTestId('prediction'), /\d/);
  const { queryX, labels } = await tickLabelsWhen(page, { labels: 3 });
  assert.equal(labels.length, 3, JSON.stringify(labels));
  assert.ok(Math.abs(labels[1].centre - queryX) < 4, JSON.stringify(labels));

  // On a 360 px screen "3" and "q=3.5" would touch: the key's label makes way for the query's.
  const narrow = await site.newPage(embedPath('lookup'), { viewport: { width: 360, height: 640 } });
  await waitForText(narrow.page.getByTestId('prediction'), /^2\.7412$/);
  const crowded = await tickLabelsWhen(narrow.page, { labels: 3 });
  assert.equal(crowded.labels.length, 3, JSON.stringify(crowded));
  assert.ok(Math.abs(crowded.labels[1].centre - crowded.queryX) < 4, JSON.stringify(crowded));
  assert.deepEqual(narrow.errors, []);
});
