// A <kernel-lens-figure> removed from the page soon after it was added (a slide deck or a
// client-side router does this) leaves nothing behind that throws: no chart, heat map or frame
// callback of the figure outlives its canvas.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { elementReady, nextFrames, openHostedSite } from './harness.mjs';

let hosted;

before(async () => {
  hosted = await openHostedSite({
    'index.html': (siteUrl) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Notes</title>
<script type="module" src="${siteUrl}kernel-lens.js"></script></head><body><main id="notes"></main></body></html>`,
  });
});

after(() => hosted?.close());

/// Widgets with the kinds of drawing a figure can leave pending: Chart.js charts with a drag's
/// fast path (lookup, smoothing), bars (temperature) and heat maps (attention-map).
const WIDGETS = ['lookup', 'smoothing', 'temperature', 'attention-map'];
const DELAYS = [0, 16, 100, 300, 700];

test('a figure removed within 700 ms of being added throws nothing on the host page', async () => {
  const context = await hosted.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(hosted.host.url);
  await page.waitForFunction(() => customElements.get('kernel-lens-figure') !== undefined);
  // One figure of each widget mounted and settled first, so later figures mount from cache (the
  // fastest, where a removal is most likely to catch the first draws in flight).
  for (const widget of WIDGETS) {
    await page.evaluate(async (name) => {
      const figure = document.createElement('kernel-lens-figure');
      figure.setAttribute('widget', name);
      document.getElementById('notes').append(figure);
      await figure.ready;
      figure.remove();
    }, widget);
  }
  for (const widget of WIDGETS) {
    for (const delay of DELAYS) {
      await page.evaluate(
        async ({ name, wait }) => {
          const figure = document.createElement('kernel-lens-figure');
          figure.setAttribute('widget', name);
          document.getElementById('notes').append(figure);
          await new Promise((done) => setTimeout(done, wait));
          figure.remove();
        },
        { name: widget, wait: delay },
      );
    }
  }
  // The page still works: a figure added now shows its numbers. By its drawing, whatever the
  // removed figures had pending has come in (the worker answers in order; frames and attach
  // retries run before the frame that draws it).
  await page.evaluate(() => {
    const figure = document.createElement('kernel-lens-figure');
    figure.id = 'last';
    figure.setAttribute('widget', 'smoothing');
    document.getElementById('notes').append(figure);
  });
  await elementReady(page.locator('#last'));
  await page.locator('#last .kl-table tbody tr').nth(1).waitFor({ timeout: 20000 });
  await nextFrames(page);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a figure removed while its stylesheet is still loading does not hold up the figures after it', async () => {
  const context = await hosted.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  // A slow host: the stylesheet takes 800 ms (a removed element's link never loads).
  await page.route('**/kernel-lens.css', async (route) => {
    await new Promise((done) => setTimeout(done, 800));
    await route.continue().catch(() => {});
  });
  await page.goto(hosted.host.url);
  await page.waitForFunction(() => customElements.get('kernel-lens-figure') !== undefined);
  await page.evaluate(async () => {
    const first = document.createElement('kernel-lens-figure');
    first.setAttribute('widget', 'lookup');
    document.getElementById('notes').append(first);
    await new Promise((done) => setTimeout(done, 100));
    first.remove();
    const next = document.createElement('kernel-lens-figure');
    next.id = 'next';
    next.setAttribute('widget', 'lookup');
    document.getElementById('notes').append(next);
  });
  await page.locator('#next [data-testid=prediction]').waitFor({ timeout: 20000 });
  assert.deepEqual(errors, []);
  await context.close();
});
