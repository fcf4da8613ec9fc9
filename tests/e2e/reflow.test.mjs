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

const VIEWPORT = { width: 320, height: 800 };

/// Text in `root` (an element, or the document when null) whose line boxes reach past its edges, or
/// the viewport's, and is not inside a scroll box that takes keyboard focus (run in the page).
function textPastEdge(root) {
  const scope = root ?? document.body;
  const edge = root ? root.getBoundingClientRect() : { left: 0, right: document.documentElement.clientWidth };
  const scrolledByKeyboard = (element) => {
    for (let box = element; box && box !== scope; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (/auto|scroll/.test(style.overflowX) && box.getAttribute('tabindex') === '0') return true;
    }
    return false;
  };
  const found = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || element.closest('.kl-visually-hidden, [hidden], .katex-mathml, script, style')) continue;
    // Text not rendered (in a closed <details>, say) is not cut.
    if (!element.checkVisibility({ contentVisibilityAuto: false, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const past = [...range.getClientRects()].some((box) => box.width > 0 && (box.right > edge.right + 0.5 || box.left < edge.left - 0.5));
    if (past && !scrolledByKeyboard(element)) {
      const figure = element.closest('[data-widget]')?.getAttribute('data-widget') ?? 'page';
      found.push(`${figure}: text past the edge: <${element.tagName.toLowerCase()}.${element.className}> "${node.textContent.trim().slice(0, 40)}" ${JSON.stringify([...range.getClientRects()].map((b) => [Math.round(b.left), Math.round(b.right)]))} edge ${Math.round(edge.left)}..${Math.round(edge.right)}`);
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
