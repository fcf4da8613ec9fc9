// The your-data widget in the browser: the chapter's lookup reproduced from a pasted table, every
// kind of junk refused with its row/column message while the previous data stays on screen, and
// keyboard, table and upload input changing the numbers.
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

/// The chapter's opening example (q = 3.5, h = 0.6 over (1, 1.5), (3, 2.8), (5, 1.8)): 2.7412.
const CHAPTER_PREDICTION = '2.7412';
const STILL_SHOWN = '. The previous data is still shown.';
const CELL_RESTORED = '. The previous data is still shown; the edited cell is back to its last accepted value.';

/// Leave-one-out MSE of Gaussian Nadaraya–Watson, written out independently of the core.
function looMse(keys, values, h) {
  let total = 0;
  keys.forEach((x, i) => {
    let num = 0;
    let den = 0;
    keys.forEach((k, j) => {
      if (j === i) return;
      const w = Math.exp(-((x - k) ** 2) / (2 * h * h));
      num += w * values[j];
      den += w;
    });
    total += (num / den - values[i]) ** 2;
  });
  return total / keys.length;
}

async function openWidget(params = {}) {
  const opened = await site.newPage(embedPath('your-data', params));
  await waitForText(opened.page.getByTestId('prediction'), /\d/);
  return opened;
}

async function submit(page, text) {
  await page.getByTestId('csv-text').fill(text);
  await page.getByRole('button', { name: 'Use this data' }).click();
}

/// Puts a huge text in the box and submits it from inside the page (no typing, no waiting for layout).
/// `text` is the data, or `{ repeat, times }`: `repeat` written `times` times, built in the page
/// (a 50 MB string would otherwise cross the DevTools protocol as JSON).
async function useText(page, text) {
  await page.evaluate((spec) => {
    const area = document.querySelector('[data-testid="csv-text"]');
    const value = typeof spec === 'string' ? spec : spec.repeat.repeat(spec.times);
    area.value = value;
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Use this data').click();
    area.value = '';
  }, text);
}

/// Asserts the inline message and that the chapter's data and prediction are still on screen.
async function assertRefused(page, message) {
  // Waits for this message: the previous refusal's stays on screen until the core has answered.
  const expected = message + STILL_SHOWN;
  const escaped = expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const shown = await waitForText(page.getByTestId('data-message'), new RegExp(`^${escaped}$`));
  assert.equal(shown, expected);
  assert.equal(await page.getByTestId('prediction').textContent(), CHAPTER_PREDICTION);
  assert.match(await page.getByTestId('data-summary').textContent(), /^3 rows; 1 key column/);
}

test('the default table reproduces the chapter lookup and an independent leave-one-out value', async () => {
  const { page, errors } = await openWidget();
  assert.equal(await page.getByTestId('prediction').textContent(), CHAPTER_PREDICTION);
  const loo = looMse([1, 3, 5], [1.5, 2.8, 1.8], 0.6);
  assert.equal(await page.getByTestId('loo').textContent(), loo.toFixed(4));
  assert.equal(await page.getByTestId('data-message').isHidden(), true);
  await screenshot(page, 'your-data');

  // The chart's axes are named as the table's columns (its "Show data" header reads them).
  const chartHead = async () => {
    const disclosure = page.locator('.kl-chart-data').first();
    if (!(await disclosure.evaluate((node) => node.open))) await disclosure.locator('summary').click();
    return disclosure.locator('thead th').allTextContents();
  };
  assert.deepEqual(await chartHead(), ['series', 'location (key)', 'response (value)']);
  await submit(page, 'Distance km,Price\n1,2\n2,3\n4,1');
  await waitForText(page.getByTestId('data-summary'), /^3 rows; 1 key column \(Distance km\)/);
  await page.getByTestId('prediction').filter({ hasNotText: CHAPTER_PREDICTION }).waitFor();
  await page.waitForFunction(() => document.querySelector('.kl-chart-data thead')?.textContent.includes('Distance km (key)'));
  assert.deepEqual(await chartHead(), ['series', 'Distance km (key)', 'Price (value)']);
  // A name too long for the axis is cut on the canvas; the data table names it whole.
  const long = 'Distance from the city centre in kilometres';
  await submit(page, `${long},Average monthly rent in euros\n1,2\n2,3\n4,1`);
  await page.waitForFunction((name) => document.querySelector('.kl-chart-data thead')?.textContent.includes(name), long);
  assert.deepEqual(await chartHead(), ['series', `${long} (key)`, 'Average monthly rent in euros (value)']);
  assert.deepEqual(errors, []);
});

