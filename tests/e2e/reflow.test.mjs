// Reflow at 320 CSS px (WCAG 1.4.10): the temperature and convexity-exercise embeds are no wider
// than the viewport and clip nothing; the full page, its sections laid out as a reader scrolls to
// them (content-visibility: auto, as shipped), clips no box in any figure and cuts no control's
// caption or value at a section's edge.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditLayout } from './layout-audit.mjs';
import { embedPath, figuresDrawn, nextFrames, openSite } from './harness.mjs';
import { settle } from './widget-list.mjs';

const VIEWPORT = { width: 320, height: 800 };

/// Text of the figures' controls (captions, values) in `section` that reaches past the section's
/// edges (run in the page). Other text past the edge at 320 px is a known limit
/// (docs/accessibility.md, Charts).
function overhang(section) {
  const edge = section.getBoundingClientRect();
  const found = [];
  for (const element of section.querySelectorAll('.kl-widget .kl-control, .kl-widget .kl-control *')) {
    if (element.closest('.kl-scroll, .kl-chart-data__scroll, .kl-visually-hidden, .katex, [hidden]')) continue;
    if (![...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim())) continue;
    const box = element.getBoundingClientRect();
    if (box.width > 0 && (box.right > edge.right + 0.5 || box.left < edge.left - 0.5)) {
      found.push(`cut at its section's edge: <${element.tagName.toLowerCase()}.${element.className}> "${element.textContent.trim().slice(0, 30)}"`);
    }
  }
  return found;
}

let site;
before(async () => {
  site = await openSite({ viewport: VIEWPORT });
});
after(async () => {
  await site?.close();
});

test('the embeds that were wider than 320 px fit it and clip nothing', async () => {
  const { page } = await site.newPage('embed.html');
  const problems = [];
  for (const name of ['temperature', 'exercise-convexity']) {
    await page.goto(`${site.url}${embedPath(name)}`);
    await settle(page);
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    if (scroll > client) problems.push(`${name}: ${scroll} px wide in ${client} px`);
    for (const problem of await page.evaluate(auditLayout)) problems.push(`${name}: ${problem}`);
  }
  await page.context().close();
  assert.deepEqual(problems, []);
});

test('the full page at 320 px clips no box in a figure, each section laid out as it is reached', async () => {
  const { page } = await site.newPage('index.html');
  await page.waitForSelector('#kl-widgets:not([aria-busy])');
  const sections = page.locator('.kl-section');
  const clipped = new Set();
  for (let i = 0, n = await sections.count(); i < n; i++) {
    await sections.nth(i).evaluate((section) => section.scrollIntoView());
    await nextFrames(page);
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    await figuresDrawn(page, 30000, 0);
    await nextFrames(page);
    for (const problem of await page.evaluate(auditLayout)) if (/^clipped|^page:/.test(problem)) clipped.add(problem);
    // content-visibility: auto contains a section's paint: text past its edge is cut there.
    for (const problem of await sections.nth(i).evaluate(overhang)) clipped.add(problem);
  }
  await page.context().close();
  assert.deepEqual([...clipped], []);
});
