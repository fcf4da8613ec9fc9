// The chapter's code on the full page, held against the chapter's text itself (parsed by
// scripts/chapter-spec.mjs, not a copied list): every "Code:" and "Figure:" listing, verbatim and
// in the chapter's order; every printed output, computed live by the core, equal to the book's at
// the chapter's settings and following its figure (the lookup's query moves the `weights:` line);
// Copy; the open or closed choice kept across a reload (and no error where storage is blocked);
// no sideways page scroll at 360 px; and the notebook the build writes, with the same listings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { readChapter } from '../../scripts/chapter-spec.mjs';
import { afterDrawn, distDir, openSite, screenshot, scrollToFigure, waitForText } from './harness.mjs';

const chapter = readChapter();
/// The figures whose sections hold the listings' slots (or sit next to them), top to bottom.
const SECTIONS = ['section-lookup', 'section-smoothing', 'section-attention-map', 'section-underflow'];

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

/// Opens the full page and scrolls through it until every listing is there.
async function pageWithListings(options = {}) {
  const opened = await site.newPage(options.path ?? 'index.html', options);
  for (const section of SECTIONS) await scrollToFigure(opened.page, section, 30000);
  await opened.page.locator('.kl-listing').nth(chapter.listings.length - 1).waitFor();
  return opened;
}
/// One full page for the tests that only read it or move the lookup (opened once: the audit behind
/// the sweep's output takes the worker a few seconds).
let full;
const fullPage = () => (full ??= pageWithListings());

/// Opens the full page at the top: the OLS listing's slot is in index.html itself, filled at load.
async function pageAtTop(options = {}) {
  const opened = await site.newPage('index.html', options);
  await opened.page.locator('.kl-listing[data-listing="ols"] pre.kl-listing__code').waitFor({ state: 'attached' });
  return opened;
}

/// The listing's printed output once the core has answered (and nothing is under way).
async function printed(listing, action) {
  const output = listing.locator('.kl-listing__printed');
  await afterDrawn(output, action, 60000);
  return (await output.textContent()).split('\n');
}

test('every listing of the chapter is on the page, in its order, line for line, with its printed output', async () => {
  assert.equal(chapter.listings.length, 7, 'the chapter has four Code: and three Figure: listings');
  const { page, errors } = await fullPage();
  const listings = page.locator('.kl-listing');
  assert.equal(await listings.count(), chapter.listings.length);
  for (const [i, expected] of chapter.listings.entries()) {
    const listing = listings.nth(i);
    const summary = (await listing.locator('summary').textContent()).trim();
    assert.equal(summary, `${expected.kind}: ${expected.title}`);
    const code = await listing.locator('pre.kl-listing__code').textContent();
    assert.deepEqual(code.split('\n'), expected.lines, `the lines of "${expected.title}"`);
    assert.ok((await listing.locator('pre.kl-listing__code span').count()) > 10, `"${expected.title}" is highlighted`);
    if (expected.output.length > 0) {
      assert.deepEqual(await printed(listing), expected.output, `the printed output of "${expected.title}"`);
    } else {
      assert.equal(await listing.locator('.kl-listing__printed').count(), 0);
    }
    if (expected.kind === 'Figure') {
      // A "Figure:" listing names the live figure that stands for the one it draws, and links it.
      const links = listing.locator('.kl-listing__note a[href^="#section-"]');
      assert.ok((await links.count()) >= 1, `"${expected.title}" links its live figure`);
      const target = (await links.first().getAttribute('href')).slice(1);
      assert.equal(await page.locator(`#${target}`).count(), 1);
    }
  }
  assert.deepEqual(errors, []);
});

test("moving the lookup's query changes the listing's weights: line with it", async () => {
  const { page, errors } = await fullPage();
  const listing = page.locator('.kl-listing[data-listing="attention"]');
  const before = await printed(listing);
  assert.deepEqual(before, chapter.listings[0].output);
  const figure = await scrollToFigure(page, 'section-lookup');
  const query = figure.getByRole('slider', { name: /query/ });
  const after = await printed(listing, async () => {
    await query.focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft');
  });
  assert.notEqual(after[0], before[0]);
  assert.match(after[0], /^weights: \[[\d. ]+\]$/);
  // The listing and the figure print the same prediction at the figure's new state.
  const prediction = await waitForText(figure.getByTestId('prediction'), /^(?!2\.7412$)\d/);
  assert.equal(after[1], `prediction: ${prediction}`);
  assert.match(await listing.locator('.kl-listing__note').last().textContent(), /not the chapter’s settings/);
  assert.deepEqual(errors, []);
});

