// Every figure when every part of the core is slow to arrive (each figure waiting for one says
// what it is loading, then draws), and when a part fails to arrive once, slowly or at once (the
// core's or the laboratory's wasm or script, the worker's script), then arrives: while it is slow
// the waiting figures say what they load; then each figure names what failed (never as a refusal
// of the reader's input), offers Retry, and draws after one Retry, with no uncaught error and no
// figure left waiting for data (a worker that does not start is no failure to the figures: their
// work runs on the page). All
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
/// The name a figure waiting for the part gives it: "Loading the core (…" while it is slow to arrive.
const NAMES = { 'core wasm': 'core', 'core script': 'core', 'lab wasm': 'laboratory', 'lab script': 'laboratory', worker: "core's worker" };
const LOADING = Object.fromEntries(Object.entries(NAMES).map(([part, name]) => [part, new RegExp(`^Loading the ${name} \\(`)]));
/// The part a request is for (undefined: none), and its name.
const partOf = (url) => Object.keys(PARTS).find((part) => PARTS[part].test(url));
const nameOf = (url) => NAMES[partOf(url)];

/// The host page's viewport height: every figure's waiting box (20rem) within it as the page loads, so
/// that each figure is asked for at once and mounts, however tall it grows. (A viewport as tall as the
/// drawn page, about 14,000 px, took twice the CPU per load, in drawing what no check looks at.)
const TALL = 400 * widgetNames.length;

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
/// (Run in the page.)
const readFigures = () =>
  [...document.querySelectorAll('kernel-lens-figure')].map((element) => {
    const frame = element.shadowRoot.querySelector('figure.kl-widget');
    const error = frame?.querySelector('.kl-widget__error');
    const notes = [...(frame?.querySelectorAll('.kl-widget__note') ?? [])];
    return {
      widget: element.getAttribute('widget'),
      drawn: Number(frame?.dataset.klDrawn ?? 0),
      busy: frame?.hasAttribute('data-kl-busy') ?? true,
      error: error && !error.hidden ? error.textContent : null,
      loading: notes.map((note) => note.textContent).find((text) => text.startsWith('Loading ')) ?? null,
      waiting: notes.filter((note) => !note.hidden).map((note) => note.textContent).find((text) => text.startsWith('Waiting ')) ?? null,
      retry: Boolean(error && !error.hidden && error.querySelector('.kl-widget__retry')),
      working: notes.filter((note) => note.checkVisibility()).map((note) => note.textContent).filter((text) => /^(Computing|Waiting|Loading) /.test(text)),
      // Read-out lines shown with every number still blank ("Step : h = , risk ."); the numbers are
      // the lines' innermost elements other than line breaks.
      blank: [...(frame?.querySelectorAll('.kl-readout') ?? [])]
        .filter((line) => line.checkVisibility())
        .filter((line) => {
          const slots = [...line.querySelectorAll(':not(br)')].filter((slot) => slot.childElementCount === 0);
          return slots.length > 0 && slots.every((slot) => !/\S/.test(slot.textContent));
        })
        .map((line) => line.textContent.replace(/\s+/g, ' ')),
      // Data tables shown with no cell (a caption alone).
      emptyTables: [...(frame?.querySelectorAll('.kl-table') ?? [])].filter((table) => table.checkVisibility() && !table.querySelector('th, td')).map((table) => table.caption?.textContent ?? ''),
    };
  });

/// Waits until `done(states, arg)` holds, checked in the page (every 20 ms, and never by a round
/// trip per check); returns the states. `read` reads them in the page (by default every figure's on
/// the host page, all seventeen of them). `done` and `read` run in the page: they see only their
/// arguments (`arg` is JSON).
async function until(page, done, what, read = readFigures, arg = null) {
  const count = read === readFigures ? widgetNames.length : 0;
  const check = `(() => { const states = (${read})(); if (${count} && states.length !== ${count}) return false; return (${done})(states, ${JSON.stringify(arg)}) ? states : false; })()`;
  try {
    return await (await page.waitForFunction(check, null, { polling: 20, timeout: 60000 })).jsonValue();
  } catch (error) {
    throw new Error(`${what}: ${error.message.split('\n')[0]}; ${JSON.stringify(await page.evaluate(read).catch(() => null))}`);
  }
}

