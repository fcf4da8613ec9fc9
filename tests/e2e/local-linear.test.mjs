// The local-linear figure (beyond the chapter) in the browser: its read-outs and table are the
// core's numbers (checked against the same calls made in Node), the query slider answers the
// keyboard, the band toggles, and a bad URL value falls back with a note.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadKernelLens } from '../wasm/load.mjs';
import { afterDrawn, embedPath, openSite, screenshot, waitForText } from './harness.mjs';

let site;
let kl;
before(async () => {
  site = await openSite({ shareContexts: true });
  kl = await loadKernelLens();
});
after(async () => {
  await site?.close();
});

/// The figure's 4-decimal text of x (the page's minus sign).
const text4 = (x) => x.toFixed(4).replace('-', '−');

function expected(q, h) {
  const data = kl.chapterDataset();
  const nw = kl.attention([q], data.keys, data.observedValues, 1, 1, h).outputs[0];
  const line = kl.localLinear([q], data.keys, data.observedValues, 1, h).outputs[0];
  return { nw: text4(nw), line: text4(line), data };
}

test('at the left edge the read-outs are the core\'s NW and local linear predictions, and they differ', async () => {
  const { page, errors } = await site.newPage(embedPath('local-linear'));
  const { nw, line, data } = expected(-2.9, 0.5);
  assert.equal(await waitForText(page.getByTestId('nw-prediction'), /\d/), nw);
  assert.equal(await page.getByTestId('local-linear-prediction').textContent(), line);
  assert.notEqual(nw, line);
  // The table's first row (q = −3): both exact biases from the core's smootherAudit.
  const dense = kl.linspace(-3, 3, 301);
  const audit = kl.smootherAudit(dense, data.keys, 1, data.truthAtKeys, kl.truth(dense), kl.chapterConfig().noise, 0.5);
  // The audit may come from the worker, after the read-outs (a cold page instance sends it on).
  await waitForText(page.locator('.kl-table tbody tr').first().locator('td').first(), /\d/);
  const first = await page.locator('.kl-table tbody tr').first().locator('td').allTextContents();
  assert.deepEqual(first, [text4(audit.nadarayaWatson.bias[0]), text4(audit.localLinear.bias[0]), text4(audit.nadarayaWatson.sd[0]), text4(audit.localLinear.sd[0])]);
  // The boundary bias the figure is about: NW's is larger at the edge.
  assert.ok(Math.abs(audit.localLinear.bias[0]) < Math.abs(audit.nadarayaWatson.bias[0]));
  await afterDrawn(page.locator('.kl-widget[data-widget="local-linear"]'));
  await screenshot(page, 'local-linear');
  assert.deepEqual(errors, []);
});

test('the query slider answers the keyboard; the band button toggles and says so', async () => {
  const { page, errors } = await site.newPage(embedPath('local-linear'));
  const nw = page.getByTestId('nw-prediction');
  await waitForText(nw, /\d/);
  const query = page.getByRole('slider', { name: /query/ });
  await query.focus();
  await page.keyboard.press('End');
  assert.equal(await waitForText(nw, new RegExp(`^${expected(3, 0.5).nw}$`)), expected(3, 0.5).nw);
  const band = page.getByRole('button', { name: /±2 sd band/ });
  assert.equal(await band.getAttribute('aria-pressed'), 'false');
  await band.click();
  assert.equal(await band.getAttribute('aria-pressed'), 'true');
  assert.match((await band.textContent()) ?? '', /Hide/);
  // The state reaches the address (debounced), so a copied link restores the band and the query.
  await page.waitForFunction(() => /band=true/.test(location.search) && /q=3(&|$)/.test(location.search), null, { timeout: 5000 });
  assert.deepEqual(errors, []);
});

test('on the full page the figure follows the chapter\'s closing prose and computes the same numbers', async () => {
  const { page, errors } = await site.newPage('index.html?local-linear.h=0.3#section-local-linear');
  const section = page.locator('#kl-beyond > #section-local-linear');
  await section.waitFor({ timeout: 30000 });
  const after = await page.evaluate(() => {
    const closing = document.getElementById('kl-closing');
    const figure = document.getElementById('section-local-linear');
    return Boolean(closing && figure && closing.compareDocumentPosition(figure) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  assert.ok(after, 'the figure comes after #kl-closing');
  const { nw, line } = expected(-2.9, 0.3);
  assert.equal(await waitForText(section.getByTestId('nw-prediction'), /\d/, 30000), nw);
  assert.equal(await section.getByTestId('local-linear-prediction').textContent(), line);
  assert.deepEqual(errors, []);
});

test('a bad URL bandwidth falls back to the default with a note', async () => {
  const { page, errors } = await site.newPage(embedPath('local-linear', { h: '0', q: '3' }));
  await waitForText(page.locator('.kl-widget__note', { hasText: 'Invalid parameters' }), /h=0/);
  assert.equal(await waitForText(page.getByTestId('nw-prediction'), /\d/), expected(3, 0.5).nw);
  assert.deepEqual(errors, []);
});

test('the bias axis shows the hat of f̂: its chart draws unhinted text, which keeps U+0302 over f at 12 px', async () => {
  const { page, errors } = await site.newPage(embedPath('local-linear'));
  const canvas = page.locator('canvas[aria-label^="Exact bias"]');
  await afterDrawn(page.locator('figure.kl-widget'));
  // Chromium's hinted 12 px glyphs drop the hat over f (see the screenshot local-linear-bias-axis);
  // unhinted ('geometricPrecision') text keeps it.
  assert.equal(await canvas.evaluate((c) => c.getContext('2d').textRendering), 'geometricPrecision');
  await screenshot(canvas, 'local-linear-bias-axis');
  assert.deepEqual(errors, []);
});

test('the title and the sentence under the table say what the table shows at both edges; fallbacks are counted', async () => {
  const { page, errors } = await site.newPage(embedPath('local-linear'));
  const summary = await waitForText(page.getByTestId('edge-summary'), /\d/);
  const cells = await page.locator('.kl-table tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
  const [left, right] = [cells[0], cells[cells.length - 1]];
  assert.equal(
    summary,
    `At h = 0.50: at q = ${left[0]} local linear’s bias is ${left[2]} against NW’s ${left[1]} (smaller in size); at q = ${right[0]} local linear’s bias is ${right[2]} against NW’s ${right[1]} (larger in size).`,
  );
  assert.doesNotMatch(await page.locator('.kl-widget__title, figure.kl-widget figcaption, h2, h3').first().textContent(), /fixes the edges/);
  assert.match(await page.getByTestId('fallback-count').textContent(), /no fallback to NW weights|the line uses the NW weights there/);
  // At h = 0.05 the core reports one singular local fit, at the left end of the curve.
  const narrow = await site.newPage(embedPath('local-linear', { h: '0.05' }));
  assert.match(await waitForText(narrow.page.getByTestId('fallback-count'), /\d/), /^At 1 of 301 queries \(q = −3\.00\) the local fit is numerically singular/);
  assert.deepEqual(errors, []);
});