test('every kind of junk gets its row and column message and the previous data stays', async () => {
  const { page, errors } = await openWidget();
  const cases = [
    ['x,y\n1,2\n3,abc\n', 'row 3, column 2 ("y"): "abc" is not a number'],
    ['x,y\n1,2\nNaN,3\n', 'row 3, column 1 ("x"): "NaN" is NaN (not a number); every cell must be a finite number'],
    ['x,y\n1,Inf\n2,3\n', 'row 2, column 2 ("y"): "Inf" is infinite; every cell must be a finite number'],
    ['x,y\n1,2\n-Infinity,3\n', 'row 3, column 1 ("x"): "-Infinity" is minus infinity; every cell must be a finite number'],
    ['x,y\n1,2\n3,4,5\n', 'row 3 has 3 columns but row 1 has 2; column 3 is extra'],
    ['x,y,z\n1,2,3\n4,5\n', 'row 3 has 2 columns but row 1 has 3; column 3 is missing'],
    ['', 'the data is empty; paste or upload at least two rows of numbers'],
    ['x,y\n1,2\n', 'only one data row (row 2); smoothing and leave-one-out need at least 2 rows'],
    [
      "x,y\n1,2\n=cmd|' /C calc'!A0,3\n",
      'row 3, column 1 ("x"): "=cmd|\' /C calc\'!A0" looks like a spreadsheet formula; only plain numbers are accepted',
    ],
    ['x,y\n1,2\n3,@SUM(A1)\n', 'row 3, column 2 ("y"): "@SUM(A1)" looks like a spreadsheet formula; only plain numbers are accepted'],
    ['x,y\n1,\u0000\n', 'row 2, column 2: byte 0x00 is a control character; the data looks binary, and only plain text tables are accepted'],
  ];
  for (const [text, message] of cases) {
    await submit(page, text);
    await assertRefused(page, message);
  }
  assert.deepEqual(errors, []);
});

test('a million rows are refused by the row cap; a 50 MB file is refused by its size without reading it', async () => {
  const { page } = await openWidget();
  await useText(page, { repeat: '1,2\n', times: 1_000_000 });
  await assertRefused(page, 'row 5001 is data row 5,001; the limit is 5,000 data rows');

  await page.evaluate(() => {
    const input = document.querySelector('input[type=file]');
    const big = new File([new Uint8Array(50 * 1024 * 1024)], 'big.csv', { type: 'text/csv' });
    const transfer = new DataTransfer();
    transfer.items.add(big);
    input.files = transfer.files;
    input.dispatchEvent(new Event('change'));
  });
  await assertRefused(page, 'the file "big.csv" is 52,428,800 bytes; the limit is 4,194,304 bytes (4 MiB), so it was not read');

  await useText(page, { repeat: '1', times: 50 * 1024 * 1024 });
  await assertRefused(page, 'the data is at least 52,428,800 bytes; the limit is 4,194,304 bytes (4 MiB)');
});

test('an uploaded binary file is refused; an uploaded table is used', async () => {
  const { page } = await openWidget();
  // The reader's text in the box, not yet used: a refused file leaves it there.
  const typed = 'x,y\n1,2\n3,4\n';
  await page.getByTestId('csv-text').fill(typed);
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
  await page.locator('input[type=file]').setInputFiles({ name: 'figure.png', mimeType: 'image/png', buffer: png });
  await assertRefused(
    page,
    'row 1, column 1: it contains U+FFFD, a replaced byte; the data looks binary, and only plain text tables are accepted',
  );
  assert.equal(await page.getByTestId('csv-text').inputValue(), typed);
  const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]);
  await page.locator('input[type=file]').setInputFiles({ name: 'notes.zip', mimeType: 'application/zip', buffer: zip });
  await assertRefused(page, 'row 1, column 1: byte 0x03 is a control character; the data looks binary, and only plain text tables are accepted');
  assert.equal(await page.getByTestId('csv-text').inputValue(), typed);
  await page.locator('input[type=file]').setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
  await assertRefused(page, 'the data is empty; paste or upload at least two rows of numbers');
  assert.equal(await page.getByTestId('csv-text').inputValue(), typed);
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'grid.tsv', mimeType: 'text/tab-separated-values', buffer: Buffer.from('k\tv\n0\t0\n1\t1\n2\t0\n3\t1\n') });
  await waitForText(page.getByTestId('data-summary'), /^4 rows; 1 key column \(k\); value column: v\.$/);
  assert.equal(await page.getByTestId('data-message').isHidden(), true);
  // The accepted file's table is in the box now.
  assert.match(await page.getByTestId('csv-text').inputValue(), /^k,v\n0,0\n1,1\n2,0\n3,1\n?$/);
});

