// Text spacing (WCAG 1.4.12): with the criterion's spacing forced on every element (line height
// 1.5, paragraphs 2 em apart, letters 0.12 em and words 0.16 em), every figure's embed at 360 and
// 1100 px loses nothing: no box clips its content, no text reaches past the viewport outside a box
// scrolled from the keyboard, no field cuts its value, the page grows no wider than the viewport.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditLayout } from './layout-audit.mjs';
import { embedPath, nextFrames, openSite } from './harness.mjs';
import { settle, widgetNames } from './widget-list.mjs';
import { textPastEdge } from './reflow-checks.mjs';

const SPACING = `* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
p { margin-bottom: 2em !important; }`;
const WIDTHS = [360, 1100];

let site;
before(async () => {
  site = await openSite({ viewport: { width: WIDTHS[0], height: 900 } });
});
after(async () => {
  await site?.close();
});

test('every figure keeps all its content with the text spacing of WCAG 1.4.12', async () => {
  const visitor = await site.visitor();
  const { page } = visitor;
  const problems = [];
  assert.equal(widgetNames.length, 17);
  for (const name of widgetNames) {
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    await visitor.visit(embedPath(name));
    await settle(page);
    await page.addStyleTag({ content: SPACING });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await nextFrames(page);
      await nextFrames(page);
      const spaced = await page.evaluate(() => getComputedStyle(document.querySelector('.kl-widget p') ?? document.body).letterSpacing);
      assert.notEqual(spaced, 'normal', 'the spacing applies');
      for (const problem of await page.evaluate(auditLayout)) if (/^clipped|^page:|^input text cut|^unreachable/.test(problem)) problems.push(`${name} at ${width} px: ${problem}`);
      for (const problem of await page.evaluate(textPastEdge, null)) problems.push(`${name} at ${width} px: ${problem}`);
    }
  }
  await page.context().close();
  assert.deepEqual(problems, []);
  assert.deepEqual(visitor.errors, []);
});
