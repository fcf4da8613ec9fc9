// Figures mounting shift nothing (issue 19's pages: the full page, the lookup and bias-variance
// embeds) at a phone's width: their tables and read-outs hold blanks the width of their numbers
// until the core answers, the grid minimum's marking changes no width, and figures far below do
// not mount at load. The Layout Instability API's entries are summed as Lighthouse's CLS is
// (every shift without recent input, during the load and the audit's run).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, figuresDrawn, nextFrames, openSite, waitForText } from './harness.mjs';
import { widgetNames } from './widget-list.mjs';

let site;
before(async () => {
  site = await openSite({ viewport: { width: 412, height: 823 } });
});
after(async () => {
  await site?.close();
});

function recordShifts() {
  globalThis.klShifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      globalThis.klShifts.push({
        value: entry.value,
        nodes: entry.sources.map((source) => `${source.node?.nodeName ?? '?'}.${source.node?.className ?? ''} "${(source.node?.textContent ?? '').slice(0, 40)}"`),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

const PAGES = [
  { name: 'the lookup embed', path: embedPath('lookup'), done: (page) => waitForText(page.getByTestId('prediction'), /\d/) },
  { name: 'the bias-variance embed', path: embedPath('bias-variance'), done: (page) => waitForText(page.getByTestId('grid-minimum'), /h=/, 60000) },
  {
    name: 'the full page',
    path: 'index.html',
    // The first screen is prose; the reader then scrolls down to the first figure, which mounts
    // before it comes into view.
    done: async (page) => {
      await page.locator('#kl-opening .katex').first().waitFor();
      await nextFrames(page);
      const first = page.locator('#section-lookup');
      for (let step = 0; step < 200 && (await first.locator('.kl-widget').count()) === 0; step++) {
        await page.mouse.wheel(0, 100);
        await nextFrames(page);
      }
      await waitForText(first.locator('.kl-widget [data-testid]').first(), /\d/);
    },
  },
];

for (const { name, path, done } of PAGES) {
  test(`${name} mounts without a layout shift at 412 px`, async () => {
    const { page, errors } = await site.newPage(path, { init: recordShifts });
    await done(page);
    await figuresDrawn(page);
    await nextFrames(page);
    const shifts = await page.evaluate(() => globalThis.klShifts);
    const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
    assert.ok(total < 0.001, `layout shift ${total.toFixed(4)}: ${JSON.stringify(shifts)}`);
    assert.deepEqual(errors, []);
  });
}

/// Every other embed, once it has drawn: these mount without a shift too; the rest
/// still shift a little (their read-outs or tables change size when the answer lands), each
/// within Lighthouse's "good" (0.1).
const STILL = ['attention-map', 'underflow', 'exercise-convexity', 'exercise-ols-weights', 'standardize', 'ties', 'memory-bank'];
const SMALL = widgetNames.filter((widget) => !STILL.includes(widget) && widget !== 'lookup' && widget !== 'bias-variance');

test('every other embed mounts without a shift, or (still) within 0.1, at 412 px', async () => {
  const totals = {};
  // One page visits every embed; the recorder starts anew with each document.
  const { errors, visit } = await site.visitor({ init: recordShifts });
  for (const widget of [...STILL, ...SMALL]) {
    errors.length = 0;
    const page = await visit(embedPath(widget));
    await afterDrawn(page.locator('.kl-widget'));
    await nextFrames(page);
    const shifts = await page.evaluate(() => globalThis.klShifts);
    totals[widget] = { total: shifts.reduce((sum, shift) => sum + shift.value, 0), shifts };
    assert.deepEqual(errors, [], widget);
  }
  for (const widget of STILL) assert.ok(totals[widget].total < 0.01, `${widget}: ${JSON.stringify(totals[widget])}`);
  for (const widget of SMALL) {
    assert.ok(totals[widget].total < 0.1, `${widget}: ${JSON.stringify(totals[widget])}`);
  }
});
