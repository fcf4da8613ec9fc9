// Section 12.6's job table in the browser: the chapter's rows, the live three-slot computation with
// the chapter's weights and output, and row selection highlighting the matching part.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, openSite, screenshot, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite({ shareContexts: true });
});
after(async () => {
  await site?.close();
});

/// The chapter's opening example at q = 3.5, h = 0.6: weights (0.0002, 0.9413, 0.0585), output 2.7412.
const CHAPTER = { weights: ['0.0002', '0.9413', '0.0585'], output: '2.7412' };

const highlighted = (page) =>
  page.locator('.kl-bank .kl-bank--highlight').evaluateAll((nodes) => [...new Set(nodes.map((n) => n.dataset.part))]);

test("the job table has the chapter's five rows and the computation shows the chapter's numbers", async () => {
  const { page, errors } = await site.newPage(embedPath('memory-bank'));
  assert.equal(await waitForText(page.getByTestId('output'), /\d/), CHAPTER.output);
  for (let i = 0; i < 3; i++) assert.equal(await page.getByTestId(`weight-${i + 1}`).textContent(), CHAPTER.weights[i]);
  const jobs = await page.locator('.kl-bank__jobs tbody th').allTextContents();
  assert.deepEqual(jobs, ['query', 'keys', 'values', 'weights', 'output']);
  const memory = await page.locator('.kl-bank__jobs tbody td:nth-child(3)').allTextContents();
  assert.deepEqual(memory, [
    'what the decoder needs now',
    'descriptors used to match encoder memory slots',
    'content retrieved from those slots',
    'how much each slot contributes',
    'a query-specific context vector',
  ]);
  assert.deepEqual(await highlighted(page), ['query']);
  await page.waitForSelector('.kl-bank__jobs .katex');
  await afterDrawn(page.locator('figure.kl-widget'));
  await screenshot(page, 'memory-bank');
  assert.deepEqual(errors, []);
});

test("scores carry Eq. 12.5's meanings (s = −‖q − k‖², a = s/τ, τ = 2h²) and the job table shows all its columns at 1100 px", async () => {
  const { page, errors } = await site.newPage(embedPath('memory-bank'));
  await waitForText(page.getByTestId('output'), /^2\.7412$/);
  const lines = await page.locator('.kl-bank__line--score').allTextContents();
  // q = 3.5, k = (1, 3, 5): s = (−6.25, −0.25, −2.25); τ = 2 · 0.6² = 0.72; a = s/τ.
  assert.deepEqual(lines, ['score s₁ = −6.25', 'a₁ = s₁/τ = −8.68', 'score s₂ = −0.250', 'a₂ = s₂/τ = −0.347', 'score s₃ = −2.25', 'a₃ = s₃/τ = −3.13']);
  assert.equal(await page.getByTestId('temperature').textContent(), '0.720');
  // The third column fits inside the table's box: no scrolling needed to read it.
  const fits = await page.locator('.kl-bank__jobs').evaluate((table) => {
    const box = table.parentElement.getBoundingClientRect();
    const third = table.querySelector('thead th:nth-child(3)').getBoundingClientRect();
    return third.right <= box.right + 0.5 && table.parentElement.scrollWidth <= table.parentElement.clientWidth;
  });
  assert.equal(fits, true);
  assert.deepEqual(errors, []);
});

test('selecting a row by pointer or arrow keys highlights the matching part', async () => {
  const { page, errors } = await site.newPage(embedPath('memory-bank'));
  await waitForText(page.getByTestId('output'), /\d/);
  const weights = page.getByRole('button', { name: /Highlight the weights/ });
  await weights.click();
  assert.equal(await weights.getAttribute('aria-pressed'), 'true');
  assert.deepEqual(await highlighted(page), ['weights']);
  assert.equal(await page.locator('.kl-bank [data-part="weights"].kl-bank--highlight').count(), 10);
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await highlighted(page), ['output']);
  assert.equal(await page.getByRole('button', { name: /Highlight the output/ }).evaluate((b) => b === document.activeElement), true);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.deepEqual(await highlighted(page), ['values']);
  await page.keyboard.press('Enter');
  assert.deepEqual(await highlighted(page), []);
  assert.deepEqual(errors, []);
});

test('the query and bandwidth sliders recompute the output; URL parameters set the state', async () => {
  const { page } = await site.newPage(embedPath('memory-bank'));
  await waitForText(page.getByTestId('output'), /^2\.7412$/);
  await page.getByRole('slider', { name: /query/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await waitForText(page.getByTestId('output'), /^(?!2\.7412$)/);
  await page.getByRole('slider', { name: /bandwidth/ }).focus();
  await page.keyboard.press('PageUp');
  await waitForText(page.getByTestId('query'), /^3\.45$/);

  const keys = await site.newPage(embedPath('memory-bank', { row: 'keys', q: '3', h: '0.6' }));
  await waitForText(keys.page.getByTestId('output'), /\d/);
  assert.deepEqual(await highlighted(keys.page), ['keys']);
  assert.ok(Number(await keys.page.getByTestId('weight-2').textContent()) > 0.93);
});
