// Every figure's embed and the full page at 360, 620 and 1100 px, light and dark (and the
// standalone file, light): no clipped text
// (a box whose content overflows it unless it scrolls from the keyboard), no raw TeX, no number
// or inline formula broken over two lines, no prose paragraph shown twice on the page.
// One browser; each page loaded once in the reader's system theme, resized through the widths,
// flipped to dark and resized through them again. Screenshots go to
// build/screenshots/widths-<figure>-<width>-<theme>.png for reading.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditLayout } from './layout-audit.mjs';
import { embedPath, figuresDrawn, flipTheme, nextFrames, openSite, screenshot, SCREENSHOTS } from './harness.mjs';
import { settle, widgetNames } from './widget-list.mjs';

const WIDTHS = [1100, 620, 360];
const THEMES = ['light', 'dark'];
const HEIGHT = 900;

let site;
before(async () => {
  site = await openSite({ viewport: { width: WIDTHS[0], height: HEIGHT } });
});
after(async () => {
  await site?.close();
});

/// The whole page as one screenshot target (not only the viewport).
const fullPage = (page) => ({ screenshot: (options) => page.screenshot({ ...options, fullPage: true }) });

/// Resizes the page and waits until charts and read-outs have redrawn at the new width.
async function resize(page, width) {
  await page.setViewportSize({ width, height: HEIGHT });
  await nextFrames(page);
  await nextFrames(page);
}

// One page visits every figure; each is loaded once, in the reader's system theme, checked at the
// three widths light, then flipped to dark in place (theme-flip.test.mjs shows a flipped figure
// equals a freshly opened dark one) and checked at the three widths again.
let visitor;
for (const name of widgetNames) {
  test(`${name} fits 1100, 620 and 360 px, light and dark`, async () => {
    visitor ??= await site.visitor({ viewport: { width: WIDTHS[0], height: HEIGHT } });
    const { page, errors } = visitor;
    errors.length = 0;
    const problems = [];
    await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
    await page.emulateMedia({ colorScheme: THEMES[0] });
    await visitor.visit(embedPath(name));
    await settle(page);
    await page.evaluate(() => document.fonts.ready);
    for (const theme of THEMES) {
      if (theme !== THEMES[0]) {
        await resize(page, WIDTHS[0]);
        await flipTheme(page, theme);
      }
      for (const width of WIDTHS) {
        if (width !== WIDTHS[0]) await resize(page, width);
        for (const problem of await page.evaluate(auditLayout)) problems.push(`${name} at ${width} px (${theme}): ${problem}`);
        await screenshot(fullPage(page), `widths-${name}-${width}-${theme}`);
      }
    }
    for (const error of errors.splice(0)) problems.push(`${name}: console error ${error}`);
    assert.deepEqual(problems, []);
  });
}

/// Scrolls through the page until every figure has mounted, then lays out the sections out of view
/// too (the page skips their layout while they are off screen) so they can be measured.
async function mountEverything(page) {
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  // The exercises' figures wait behind "Check your answer": open them, as a reader would.
  await page.evaluate(() => {
    for (const details of document.querySelectorAll('#kl-page details')) details.open = true;
  });
  for (let round = 0; round < 60; round++) {
    const waiting = await page.evaluate(() => {
      // A section's figure place once its prose is in (the prose, with its code listings, can be tall).
      const next = document.querySelector('.kl-section--waiting .kl-figure-waiting, .kl-section--waiting:not(:has(.kl-figure-waiting))');
      next?.scrollIntoView();
      return Boolean(next);
    });
    if (!waiting) break;
    await nextFrames(page);
  }
  await page.waitForFunction(() => !document.querySelector('.kl-section--waiting, [aria-busy="true"]'), null, { timeout: 60000 });
  await page.addStyleTag({ content: '.kl-section { content-visibility: visible !important; }' });
  await page.evaluate(() => document.fonts.ready);
  await figuresDrawn(page);
  await nextFrames(page);
}

