// axe-core on the full page and on every embed, in the light and the dark theme: zero violations.
// Also: every control is reachable by Tab with a visible focus ring, charts have text alternatives.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { embedPath, openSite, scrollToFigure, waitForTheme } from './harness.mjs';
import { settle, widgetNames } from './widget-list.mjs';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

function describe(violations) {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.slice(0, 4).map((n) => `  ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`).join('\n')}`)
    .join('\n');
}

const pages = ['index.html', ...widgetNames.map((name) => embedPath(name))];

/// Runs axe on the page's document and returns its violations.
async function violationsOf(page) {
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
    }));
  });
}

// One page visits every address in turn, with the reader's system theme (the pages' own `auto`):
// light first, then flipped to dark in place (theme-flip.test.mjs shows a flipped figure equals a
// freshly opened dark one), where axe runs again.
let visitor;
/// The address the visitor's page shows, once loaded and checked in the light theme.
let shown = null;
for (const path of pages) {
  for (const colorScheme of ['light', 'dark']) {
    test(`axe: ${path} in the ${colorScheme} theme has no violations`, async () => {
      visitor ??= await site.visitor({ colorScheme: 'light', viewport: { width: 1000, height: 900 } });
      const { page } = visitor;
      await page.emulateMedia({ colorScheme });
      if (colorScheme === 'light' || shown !== path) {
        shown = null;
        await visitor.visit(path);
        // The full page opens on the chapter's prose: its first figure mounts as the reader nears it.
        if (path === 'index.html') await scrollToFigure(page, 'section-lookup');
        await page.addScriptTag({ path: axePath });
        shown = path;
      }
      // Every theme root of the page in the scheme asked for, and drawn in it.
      await waitForTheme(page, colorScheme);
      await settle(page);
      const violations = await violationsOf(page);
      assert.equal(violations.length, 0, describe(violations));
    });
  }
}

test('every control of an embed is reachable by Tab and shows a focus ring; charts have text alternatives', async () => {
  const { page } = await site.newPage(embedPath('lookup'));
  await settle(page);
  const controls = await page.locator('input, button, summary, select, textarea, [tabindex="0"]').count();
  const seen = new Set();
  for (let i = 0; i < controls + 2; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const node = document.activeElement;
      if (!node || node === document.body) return null;
      const style = getComputedStyle(node);
      // Each element once (two charts' "Show data" summaries have the same markup).
      const order = [...document.querySelectorAll('*')].indexOf(node);
      return { key: `${order} ${node.outerHTML.slice(0, 120)}`, outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    if (!focused) continue;
    seen.add(focused.key);
    assert.ok(focused.outline !== 'none' && focused.width >= 2, `focus ring on ${focused.key}`);
  }
  assert.ok(seen.size >= controls, `reached ${seen.size} of ${controls} controls`);
  for (const canvas of await page.locator('canvas').all()) {
    assert.equal(await canvas.getAttribute('role'), 'img');
    assert.ok(((await canvas.getAttribute('aria-label')) ?? '').length > 10);
  }
});

test('prefers-reduced-motion turns transitions and animations off', async () => {
  const { page } = await site.newPage(embedPath('lookup'));
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await settle(page);
  const durations = await page.evaluate(() =>
    [...document.querySelectorAll('.kl-widget *')].map((node) => parseFloat(getComputedStyle(node).transitionDuration) || 0),
  );
  assert.ok(durations.every((seconds) => seconds <= 0.001));
});
