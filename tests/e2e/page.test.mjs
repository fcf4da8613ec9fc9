// The full page and the embed contract: every widget in chapter order without console errors,
// typeset formulas, one widget per embed, visible notes for unknown widgets and bad parameters.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { embedPath, figuresDrawn, nextFrames, openSite, screenshot, scrollToFigure, waitForText } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

/// The chapter's order of the first figures, sections 12.2 to 12.4 (later widgets slot in between).
const CHAPTER_ORDER = ['lookup', 'ols-vs-nw', 'temperature', 'smoothing'];

test('index.html shows every widget in chapter order, typeset, with no console error', async () => {
  const { page, errors } = await site.newPage('index.html');
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  await page.waitForSelector('.katex');
  // The lookup's figure mounts as the reader nears it.
  await scrollToFigure(page, 'section-lookup');
  const names = await page.locator('.kl-widget').evaluateAll((nodes) => nodes.map((n) => n.dataset.widget));
  const present = CHAPTER_ORDER.filter((name) => names.includes(name));
  assert.ok(present.includes('lookup'), `widgets on the page: ${names}`);
  assert.deepEqual(
    names.filter((name) => CHAPTER_ORDER.includes(name)),
    present,
    'chapter order',
  );
  assert.equal(await page.locator('h1').textContent(), 'Kernel Regression: Attention Before It Was Learnable');
  await figuresDrawn(page);
  await screenshot(page, 'page');
  assert.deepEqual(errors, []);
});

test('at load only the figures near the viewport mount, also when a figure above pushed the next one far down', async () => {
  // On a phone the first section's prose fills the first screen: its figure, below it, waits
  // until the reader scrolls near it. That figure is far taller than its placeholder: the next
  // section, near when the page opened, is then well below the mount margin and waits too.
  const { page, errors } = await site.newPage('index.html', { viewport: { width: 412, height: 823 } });
  await page.locator('#kl-opening .katex').first().waitFor();
  // Every figure's script has arrived once the page is no longer busy: a figure that would mount
  // at load has had its chance.
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  await nextFrames(page);
  assert.equal(await page.locator('.kl-widget').count(), 0, 'no figure mounts below the first screen at load');
  // A reader scrolling down: the first figure mounts before it comes into view.
  const first = page.locator('#section-lookup');
  for (let steps = 0; steps < 200 && (await first.locator('.kl-figure-waiting').count()) === 0; steps++) {
    await page.mouse.wheel(0, 100);
    await nextFrames(page);
  }
  assert.equal(await first.locator('.kl-widget').count(), 0, 'the first figure waits while its place is far');
  for (let steps = 0; steps < 40 && (await first.locator('.kl-widget').count()) === 0; steps++) {
    await page.mouse.wheel(0, 100);
    await nextFrames(page);
  }
  await first.locator('.kl-widget').waitFor();
  assert.ok(await first.evaluate((node) => node.getBoundingClientRect().top > -100), 'the figure mounted before the reader passed it');
  await figuresDrawn(page);
  await nextFrames(page);
  const sections = await page.locator('.kl-section').evaluateAll((nodes) =>
    nodes.map((node) => ({ id: node.id, top: node.getBoundingClientRect().top, mounted: !node.classList.contains('kl-section--waiting') })),
  );
  const far = sections.filter((section) => section.top > 823 + 800);
  assert.ok(far.length > 0, JSON.stringify(sections));
  assert.deepEqual(far.filter((section) => section.mounted), [], JSON.stringify(sections));
  await scrollToFigure(page, 'section-lookup');
  await waitForText(page.locator('#section-lookup').getByTestId('prediction'), /^\d/);
  assert.deepEqual(errors, []);
});

test("when KaTeX's script does not load, the formulas show as their TeX rather than as hidden blanks", async () => {
  const { page } = await site.newPage('embed.html?widget=none');
  await page.route('**/assets/katex-*.js', (route) => route.abort());
  await page.goto(`${site.url}index.html`);
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  // Each formula gives up waiting for KaTeX once its script failed: none stays pending.
  await page.waitForFunction(() => !document.querySelector('#kl-page .kl-math--pending'));
  const math = await page.locator('#kl-page .kl-math').evaluateAll((nodes) =>
    nodes.map((node) => ({ pending: node.classList.contains('kl-math--pending'), visible: getComputedStyle(node).visibility, text: node.textContent })),
  );
  assert.ok(math.length > 0);
  assert.deepEqual(math.filter((formula) => formula.pending || formula.visible !== 'visible'), []);
  assert.ok(math.some((formula) => formula.text.includes('\\')), 'the TeX source is shown');
});

test('every slider and button on the page has an accessible name; every canvas a label', async () => {
  const { page } = await site.newPage('index.html');
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  const unnamed = await page.evaluate(() => {
    const missing = [];
    for (const input of document.querySelectorAll('input, button, select')) {
      const name = input.getAttribute('aria-label') || input.labels?.[0]?.textContent || input.textContent;
      if (!name?.trim()) missing.push(input.outerHTML);
    }
    for (const canvas of document.querySelectorAll('canvas')) {
      if (canvas.getAttribute('role') !== 'img' || !canvas.getAttribute('aria-label')) missing.push(canvas.outerHTML);
    }
    return missing;
  });
  assert.deepEqual(unnamed, []);
});

test('the page works at 360 px without horizontal scrolling', async () => {
  const { page, errors } = await site.newPage('index.html', { viewport: { width: 360, height: 800 }, colorScheme: 'dark' });
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  // At 360 px the first screen is prose: no figure may be near enough to mount yet.
  await figuresDrawn(page, 30000, 0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the viewport`);
  await screenshot(page, 'page-360-dark');
  assert.deepEqual(errors, []);
});

test('embed.html shows exactly one widget and no page chrome', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup'));
  await page.waitForSelector('.kl-widget');
  assert.equal(await page.locator('.kl-widget').count(), 1);
  assert.equal(await page.locator('.kl-page').count(), 0);
  assert.match(await page.locator('h1').textContent(), /^Figure 12\.1: A fixed Gaussian lookup\. The bars give the normalized weights/);
  assert.deepEqual(errors, []);
});

test('an unknown widget name and invalid parameters give visible notes', async () => {
  const { page } = await site.newPage(embedPath('no-such-widget'));
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /Unknown widget "no-such-widget".*lookup/);

  const bad = await site.newPage(embedPath('lookup', { h: '0', q: 'abc' }));
  // (A slow machine may show the core's loading note beside it.)
  const note = bad.page.locator('.kl-widget__note', { hasText: 'Invalid parameters' });
  await note.waitFor();
  const text = await note.textContent();
  assert.match(text, /h=0/);
  assert.match(text, /q=abc/);
});

test("theme= in the address picks the theme; auto follows the reader's system setting", async () => {
  const themeOf = async (path, colorScheme) => {
    const { page, errors } = await site.newPage(path, { colorScheme });
    await page.waitForFunction(() => document.documentElement.dataset.klTheme);
    assert.deepEqual(errors, []);
    return page.evaluate(() => document.documentElement.dataset.klTheme);
  };
  assert.equal(await themeOf(embedPath('lookup', { theme: 'dark' }), 'light'), 'dark');
  assert.equal(await themeOf(embedPath('lookup', { theme: 'light' }), 'dark'), 'light');
  assert.equal(await themeOf(embedPath('lookup'), 'dark'), 'dark');
  assert.equal(await themeOf('index.html?theme=dark', 'light'), 'dark');
});