test('Copy puts the listing on the clipboard from the keyboard and says so', async () => {
  const { page, errors } = await pageAtTop();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const listing = page.locator('.kl-listing[data-listing="ols"]');
  const copy = listing.getByRole('button', { name: /^Copy/ });
  await copy.focus();
  await page.keyboard.press('Enter');
  await waitForText(listing.getByRole('status'), /^Copied$/);
  const text = await page.evaluate(() => navigator.clipboard.readText());
  assert.deepEqual(text.split('\n'), chapter.listings[2].lines);
  assert.deepEqual(errors, []);
});

test("a listing stays closed across a reload once the reader closes it, and blocked storage throws nothing", async () => {
  const { page, errors } = await pageAtTop();
  const listing = () => page.locator('.kl-listing[data-listing="ols"] details');
  assert.equal(await listing().evaluate((details) => details.open), true);
  // From the keyboard: a click goes to a point on the screen, and the page above the listing may
  // still be laying itself out while it loads.
  await listing().locator('summary').focus();
  await page.keyboard.press('Enter');
  assert.equal(await listing().evaluate((details) => details.open), false);
  // The choice is stored by the `toggle` event, which comes a task later.
  await page.waitForFunction(() => localStorage.getItem('kernel-lens.listing.ols') === 'closed');
  await page.reload();
  await listing().waitFor({ state: 'attached' });
  assert.equal(await listing().evaluate((details) => details.open), false);
  assert.deepEqual(errors, []);

  // A page whose storage throws (a cross-origin iframe with storage blocked): listings still open
  // and close, without an error.
  const blocked = await pageAtTop({
    init: () => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('blocked', 'SecurityError');
        },
      });
    },
  });
  const details = blocked.page.locator('.kl-listing[data-listing="ols"] details');
  assert.equal(await details.evaluate((element) => element.open), true);
  await details.locator('summary').focus();
  // Waits for the `toggle` event, after the listing's own handler (the one that tries storage).
  await details.evaluate((element) => element.addEventListener('toggle', () => (element.dataset.toggled = ''), { once: true }));
  await blocked.page.keyboard.press('Enter');
  await details.and(blocked.page.locator('[data-toggled]')).waitFor({ state: 'attached' });
  assert.equal(await details.evaluate((element) => element.open), false);
  assert.deepEqual(blocked.errors, []);
});

test('at 360 px a listing scrolls sideways inside its box, never the page', async () => {
  const { page, errors } = await pageAtTop({ viewport: { width: 360, height: 800 } });
  await scrollToFigure(page, 'section-lookup');
  for (const id of ['attention', 'ols']) {
    const listing = page.locator(`.kl-listing[data-listing="${id}"]`);
    await listing.scrollIntoViewIfNeeded();
    const code = listing.locator('pre.kl-listing__code');
    const box = await code.evaluate((pre) => ({ scroll: pre.scrollWidth, client: pre.clientWidth, right: pre.getBoundingClientRect().right }));
    assert.ok(box.scroll > box.client, `${id}: the code is wider than its box and scrolls in it`);
    assert.ok(box.right <= 360, `${id}: the box ends inside the screen (${box.right})`);
    await screenshot(listing, `listing-${id}-360`);
  }
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360);
  assert.deepEqual(errors, []);
});

test('the notebook the page links is nbformat 4 with the listings in order as its code cells', async () => {
  const { page } = await site.newPage('index.html');
  const href = await page.getByRole('link', { name: /notebook/ }).getAttribute('href');
  const notebook = JSON.parse(readFileSync(new URL(href, `file://${distDir}`), 'utf8'));
  assert.equal(notebook.nbformat, 4);
  assert.equal(notebook.metadata.kernelspec.language, 'python');
  const code = notebook.cells.filter((cell) => cell.cell_type === 'code');
  assert.deepEqual(
    code.map((cell) => cell.source.join('').split('\n')),
    chapter.listings.map((listing) => listing.lines),
  );
  const markdown = notebook.cells.filter((cell) => cell.cell_type === 'markdown').map((cell) => cell.source.join(''));
  for (const section of new Set(chapter.listings.map((listing) => listing.section))) assert.ok(markdown.includes(`## ${section}`), section);
  for (const cell of notebook.cells) assert.match(cell.id, /^[\w-]{1,64}$/);
});
