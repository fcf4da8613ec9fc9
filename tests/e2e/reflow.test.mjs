// Reflow at 320 CSS px (WCAG 1.4.10): every figure's embed is no wider than the viewport and
// clips nothing; on the full page, its sections laid out as a reader scrolls to them
// (content-visibility: auto, as shipped), no box in a figure is clipped. In both, no text reaches
// past the edge (the section's, or the viewport's) unless it is inside a box the reader scrolls from
// the keyboard (a data table, a display formula), and no field scrolls its value out of view: a list
// of bandwidths wraps.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditLayout } from './layout-audit.mjs';
import { embedPath, figuresDrawn, nextFrames, openSite } from './harness.mjs';
import { settle, widgetNames } from './widget-list.mjs';
import { textPastEdge } from './reflow-checks.mjs';

const VIEWPORT = { width: 320, height: 800 };

let site;
before(async () => {
  site = await openSite({ viewport: VIEWPORT });
});
after(async () => {
  await site?.close();
});

test('every figure embedded at 320 px fits it, clips nothing and cuts no text or field', async () => {
  const visitor = await site.visitor();
  const problems = [];
  const paths = widgetNames.map((name) => [name, embedPath(name)]);
  // The longest list the audit takes: sixteen bandwidths, wrapped in the field.
  paths.push(['bias-variance (16 bandwidths)', embedPath('bias-variance', { bandwidths: Array.from({ length: 16 }, (_, i) => (0.05 + 0.25 * i).toFixed(2)).join(',') })]);
  assert.ok(paths.length > 17);
  for (const [name, path] of paths) {
    await visitor.visit(path);
    await settle(visitor.page);
    for (const problem of await visitor.page.evaluate(auditLayout)) problems.push(`${name}: ${problem}`);
    for (const problem of await visitor.page.evaluate(textPastEdge, null)) problems.push(`${name}: ${problem}`);
  }
  const grid = visitor.page.getByRole('textbox', { name: 'bandwidth grid' });
  const lines = await grid.evaluate((field) => Math.round(field.clientHeight / parseFloat(getComputedStyle(field).lineHeight)));
  assert.ok(lines >= 2, `the sixteen bandwidths wrap (${lines} line)`);
  await visitor.page.context().close();
  assert.deepEqual(problems, []);
  assert.deepEqual(visitor.errors, []);
});

test('the full page at 320 px clips no box in a figure and cuts no text, each section laid out as it is reached', async () => {
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
    for (const problem of await page.evaluate(auditLayout)) if (/^clipped|^page:|^input text cut/.test(problem)) clipped.add(problem);
    // content-visibility: auto contains a section's paint: text past its edge is cut there.
    for (const problem of await sections.nth(i).evaluate(textPastEdge)) clipped.add(problem);
  }
  await page.context().close();
  assert.deepEqual([...clipped], []);
});