test('duplicate keys are accepted with a warning naming the rows', async () => {
  const { page } = await openWidget();
  await submit(page, 'x,y\n1,1\n2,2\n1,3\n');
  await waitForText(page.getByTestId('data-warnings'), /same key/);
  await waitForText(page.getByTestId('data-summary'), /^3 rows; 1 key column \(x\)/);
  assert.equal(
    await page.getByTestId('data-warnings').textContent(),
    'rows 2 and 4 have the same key (1); 1 row repeats an earlier key. They are kept: the estimator averages their values.',
  );
});

test('nothing typed is inserted as HTML', async () => {
  const { page, errors } = await openWidget();
  const name = '<img src=x onerror="window.__pwned=1">';
  await submit(page, `${name},<b>y</b>\n1,2\n3,4\n`);
  await waitForText(page.getByTestId('data-summary'), /<img src=x/);
  await submit(page, 'x,y\n1,<script>window.__pwned=2</script>\n');
  await waitForText(page.getByTestId('data-message'), /script/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('.kl-widget img, .kl-widget b, .kl-widget__body script').count(), 0);
  assert.ok((await page.locator('.kl-table th').allTextContents()).includes(name));
  assert.deepEqual(errors, []);
});

test('keyboard, kernel choice and table edits change the numbers; a bad cell is refused', async () => {
  const { page, errors } = await openWidget();
  const prediction = page.getByTestId('prediction');
  // The chapter's example as it opens is the one Reset gives back: its table's column names too.
  const opened = { text: await page.getByTestId('csv-text').inputValue(), header: await page.locator('.kl-table th').allTextContents() };
  assert.match(opened.text, /^location,response\n/);
  const bandwidth = page.getByRole('slider', { name: /bandwidth/ });
  await bandwidth.focus();
  await page.keyboard.press('ArrowRight');
  const wider = await waitForText(prediction, new RegExp(`^(?!${CHAPTER_PREDICTION}$)\\d`));
  await page.getByRole('slider', { name: /query/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await waitForText(prediction, new RegExp(`^(?!${wider.replace('.', '\\.')}$)\\d`));
  await page.getByRole('combobox', { name: 'kernel' }).selectOption('laplacian');
  await page.getByRole('button', { name: /Reset/ }).click();
  await waitForText(prediction, new RegExp(`^${CHAPTER_PREDICTION}$`));
  assert.deepEqual({ text: await page.getByTestId('csv-text').inputValue(), header: await page.locator('.kl-table th').allTextContents() }, opened);

  const cell = page.getByRole('textbox', { name: 'row 2, response' });
  await cell.fill('4');
  await cell.press('Enter');
  await waitForText(prediction, new RegExp(`^(?!${CHAPTER_PREDICTION}$)\\d`));
  const edited = await prediction.textContent();
  const again = page.getByRole('textbox', { name: 'row 2, response' });
  await again.fill('four');
  await again.press('Enter');
  const message = await waitForText(page.getByTestId('data-message'), /\S/);
  assert.equal(message, 'row 3, column 2 ("response"): "four" is not a number' + CELL_RESTORED);
  assert.equal(await prediction.textContent(), edited);
  // The refused cell shows its last accepted value again, not the refused text.
  assert.equal(await again.inputValue(), '4');
  const formula = page.getByRole('textbox', { name: 'row 1, location' });
  await formula.fill('=1+1');
  await formula.press('Enter');
  await waitForText(page.getByTestId('data-message'), /=1\+1/);
  assert.equal(
    await page.getByTestId('data-message').textContent(),
    'row 2, column 1 ("location"): "=1+1" looks like a spreadsheet formula; only plain numbers are accepted' + CELL_RESTORED,
  );
  assert.equal(await formula.inputValue(), '1');
  assert.equal(await prediction.textContent(), edited);
  // Empty, too large, and ten thousand digits: each refused by name (a long entry cut), the cell
  // back to its value, the answer unchanged.
  for (const [typed, reason] of [
    ['', /is empty; expected a number/],
    ['1e13', /"1e13" is too large; numbers must lie within ±1000000000000/],
    ['9'.repeat(10000), /"9{8,40}…[^"]*" is too large/],
  ]) {
    await formula.fill(typed);
    await formula.press('Enter');
    const said = await waitForText(page.getByTestId('data-message'), reason);
    assert.ok(said.endsWith(CELL_RESTORED), said);
    assert.ok(said.length < 400, `the refused entry is cut in the message (${said.length} characters)`);
    assert.equal(await formula.inputValue(), '1');
    assert.equal(await prediction.textContent(), edited);
  }
  assert.deepEqual(errors, []);
});

test('small data travels in the URL; two key columns show fitted values; bad URL data falls back with a note', async () => {
  const { page } = await openWidget({ keys: '0,1,2,3', values: '0,1,0,1', h: '0.5', q: '1.5' });
  assert.match(await page.getByTestId('data-summary').textContent(), /^4 rows; 1 key column/);
  assert.equal(await page.getByTestId('loo').textContent(), looMse([0, 1, 2, 3], [0, 1, 0, 1], 0.5).toFixed(4));

  const two = await site.newPage(embedPath('your-data', { d: '2', keys: '0,0,1,0,0,1,1,1', values: '1,2,3,4', h: '1' }));
  await waitForText(two.page.getByTestId('data-summary'), /^4 rows; 2 key columns \(x1, x2\)/);
  await waitForText(two.page.getByTestId('loo'), /\d/);
  await screenshot(two.page, 'your-data-2d');

  const bad = await site.newPage(embedPath('your-data', { keys: '1,2,3', values: '1,2', h: '0' }));
  const notes = bad.page.locator('.kl-widget__note');
  await waitForText(notes.first(), /h=0/);
  await waitForText(bad.page.getByTestId('prediction'), new RegExp(`^${CHAPTER_PREDICTION}$`));
});

/// Gaussian Nadaraya–Watson at each key of a d-column table, written out independently of the core.
function fittedAtKeys(keys, values, d, h) {
  const n = values.length;
  return values.map((_, i) => {
    let num = 0;
    let den = 0;
    for (let j = 0; j < n; j++) {
      let distance2 = 0;
      for (let c = 0; c < d; c++) distance2 += (keys[i * d + c] - keys[j * d + c]) ** 2;
      const w = Math.exp(-distance2 / (2 * h * h));
      num += w * values[j];
      den += w;
    }
    return num / den;
  });
}

test('two key columns draw the attention map over the fitted-values table; the bandwidth slider redraws it', async () => {
  const keys = [0, 0, 1, 0, 0, 1, 1, 1, 2, 2];
  const values = [1, 2, 3, 4, 6];
  const { page, errors } = await site.newPage(embedPath('your-data', { d: '2', keys: keys.join(','), values: values.join(','), h: '1' }));
  const title = page.getByTestId('map-title');
  await waitForText(title, /gaussian kernel, h = 1\.00: all 5 points as queries, 5 keys \(2 columns each\)/);
  const map = page.getByTestId('attention-map');
  assert.ok(await map.isVisible());
  const image = map.locator('canvas.kl-heatmap__image');
  assert.match(await image.getAttribute('aria-label'), /Attention map of your data/);
  // The map paints in an animation frame of its own: count its colours frame by frame until it
  // shows ink (at most 5 s of frames).
  const drawn = await image.evaluate(
    (canvas) =>
      new Promise((resolve) => {
        const started = performance.now();
        const check = () => {
          const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          const seen = new Set();
          for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
          if (seen.size >= 3 || performance.now() - started > 5000) resolve(seen.size);
          else requestAnimationFrame(check);
        };
        check();
      }),
  );
  assert.ok(drawn >= 3, `the map shows ${drawn} colours`);
  // Its text alternative: the fitted values, each a row of the map times the values.
  const expected = fittedAtKeys(keys, values, 2, 1).map((f) => f.toFixed(4));
  const fittedCells = () => page.locator('table', { hasText: 'Fitted values' }).locator('tbody tr td:nth-child(3)').allTextContents();
  assert.deepEqual(await fittedCells(), expected);

  await page.getByRole('slider', { name: /bandwidth/ }).press('ArrowLeft');
  const redrawn = await waitForText(title, /h = 0\.\d+/);
  assert.ok(Number(/h = ([\d.]+)/.exec(redrawn)[1]) < 1);
  await waitForText(page.locator('table', { hasText: 'Fitted values' }).locator('tbody tr td:nth-child(3)').first(), new RegExp(`^(?!${expected[0]}$)\\d\\.\\d{4}$`));
  await screenshot(page, 'your-data-2d-map');
  await screenshot(map, 'your-data-2d-map-only');
  assert.deepEqual(errors, []);
});

test('360 px dark layout', async () => {
  const { page, errors } = await site.newPage(embedPath('your-data'), { viewport: { width: 360, height: 900 }, colorScheme: 'dark' });
  await waitForText(page.getByTestId('prediction'), /\d/);
  await submit(page, 'x,y\n1,2\n3,abc\n');
  await waitForText(page.getByTestId('data-message'), /abc/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  await screenshot(page, 'your-data-360-dark');
  assert.deepEqual(errors, []);
});

/// Gaussian Nadaraya–Watson at one query, written out independently of the core.
function predictAt(keys, values, h, q) {
  let num = 0;
  let den = 0;
  keys.forEach((k, j) => {
    const w = Math.exp(-((q - k) ** 2) / (2 * h * h));
    num += w * values[j];
    den += w;
  });
  return num / den;
}

test('5,000 rows (above 4,096) work, also with eight key columns, and the table, chart and read-outs switch together', async () => {
  const { page, errors } = await openWidget();
  // Watches the summary: whenever it changes, the read-outs must already belong to the same data.
  await page.evaluate(() => {
    const seen = [];
    window.__frames = seen;
    const summary = document.querySelector('[data-testid="data-summary"]');
    new MutationObserver(() => {
      seen.push({
        summary: summary.textContent,
        where: document.querySelector('[data-testid="prediction"]').parentElement.textContent,
        prediction: document.querySelector('[data-testid="prediction"]').textContent,
      });
    }).observe(summary, { childList: true, characterData: true, subtree: true });
  });
  for (const n of [4097, 5000]) {
    const keys = Array.from({ length: n }, (_, i) => (10 * i) / (n - 1));
    const values = keys.map((x) => Math.round(1000 * (Math.sin(x) + 2)) / 1000);
    await useText(page, `x,y\n${keys.map((x, i) => `${x},${values[i]}`).join('\n')}\n`);
    // Seconds of work: a note says what is being computed while the figure keeps the old data.
    const busy = page.locator('.kl-widget__note', { hasText: `Computing the leave-one-out errors of ${n.toLocaleString('en-US')} rows` });
    await busy.waitFor({ timeout: 30000 });
    await waitForText(page.getByTestId('data-summary'), new RegExp(`^${n.toLocaleString('en-US')} rows`), 60000);
    assert.equal(await busy.count(), 0, 'the note goes when the figure switches');
    const frames = await page.evaluate(() => window.__frames.splice(0));
    const last = frames.at(-1);
    assert.ok(last, 'the summary changed');
    // f̂(q) at h = 0.6 for the new data, at the q the read-out names.
    const q = Number(/f̂\(([-\d.]+)\)/.exec(last.where)[1]);
    assert.equal(last.prediction, predictAt(keys, values, 0.6, q).toFixed(4), `f̂ for ${n} rows at q = ${q}`);
    assert.match(await page.getByTestId('loo').textContent(), /^\d+\.\d{4}$/);
    assert.equal(await page.getByTestId('data-message').isHidden(), true);
    assert.equal(await page.locator('.kl-widget__error:not([hidden])').count(), 0);
  }
  // Moving h redraws the 5,000-row figure (the leave-one-out grid is kept; only h is new).
  const before = await page.getByTestId('prediction').textContent();
  await page.getByRole('slider', { name: /bandwidth/ }).press('ArrowLeft');
  await waitForText(page.getByTestId('prediction'), new RegExp(`^(?!${before.replace('.', '\\.')}$)-?\\d`), 60000);
  assert.equal(await page.locator('.kl-widget__error:not([hidden])').count(), 0);
  // The documented maximum: 5,000 rows of eight key columns.
  const wide = Array.from({ length: 5000 }, (_, i) => [...Array.from({ length: 8 }, (_, c) => ((i * (c + 3)) % 997) / 99.7), Math.sin(i)].map((x) => x.toFixed(3)).join(','));
  await useText(page, `${[...Array.from({ length: 8 }, (_, c) => `x${c + 1}`), 'y'].join(',')}\n${wide.join('\n')}\n`);
  await waitForText(page.getByTestId('data-summary'), /^5,000 rows; 8 key columns/, 60000);
  assert.match(await page.getByTestId('loo').textContent(), /^\d+\.\d{4}$/);
  assert.equal(await page.locator('.kl-widget__error:not([hidden])').count(), 0);
  assert.deepEqual(errors, []);
});

test('uploads: UTF-16 with a byte-order mark is read; Latin-1 and unmarked UTF-16 are named, with the advice to save as UTF-8', async () => {
  const { page } = await openWidget();
  const table = 'k,v\n0,0\n1,1\n2,0\n3,1\n';
  const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(table, 'utf16le').swap16()]);
  await page.locator('input[type=file]').setInputFiles({ name: 'be.csv', mimeType: 'text/csv', buffer: be });
  await waitForText(page.getByTestId('data-summary'), /^4 rows; 1 key column \(k\); value column: v\.$/);
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('k,v\n0,0\n1,1\n2,0\n', 'utf16le')]);
  await page.locator('input[type=file]').setInputFiles({ name: 'le.csv', mimeType: 'text/csv', buffer: le });
  await waitForText(page.getByTestId('data-summary'), /^3 rows; 1 key column \(k\)/);

  await page.getByRole('button', { name: /Reset/ }).click();
  await waitForText(page.getByTestId('prediction'), new RegExp(`^${CHAPTER_PREDICTION}$`));
  const latin1 = Buffer.from('Température,y\n1,2\n3,4\n', 'latin1');
  await page.locator('input[type=file]').setInputFiles({ name: 'latin.csv', mimeType: 'text/csv', buffer: latin1 });
  await assertRefused(
    page,
    'the file "latin.csv" is not UTF-8: byte 0xE9 in row 1 reads as "é" in Latin-1 (Windows-1252), the encoding the file most likely uses; save it as UTF-8 (in a spreadsheet: "CSV UTF-8") and upload it again',
  );
  const unmarked = Buffer.from(table, 'utf16le').swap16();
  await page.locator('input[type=file]').setInputFiles({ name: 'unmarked.csv', mimeType: 'text/csv', buffer: unmarked });
  await assertRefused(
    page,
    'the file "unmarked.csv" looks like UTF-16 (big-endian) text without a byte-order mark; save it as UTF-8 (in a spreadsheet: "CSV UTF-8") and upload it again',
  );
});

/// Submits text built inside the page from UTF-16 code units: the DevTools protocol carries
/// strings as UTF-8 and would replace a lone surrogate before the page ever saw it.
async function submitUnits(page, text) {
  const units = Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
  await page.evaluate((codes) => {
    const area = document.querySelector('[data-testid="csv-text"]');
    area.value = String.fromCharCode(...codes);
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Use this data').click();
  }, units);
}

test('a lone surrogate is named where it stands and never swallows the comma after it', async () => {
  const { page, errors } = await openWidget();
  await submitUnits(page, 'x,y\n1,2\n3\uD83D,4\n');
  await assertRefused(
    page,
    'row 3, column 1: U+D83D is a lone surrogate, half of a UTF-16 pair and not a character (the text was cut inside a character); only plain text tables are accepted',
  );
  await submitUnits(page, 'x,y\n1,2\n3,\uDE00\n');
  await assertRefused(
    page,
    'row 3, column 2: U+DE00 is a lone surrogate, half of a UTF-16 pair and not a character (the text was cut inside a character); only plain text tables are accepted',
  );
  assert.deepEqual(errors, []);
});
