// Every figure when every part of the core is slow to arrive (each figure waiting for one says
// what it is loading, then draws), and when a part is slow and then fails to arrive once (the
// core's or the laboratory's wasm or script, the worker's script), then arrives: while it is slow
// the waiting figures say what they load; then each figure names what failed (never as a refusal
// of the reader's input), offers Retry, and draws after one Retry, with no uncaught error. All
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
/// What a figure waiting for the part says while it is slow to arrive.
const LOADING = {
  'core wasm': /^Loading the core \(/,
  'core script': /^Loading the core \(/,
  'lab wasm': /^Loading the laboratory \(/,
  'lab script': /^Loading the laboratory \(/,
  worker: /^Loading the core's worker \(/,
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
  test(`${part} is slow, then fails once: every figure that needs it says so, offers Retry, and draws after it`, async () => {
    const context = await hosted.browser.newContext({ viewport: { width: 1000, height: 40000 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      // The failed request itself is the browser's line, not the page's.
      if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(message.text());
    });
    // The first request is slow (held until every figure waiting for it has said what it waits
    // for, so that requests queue behind it), then fails.
    let failures = 0;
    let held;
    const arrived = new Promise((resolve) => (held = resolve));
    await page.route(pattern, (route) => (failures++ === 0 ? held(route) : route.continue()));
    await page.goto(`${hosted.host.url}index.html`);
    const slow = await arrived;
    const waiting = await until(page, (states) => states.some((s) => s.drawn === 0) && states.filter((s) => s.drawn === 0).every((s) => s.loading && !s.error), `${part} slow: not every waiting figure says so`);
    for (const s of waiting.filter((w) => w.drawn === 0)) assert.match(s.loading, LOADING[part], `${s.widget}: ${s.loading}`);
    await slow.abort('connectionfailed');
    const first = await until(page, (states) => states.every((s) => s.drawn >= 1 && !s.busy) && states.some((s) => s.error), 'figures never settled with an explanation');
    assert.ok(failures >= 1, `${part} was never requested`);
    // Every figure that explains the failure names what failed, offers Retry, and draws after one
    // Retry (a figure whose request waited longer may say so a little later).
    const before = Object.fromEntries(first.map((s) => [s.widget, s.drawn]));
    const retried = new Set();
    const recovered = (states) => states.every((s) => !s.error && !s.busy && (s.drawn > before[s.widget] || !retried.has(s.widget)));
    for (let frames = 0; ; frames++) {
      const states = await figureStates(page);
      if (recovered(states)) break;
      assert.ok(frames < 3000, `not every figure recovered after Retry (${[...retried]}): ${JSON.stringify(states)}`);
      for (const s of states.filter((state) => state.error && !retried.has(state.widget))) {
        assert.doesNotMatch(s.error, /is refused/, `${s.widget} calls the load failure a refusal: ${s.error}`);
        assert.match(s.error, /could not be/, `${s.widget}: ${s.error}`);
        assert.ok(s.retry, `${s.widget} offers no Retry`);
        retried.add(s.widget);
        await page.locator(`kernel-lens-figure[widget="${s.widget}"]`).locator('.kl-widget__retry').click();
      }
      await page.evaluate(() => new Promise((next) => requestAnimationFrame(() => next())));
    }
    assert.ok(retried.size >= 1);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