test('every part slow: each figure waiting says what it is loading, and draws once the parts arrive', async () => {
  const context = await hosted.browser.newContext({ viewport: { width: 1000, height: TALL } });
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
  const holding = [];
  /// Resolves once a request is held.
  const someHeld = () => new Promise((resolve) => (held.length ? resolve() : holding.push(resolve)));
  for (const pattern of Object.values(PARTS)) {
    await page.route(pattern, (route) => {
      held.push(route);
      for (const resolve of holding.splice(0)) resolve();
    });
  }
  await page.goto(`${hosted.host.url}index.html`);
  const said = new Set();
  /// What the waiting figures said in each round (for a failure's message).
  const heard = [];
  const settled = (now) => now.every((s) => s.drawn >= 1 && !s.busy && !s.error);
  for (let round = 0; ; round++) {
    const told = () => until(
      page,
      (now) => now.every((s) => (s.drawn >= 1 && !s.busy && !s.error) || (s.loading && !s.error)),
      `round ${round}: not every waiting figure says what it loads`,
    );
    let states = await told();
    // Figures that still say what they load while nothing is held: they wait for what was just
    // let through, or for a request that has not reached the test yet. Read them again once one
    // of the two has happened.
    if (!settled(states) && held.length === 0) {
      const drawn = until(page, (now) => now.every((s) => s.drawn >= 1 && !s.busy && !s.error), `round ${round}: figures neither drew nor asked again`);
      drawn.catch(() => {});
      await Promise.race([someHeld(), drawn]);
      states = await told();
    }
    // A request held just now (the laboratory's, asked for as a figure's first part arrives) may
    // not be named yet: what is held is let through once a waiting figure names each of its parts.
    const parts = [...new Set(held.map((route) => nameOf(route.request().url())))];
    if (parts.length > 0 && !parts.every((part) => states.some((s) => s.loading?.includes(`the ${part} (`)))) {
      states = await until(
        page,
        (now, named) =>
          now.every((s) => (s.drawn >= 1 && !s.busy && !s.error) || (s.loading && !s.error)) &&
          named.every((part) => now.some((s) => s.loading?.includes(`the ${part} (`))),
        `round ${round}: held parts ${JSON.stringify(parts)} never named by a waiting figure`,
        readFigures,
        parts,
      );
    }
    heard.push(states.filter((state) => state.drawn === 0).map((state) => `${state.widget}: ${state.loading}`));
    for (const s of states.filter((state) => state.drawn === 0)) {
      assert.match(s.loading, /^Loading the (core|laboratory|core's worker) \(/, `${s.widget}: ${s.loading}`);
      for (const [, what] of s.loading.matchAll(/the (core's worker|core|laboratory) \(/g)) said.add(what);
    }
    if (settled(states)) break;
    assert.ok(round < 10, `figures still wait after ten rounds: ${JSON.stringify(states)}`);
    for (const route of held.splice(0)) await route.continue();
  }
  // The core, the laboratory and the worker were each said while slow.
  assert.deepEqual([...said].sort(), ['core', "core's worker", 'laboratory'], `heard by round: ${JSON.stringify(heard)}`);
  assert.deepEqual(errors, []);
  await context.close();
});

/// A page in a context of its own, 1000 px wide and `height` tall, collecting uncaught errors and
/// console errors (not the browser's line for the failed request itself).
async function faultPage(height) {
  const context = await hosted.browser.newContext({ viewport: { width: 1000, height } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(message.text());
  });
  // Each request for a part of the core and how it ended (a failure's message lists them).
  const requests = [];
  const note = (request, outcome) => {
    const part = partOf(request.url());
    if (part) requests.push(`${part}: ${outcome}`);
  };
  page.on('request', (request) => note(request, 'asked'));
  page.on('requestfinished', (request) => note(request, 'arrived'));
  page.on('requestfailed', (request) => note(request, `failed (${request.failure()?.errorText})`));
  return { context, page, errors, requests };
}

/// How a part fails to arrive once: its first request slow (held until every waiting figure says
/// what it waits for, so that requests queue behind it), then failing; or every request of the
/// page's load failing at once (so that a figure's requests for other parts, which arrive, settle
/// after its failure).
const FAILURES = ['is slow, then fails once', 'fails once at once'];

for (const [part, pattern] of Object.entries(PARTS)) {
  for (const failure of FAILURES) {
    const outcome = part === 'worker' ? 'every figure draws, its work on the page, with no error' : 'every figure that needs it says so, offers Retry, and draws after it';
    test(`${part} ${failure}: ${outcome}`, async () => {
      const { context, page, errors, requests } = await faultPage(TALL);
      let failures = 0;
      let held;
      const arrived = new Promise((resolve) => (held = resolve));
      const slowly = failure === FAILURES[0];
      // At once: every request for the part during the page's load fails (each figure that asks
      // for it meets the failure, beside its requests for parts that arrive), until the figures
      // have settled with their explanations.
      let failing = true;
      await page.route(pattern, (route) => {
        if (slowly ? failures++ > 0 : !failing) return route.continue();
        if (slowly) return held(route);
        failures++;
        return route.abort('connectionfailed');
      });
      await page.goto(`${hosted.host.url}index.html`);
      if (slowly) {
        const slow = await arrived;
        const waiting = await until(page, (states) => states.some((s) => s.drawn === 0) && states.filter((s) => s.drawn === 0).every((s) => s.loading && !s.error), `${part} slow: not every waiting figure says so`);
        for (const s of waiting.filter((w) => w.drawn === 0)) assert.match(s.loading, LOADING[part], `${s.widget}: ${s.loading}`);
        await slow.abort('connectionfailed');
      }
      if (part === 'worker') {
        // Where no worker starts, work light enough runs on the page (every figure's work on this
        // page is): each figure draws, none shows an error, none is left waiting.
        await until(page, (states) => states.every((s) => s.drawn >= 1 && !s.busy && !s.error && !s.waiting), 'not every figure drew from the page');
        assert.ok(failures >= 1, 'the worker was never started');
        assert.deepEqual(errors, []);
        await context.close();
        return;
      }
      const first = await until(page, (states) => states.every((s) => s.drawn >= 1 && !s.busy) && states.some((s) => s.error), 'figures never settled with an explanation');
      failing = false;
      assert.ok(failures >= 1, `${part} was never requested`);
      // A figure that says what failed no longer says it is computing, waiting or loading.
      // Nor does it show read-out lines whose numbers never arrived, or tables with no cell.
      for (const s of first.filter((state) => state.error)) {
        assert.deepEqual(s.working, [], `${s.widget} says it works on beside its error`);
        assert.deepEqual(s.blank, [], `${s.widget} shows read-outs with no numbers beside its error`);
        assert.deepEqual(s.emptyTables, [], `${s.widget} shows tables with no cells beside its error`);
      }
      // Every figure that explains the failure names what failed, offers Retry, and draws after one
      // Retry (a figure whose request waited longer may say so a little later). A figure left
      // waiting for data with no error and no Retry has not recovered.
      const before = Object.fromEntries(first.map((s) => [s.widget, s.drawn]));
      const retried = new Set();
      const recovered = (states, { before, retried }) =>
        states.every((s) => !s.error && !s.busy && !s.waiting && !s.blank.length && (s.drawn > before[s.widget] || !retried.includes(s.widget)));
      for (let rounds = 0; ; rounds++) {
        const states = await until(
          page,
          `(states, arg) => (${recovered})(states, arg) || states.some((s) => s.error && !arg.retried.includes(s.widget))`,
          `not every figure recovered after Retry (${[...retried]})`,
          readFigures,
          { before, retried: [...retried] },
        ).catch((error) => {
          throw new Error(`${error.message}; requests for the parts: ${JSON.stringify(requests)}`);
        });
        if (recovered(states, { before, retried: [...retried] })) break;
        assert.ok(rounds < widgetNames.length, `Retry went on after every figure had one: ${JSON.stringify(states)}`);
        for (const s of states.filter((state) => state.error && !retried.has(state.widget))) {
          assert.doesNotMatch(s.error, /is refused/, `${s.widget} calls the load failure a refusal: ${s.error}`);
          assert.match(s.error, /could not be/, `${s.widget}: ${s.error}`);
          assert.ok(s.retry, `${s.widget} offers no Retry`);
          retried.add(s.widget);
          await page.locator(`kernel-lens-figure[widget="${s.widget}"]`).locator('.kl-widget__retry').click();
        }
      }
      assert.ok(retried.size >= 1);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

/// An embed's figure: its drawn count, busy mark, visible error, Retry and "Waiting …" note.
/// (Run in the page.)
const readEmbed = () => {
  const frame = document.querySelector('figure.kl-widget');
  const error = frame?.querySelector('.kl-widget__error');
  return {
    drawn: Number(frame?.dataset.klDrawn ?? 0),
    busy: frame?.hasAttribute('data-kl-busy') ?? true,
    error: error && !error.hidden ? error.textContent : null,
    retry: Boolean(error && !error.hidden && error.querySelector('.kl-widget__retry')),
    waiting: [...(frame?.querySelectorAll('.kl-widget__note') ?? [])].map((note) => note.textContent).find((text) => text.startsWith('Waiting ')) ?? null,
  };
  };

for (const part of ['core wasm', 'lab wasm']) {
  test(`each figure embedded alone: ${part} fails once at load, the figure says so until Retry, then draws`, async () => {
    const { context, page, errors } = await faultPage(3000);
    // Each visit's first request for the part fails; the figure's other requests arrive.
    let requests = 0;
    await page.route(PARTS[part], (route) => (requests++ === 0 ? route.abort('connectionfailed') : route.continue()));
    const stuck = [];
    let explained = 0;
    assert.equal(widgetNames.length, 17);
    for (const name of widgetNames) {
      requests = 0;
      await page.goto(`${hosted.site.url}embed.html?widget=${name}`);
      const settled = (done, what, arg) => until(page, done, `${name}: ${what}`, readEmbed, arg);
      const first = await settled((s) => s.drawn >= 1 && !s.busy, 'never settled');
      if (first.error) {
        explained++;
        assert.match(first.error, /could not be/, `${name}: ${first.error}`);
        assert.ok(first.retry, `${name} offers no Retry`);
        await page.locator('.kl-widget__retry').click();
        await settled((s, drawn) => s.drawn > drawn && !s.busy && !s.error, 'did not draw after Retry', first.drawn);
      }
      // Settled with no error: nothing may still wait for data that failed to arrive.
      const last = await page.evaluate(readEmbed);
      if (last.waiting || last.error) stuck.push(`${name}: ${last.waiting ?? last.error}`);
    }
    assert.deepEqual(stuck, []);
    assert.ok(explained >= 1, `no figure met the ${part}'s failure`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
