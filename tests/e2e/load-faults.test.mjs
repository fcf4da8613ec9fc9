// Every figure when every part of the core is slow to arrive (each figure waiting for one says
// what it is loading, then draws), and when a part fails to arrive once (the core's or the
// laboratory's wasm or script, the worker's script) and then arrives: the figure names what failed (never as a
// refusal of the reader's input), offers Retry, and draws after it, with no uncaught error. All
// seventeen figures share one host page, as course notes with many figures do.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openHostedSite } from './harness.mjs';
import { widgetNames } from './widget-list.mjs';

const PARTS = {
  'core wasm': /\/assets\/kernel_lens_core-[^/]*\.wasm$/,
  'core script': /\/assets\/kernel_lens_core-[^/]*\.js$/,
  'lab wasm': /\/assets\/kernel_lens_lab-[^/]*\.wasm$/,
  'lab script': /\/assets\/kernel_lens_lab-[^/]*\.js$/,
  worker: /\/assets\/worker-[^/]*\.js$/,
};

let hosted;

before(async () => {
  const figures = widgetNames.map((name) => `<kernel-lens-figure widget="${name}"></kernel-lens-figure>`).join('\n');
  hosted = await openHostedSite({
    'index.html': (siteUrl) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Notes</title></head>
<body><h1>Notes</h1>${figures}<script type="module" src="${siteUrl}kernel-lens.js"></script></body></html>`,
  });
});

after(() => hosted?.close());

/// Each figure's drawn count, busy mark and visible error (its text, and whether it has a Retry).
const figureStates = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('kernel-lens-figure')].map((element) => {
      const frame = element.shadowRoot.querySelector('figure.kl-widget');
      const error = frame?.querySelector('.kl-widget__error');
      return {
        widget: element.getAttribute('widget'),
        drawn: Number(frame?.dataset.klDrawn ?? 0),
        busy: frame?.hasAttribute('data-kl-busy') ?? true,
        error: error && !error.hidden ? error.textContent : null,
        loading: [...(frame?.querySelectorAll('.kl-widget__note') ?? [])].map((note) => note.textContent).find((text) => text.startsWith('Loading ')) ?? null,
        retry: Boolean(error && !error.hidden && error.querySelector('.kl-widget__retry')),
      };
    }),
  );

/// Waits (frame by frame) until `done(states)` holds; returns the states.
async function until(page, done, what) {
  let states = [];
  for (let frames = 0; frames < 3000; frames++) {
    states = await figureStates(page);
    if (states.length === widgetNames.length && done(states)) return states;
    await page.evaluate(() => new Promise((next) => requestAnimationFrame(() => next())));
  }
  throw new Error(`${what}: ${JSON.stringify(states)}`);
}

test('every part slow: each figure waiting says what it is loading, and draws once the parts arrive', async () => {
  const context = await hosted.browser.newContext({ viewport: { width: 1000, height: 40000 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  // Every request for a part of the core is held until every figure has drawn or says what it
  // waits for; then the held ones arrive, and the next ones (the worker, the worker's own script
  // of the laboratory) are held in turn, until every figure has drawn.
  const held = [];
  for (const pattern of Object.values(PARTS)) await page.route(pattern, (route) => held.push(route));
  await page.goto(`${hosted.host.url}index.html`);
  const said = new Set();
  for (let round = 0; ; round++) {
    const settled = (now) => now.every((s) => s.drawn >= 1 && !s.busy && !s.error);
    const states = await until(
      page,
      (now) => settled(now) || (held.length >= 1 && now.every((s) => (s.drawn >= 1 && !s.busy && !s.error) || (s.loading && !s.error))),
      `round ${round}: not every waiting figure says what it loads`,
    );
    for (const s of states.filter((state) => state.drawn === 0)) {
      assert.match(s.loading, /^Loading the (core|laboratory|core's worker) \(/, `${s.widget}: ${s.loading}`);
      for (const [, what] of s.loading.matchAll(/the (core's worker|core|laboratory) \(/g)) said.add(what);
    }
    if (settled(states)) break;
    assert.ok(round < 10, `figures still wait after ten rounds: ${JSON.stringify(states)}`);
    for (const route of held.splice(0)) await route.continue();
  }
  // The core, the laboratory and the worker were each said while slow.
  assert.deepEqual([...said].sort(), ['core', "core's worker", 'laboratory']);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [part, pattern] of Object.entries(PARTS)) {
  test(`${part} fails once: every figure that needs it says so, offers Retry, and draws after it`, async () => {
    const context = await hosted.browser.newContext({ viewport: { width: 1000, height: 40000 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      // The failed request itself is the browser's line, not the page's.
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(message.text());
    });
    let failures = 0;
    await page.route(pattern, (route) => (failures++ === 0 ? route.abort('connectionfailed') : route.continue()));
    await page.goto(`${hosted.host.url}index.html`);
    const first = await until(page, (states) => states.every((s) => s.drawn >= 1 && !s.busy), 'figures never settled');
    assert.ok(failures >= 1, `${part} was never requested`);
    const failed = first.filter((s) => s.error);
    assert.ok(failed.length >= 1, `no figure explained the failure: ${JSON.stringify(first)}`);
    for (const s of failed) {
      assert.doesNotMatch(s.error, /is refused/, `${s.widget} calls the load failure a refusal: ${s.error}`);
      assert.match(s.error, /could not be/, `${s.widget}: ${s.error}`);
      assert.ok(s.retry, `${s.widget} offers no Retry`);
    }
    const before = Object.fromEntries(first.map((s) => [s.widget, s.drawn]));
    for (const s of failed) {
      await page.locator(`kernel-lens-figure[widget="${s.widget}"]`).locator('.kl-widget__retry').click();
    }
    await until(page, (states) => states.every((s) => !s.error && !s.busy && (s.drawn > before[s.widget] || !failed.some((f) => f.widget === s.widget))), 'not every figure recovered after Retry');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
