// Exercise 3 in the browser: validation and leave-one-out choices, the sealed test MSE revealed
// once on request, and the synthetic-truth grid minimum, against NumPy (tests/fixtures/
// laboratory.json, scripts/gen_fixtures_lab.py) and the chapter's printed h = 0.18, MSE = 0.0236.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { embedPath, openSite, screenshot, waitForText } from './harness.mjs';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/laboratory.json', import.meta.url), 'utf8'));
assert.ok(fixture.selection.length >= 2, 'the fixture has the two samples these tests read');
const [chapterSample, otherSample] = fixture.selection;

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

const text = (page, id) => page.getByTestId(id).textContent();
const h = (sample, index) => sample.config.bandwidths[index].toFixed(2);

async function tableColumns(page) {
  return page.locator('[data-testid=selection-table] tbody tr').evaluateAll((rows) =>
    rows.map((row) => Array.from(row.cells, (cell) => cell.textContent)),
  );
}

test('the default sample matches NumPy and the truth grid minimum is the chapter’s', async () => {
  const { page, errors } = await site.newPage(embedPath('bandwidth-selection'));
  await waitForText(page.getByTestId('truth-minimum'), /h=/, 30000);
  assert.match(await text(page, 'truth-minimum'), /h=0\.18, MSE=0\.0236/);
  const s = chapterSample;
  assert.ok(s.config.bandwidths.length > 0, 'the fixture has a bandwidth grid');
  assert.match(await text(page, 'selected'), new RegExp(`selects h = ${h(s, s.selectedIndex)} \\(validation MSE ${s.validationMse[s.selectedIndex].toFixed(4)}`));
  assert.match(await text(page, 'loo-selected'), new RegExp(`selects h = ${h(s, s.looSelectedIndex)} \\(LOO MSE ${s.looMse[s.looSelectedIndex].toFixed(4)}`));
  const rows = await tableColumns(page);
  assert.deepEqual(
    rows,
    s.config.bandwidths.map((b, i) => [b.toFixed(2), s.trainingMse[i].toFixed(4), s.validationMse[i].toFixed(4), s.looMse[i].toFixed(4)]),
  );
  assert.equal(await page.locator('[data-testid=selection-table] tr.kl-row--best th').textContent(), h(s, s.selectedIndex));
  // Sealed until asked, then reported once.
  assert.doesNotMatch(await text(page, 'test-mse'), /\d\.\d{4}/);
  const reveal = page.getByRole('button', { name: /sealed test set/ });
  await reveal.focus();
  await page.keyboard.press('Enter');
  const report = await waitForText(page.getByTestId('test-mse'), /\d\.\d{4}/);
  assert.match(report, new RegExp(`selected h = ${h(s, s.selectedIndex)}: ${s.testMse.toFixed(4)}`));
  assert.match(report, new RegExp(`leave-one-out choice ${s.looTestMse.toFixed(4)}`));
  assert.match(report, new RegExp(`\\(h = ${h(s, s.truthIndex)}\\) ${s.truthTestMse.toFixed(4)}`));
  assert.ok(await page.getByRole('button', { name: 'Test set opened' }).isDisabled());
  assert.equal(await page.locator('canvas[role=img]').count(), 2);
  await screenshot(page, 'bandwidth-selection');
  assert.deepEqual(errors, []);
});

test('URL settings give another NumPy sample; a fresh sample seals the test set again', async () => {
  const s = otherSample;
  const { config } = s;
  const { page, errors } = await site.newPage(
    embedPath('bandwidth-selection', {
      seed: String(config.seed),
      train: String(config.train),
      validation: String(config.validation),
      test: String(config.test),
      noise: String(config.noise),
      bandwidths: config.bandwidths.join(','),
      reveal: 'true',
    }),
  );
  await waitForText(page.getByTestId('test-mse'), /\d\.\d{4}/, 30000);
  assert.match(await text(page, 'selected'), new RegExp(`selects h = ${h(s, s.selectedIndex)} `));
  assert.match(await text(page, 'test-mse'), new RegExp(`: ${s.testMse.toFixed(4)} `));
  assert.match(await text(page, 'truth-minimum'), new RegExp(`h=${h(s, s.truthIndex)}, MSE=${s.truthMse.toFixed(4)}`));
  await page.getByRole('button', { name: 'Fresh sample' }).click();
  await waitForText(page.getByTestId('test-mse'), /stays sealed/);
  assert.equal(await page.getByRole('textbox', { name: 'sample seed' }).inputValue(), String(config.seed + 1));
  const train = page.getByRole('textbox', { name: 'training points' });
  await train.fill('1');
  await train.press('Enter');
  await waitForText(page.locator('.kl-widget__error'), /training points = .* refused/);
  assert.deepEqual(errors, []);
});

test('the selection widget fits 360 px in the dark theme', async () => {
  const { page, errors } = await site.newPage(embedPath('bandwidth-selection'), { viewport: { width: 360, height: 1000 }, colorScheme: 'dark' });
  await waitForText(page.getByTestId('truth-minimum'), /h=/, 30000);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `horizontal overflow ${overflow}px`);
  await screenshot(page, 'bandwidth-selection-360-dark');
  assert.deepEqual(errors, []);
});
