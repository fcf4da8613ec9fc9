// Random and hostile URL parameters against every widget's embed: each rejected value falls back to
// its default with a visible note naming it, nothing executes, nothing crashes.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { embedPath, figuresDrawn, openSite, scrollToFigure, waitForText } from './harness.mjs';
import { INJECTIONS, randomStrings } from '../unit/hostile-values.mjs';
import { widgetNames } from './widget-list.mjs';

const widgetsDir = new URL('../../web/src/widgets/', import.meta.url);

/// Every widget folder and the parameter names its schema declares (`name: { kind: '…'`).
function widgetParams() {
  return widgetNames
    .map((name) => {
      const folder = new URL(`${name}/`, widgetsDir);
      const source = readdirSync(folder)
        .filter((file) => file.endsWith('.ts'))
        .map((file) => readFileSync(new URL(file, folder), 'utf8'))
        .join('\n');
      const params = [...source.matchAll(/(\w+):\s*\{\s*kind:\s*'(?:number|integer|enum|numbers|boolean)'/g)].map((m) => m[1]);
      return { name, params: [...new Set(params)] };
    })
    .filter((widget) => widget.params.length > 0);
}

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const widgets = widgetParams();

test('widget parameters are discovered from the source', () => {
  assert.ok(widgets.length >= 3, `found ${widgets.map((w) => w.name)}`);
  assert.ok(widgets.find((w) => w.name === 'lookup')?.params.includes('h'));
});

/// Loads `urls` as iframes of one page and returns their frames once each figure has drawn (the
/// harness's figuresDrawn, in each frame): one page with many frames costs far less than one
/// navigation per value (the frames share the page's process and its compiled code), and each
/// frame parses its own address.
async function loadFrames(page, urls) {
  await page.evaluate((urls) => {
    document.body.replaceChildren(
      ...urls.map((url) => {
        const frame = document.createElement('iframe');
        frame.style.cssText = 'width: 900px; height: 700px; border: 0; display: block';
        frame.src = url;
        return frame;
      }),
    );
  }, urls);
  const frames = await Promise.all(urls.map(async (url, i) => (await page.locator('iframe').nth(i).elementHandle()).contentFrame()));
  // Each frame's own document, committed (its load event waits for every file of the page, which
  // the test does not need), then its figure. The figure writes its state back into its address
  // (the values that fell back leave it), so the address is awaited by its page and widget: a
  // frame that had already done so when the wait began never matched its first address under a
  // loaded machine (seen in CI runs). A failure says where that frame and the page's frames were.
  await Promise.all(frames.map(async (frame, i) => {
    const asked = new URL(urls[i]);
    const own = (url) => url.origin === asked.origin && url.pathname === asked.pathname && url.searchParams.get('widget') === asked.searchParams.get('widget');
    await frame.waitForURL(own, { timeout: 60000, waitUntil: 'commit' }).catch((error) => {
      const where = page.frames().map((each) => `${each === frame ? '* ' : ''}${each.isDetached() ? 'detached ' : ''}${each.url()}`);
      throw new Error(`frame ${i} (${urls[i]}): ${error.message.split('\n')[0]}; frame ${frame.isDetached() ? 'detached' : 'attached'} at ${frame.url()}; the page's frames: ${where.join(', ')}`);
    });
    await figuresDrawn(frame, 60000);
  }));
  return frames;
}

// Every value against every schema is tests/unit/hostile-params.test.mjs; here each figure's page
// gets each value that would run code, spread over its parameters (a figure with P parameters
// takes P of them per page), and one random value in all of them.
for (const widget of widgets) {
  test(`${widget.name}: hostile and random parameters fall back with a note and never execute`, async () => {
    const count = widget.params.length;
    const rounds = [];
    for (let first = 0; first < INJECTIONS.length; first += count) {
      rounds.push(widget.params.map((_, j) => INJECTIONS[(first + j) % INJECTIONS.length]));
    }
    const [random] = randomStrings(widget.name.length * 7919 + 17, 1);
    rounds.push(widget.params.map(() => random));
    const covered = new Set(rounds.flat());
    assert.ok(INJECTIONS.length >= 5 && INJECTIONS.every((value) => covered.has(value)), `${covered.size} values on the pages`);
    const { page, errors } = await site.newPage('embed.html?widget=none');
    const urls = rounds.map((values) => new URL(embedPath(widget.name, Object.fromEntries(widget.params.map((name, j) => [name, values[j]]))), site.url).href);
    const frames = await loadFrames(page, urls);
    const seen = await Promise.all(
      frames.map((frame) =>
        frame.evaluate((name) => {
          const figure = document.querySelector(`figure.kl-widget[data-widget="${name}"]`);
          return {
            figure: Boolean(figure),
            notes: [...document.querySelectorAll('.kl-widget__note')].map((note) => note.textContent).join(' '),
            pwned: window.__pwned,
            injected: figure ? figure.querySelectorAll('script, img[src="x"]').length : -1,
            shownErrors: document.querySelectorAll('.kl-widget__error:not([hidden])').length,
          };
        }, widget.name),
      ),
    );
    assert.equal(seen.length, rounds.length);
    rounds.forEach((values, i) => {
      const shown = JSON.stringify(values.map((value) => value.slice(0, 60)));
      const { figure, notes, pwned, injected, shownErrors } = seen[i];
      assert.ok(figure, `no figure for ${shown}`);
      assert.match(notes, /fell back to their defaults/, `no fallback note for ${shown}`);
      for (const name of widget.params) assert.ok(notes.includes(`${name}=`), `the note for ${shown} names ${name}`);
      // Whatever the value could have run would have run by the figure's first drawing.
      assert.equal(pwned, undefined, `executed: ${shown}`);
      assert.equal(injected, 0, `markup injected by ${shown}`);
      assert.equal(shownErrors, 0, `error shown for ${shown}`);
    });
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(errors, []);
  });
}

test('a 10,000-character value is echoed as its first 40 characters and the page does not widen', async () => {
  const long = 'A'.repeat(10_000);
  const { page, errors } = await site.newPage(embedPath('lookup', { h: long }), { viewport: { width: 360, height: 800 } });
  const notes = page.locator('.kl-widget__note');
  const text = await waitForNote(notes);
  assert.ok(text.includes(`h=${'A'.repeat(40)}… (10,000 characters)`), text.slice(0, 200));
  assert.ok(!text.includes('A'.repeat(41)), 'the note repeats more than 40 characters of the value');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  assert.deepEqual(errors, []);
});

async function waitForNote(notes) {
  await notes.first().waitFor({ timeout: 15000 });
  return (await notes.allTextContents()).join(' ');
}

test('the full page names the address entries that nothing takes, and a figure its own misspelt one', async () => {
  const { page, errors } = await site.newPage('index.html?lookup.bandwith=1&nope.h=2&q=1&h=9&theme=DARK', { viewport: { width: 360, height: 800 } });
  const pageNote = await waitForText(page.locator('.kl-page__note'), /no effect/);
  assert.match(pageNote, /nope\.h: no figure on this page is named nope/);
  assert.match(pageNote, /q is not a parameter of this page; .* as in lookup\.q/);
  // h is the page's own (one h for the whole page), and 9 is none of its values.
  assert.match(pageNote, /h=9: one h for the whole page takes a number in \[0\.05, 3\]; each figure keeps its own h/);
  assert.match(pageNote, /theme=DARK is not a theme \(light, dark, auto\); did you mean dark\?/);
  await scrollToFigure(page, 'section-lookup');
  assert.match(await waitForNote(page.locator('#section-lookup .kl-widget__note')), /bandwith is not a parameter of this figure; did you mean bandwidth/);
  assert.deepEqual(errors, []);
});

test('an embed names a theme that is none; keys=0 names the keys and values that fell back', async () => {
  const { page, errors } = await site.newPage(embedPath('lookup', { theme: 'drak', keys: '0' }));
  const text = await waitForNote(page.locator('.kl-widget__note'));
  assert.match(text, /theme=drak is not a theme \(light, dark, auto\); did you mean dark\?/);
  assert.match(text, /keys=0 \(1 key\) and values=1\.5,2\.8,1\.8 \(3 values\) must have the same length; both fall back to the chapter's three points/);
  assert.deepEqual(errors, []);
});

test('an 8,000-character widget name is cut in the message and does not widen the page', async () => {
  const { page, errors } = await site.newPage(`embed.html?widget=${'w'.repeat(8_000)}`, { viewport: { width: 360, height: 800 } });
  const message = await waitForText(page.locator('.kl-widget__error'), /Unknown widget/);
  assert.ok(message.length < 600, message.slice(0, 200));
  assert.match(message, /… \(8,000 characters\)/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  assert.deepEqual(errors, []);
});