/// Checks the page at the three widths (from the widest, which it shows) in `theme`; returns the problems.
async function auditWidths(page, name, theme) {
  const problems = [];
  for (const width of WIDTHS) {
    if (width !== WIDTHS[0]) await resize(page, width);
    for (const problem of await page.evaluate(auditLayout)) problems.push(`${name} at ${width} px (${theme}): ${problem}`);
    if (SCREENSHOTS) {
      await page.evaluate(() => scrollTo(0, 0));
      await screenshot(fullPage(page), `widths-${name}-${width}-${theme}`);
    }
  }
  return problems;
}

// The full page, mounted once: light, then flipped to dark in place. Then the standalone file (the
// same page, everything inlined), light.
let fullPageShown = null;
for (const theme of THEMES) {
  test(`the full page fits 1100, 620 and 360 px (${theme})`, async () => {
    if (theme === THEMES[0] || !fullPageShown) {
      fullPageShown = null;
      const opened = await site.newPage('index.html', { viewport: { width: WIDTHS[0], height: HEIGHT }, colorScheme: theme });
      await mountEverything(opened.page);
      fullPageShown = opened;
    } else {
      await resize(fullPageShown.page, WIDTHS[0]);
      await flipTheme(fullPageShown.page, theme);
    }
    const { page, errors } = fullPageShown;
    const problems = await auditWidths(page, 'page', theme);
    assert.deepEqual(problems, []);
    assert.deepEqual(errors.splice(0), []);
    if (theme === THEMES.at(-1)) await page.context().close();
  });
}

test('the standalone file fits 1100, 620 and 360 px (light)', async () => {
  const { page, errors } = await site.newPage('kernel-lens-standalone.html?theme=light', { viewport: { width: WIDTHS[0], height: HEIGHT } });
  await mountEverything(page);
  assert.deepEqual(await auditWidths(page, 'standalone', 'light'), []);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the full page shows each prose paragraph and display equation once', async () => {
  const { page } = await site.newPage('index.html', { viewport: { width: WIDTHS[0], height: HEIGHT } });
  await mountEverything(page);
  const repeated = await page.evaluate(() => {
    const seen = new Map();
    for (const part of document.querySelectorAll('#kl-page p, #kl-page .katex-display .katex-mathml annotation')) {
      const text = (part.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (text.length < 40) continue;
      seen.set(text, (seen.get(text) ?? 0) + 1);
    }
    return [...seen].filter(([, count]) => count > 1).map(([text, count]) => `${count}× ${text.slice(0, 80)}`);
  });
  assert.deepEqual(repeated, []);
  await page.context().close();
});

test('charts side by side at 1100 px: each pair on one row, each chart\'s "Show data" under it', async () => {
  for (const widget of ['lookup', 'ols-vs-nw', 'bandwidth-selection']) {
    const { page, errors } = await site.newPage(embedPath(widget), { viewport: { width: 1100, height: 900 } });
    await figuresDrawn(page);
    const boxes = await page.locator('.kl-charts .kl-chart').evaluateAll((charts) =>
      charts.map((chart) => {
        const box = chart.getBoundingClientRect();
        const data = chart.parentElement?.querySelector(':scope > .kl-chart-data')?.getBoundingClientRect();
        return { top: box.top, left: box.left, bottom: box.bottom, dataTop: data?.top ?? null, dataLeft: data?.left ?? null };
      }),
    );
    assert.equal(boxes.length, 2, widget);
    const [a, b] = boxes;
    assert.equal(Math.round(a.top), Math.round(b.top), `${widget}: the two charts are not on one row`);
    assert.ok(b.left > a.left, widget);
    for (const chart of boxes) {
      assert.ok(chart.dataTop !== null && chart.dataTop >= chart.bottom - 1, `${widget}: "Show data" is not under its chart`);
      assert.equal(Math.round(chart.dataLeft), Math.round(chart.left), widget);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});
