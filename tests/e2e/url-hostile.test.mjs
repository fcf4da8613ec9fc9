// Random and hostile URL parameters against every widget's embed: each rejected value falls back to
// its default with a visible note naming it, nothing executes, nothing crashes.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { afterDrawn, embedPath, openSite, scrollToFigure, waitForText } from './harness.mjs';
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

/// Values no parameter kind accepts (numbers, integers, enums, lists, booleans).
const HOSTILE = [
  '<script>window.__pwned=1</script>',
  '"><img src=x onerror="window.__pwned=2">',
  'javascript:window.__pwned=3',
  "'; window.__pwned=4; '",
  '${window.__pwned=5}',
  '{{constructor.constructor("window.__pwned=6")()}}',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '0x10',
  '__proto__',
  'constructor',
  '\u0000\u0001\u0002',
  '\uFFFD\uD800',
  ',,,',
  '1,,2',
  'A'.repeat(4000),
  '9'.repeat(400),
  '1;DROP TABLE x',
  '%00%0a',
  '\u202e1',
];

/// A reproducible stream of junk (xorshift32), mixing hostile fragments with random characters.
function* randomStrings(seed, count) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const alphabet = '<>"\'&;=:/\\%{}()[]$`!@#*|^~ abcxyz._-+eE\u00e9\u4e2d\u{1F600}';
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * 40);
    let text = Math.floor(next() * 10) === 0 ? '' : 'x';
    for (let k = 0; k < length; k++) text += [...alphabet][Math.floor(next() * [...alphabet].length)];
    yield text;
  }
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

for (const widget of widgets) {
  test(`${widget.name}: hostile and random parameters fall back with a note and never execute`, async () => {
    const random = [...randomStrings(widget.name.length * 7919 + 17, 4)];
    const rounds = [...HOSTILE.map((value, i) => ({ value, i })).filter(({ i }) => i % 3 === widget.name.length % 3), ...random.map((value, i) => ({ value, i }))];
    const { page, errors } = await site.newPage('embed.html?widget=none');
    for (const { value } of rounds) {
      const params = Object.fromEntries(widget.params.map((name) => [name, value]));
      await page.goto(new URL(embedPath(widget.name, params), site.url).href);
      const frame = page.locator(`figure.kl-widget[data-widget="${widget.name}"]`);
      await frame.waitFor({ timeout: 15000 });
      const notes = page.locator('.kl-widget__note');
      await notes.first().waitFor({ timeout: 15000 });
      const text = (await notes.allTextContents()).join(' ');
      assert.match(text, /fell back to their defaults/, `no fallback note for ${JSON.stringify(value.slice(0, 60))}`);
      for (const name of widget.params) assert.ok(text.includes(`${name}=`), `the note names ${name}`);
      // Whatever the value could have run would have run by the figure's first drawing.
      await afterDrawn(frame);
      assert.equal(await page.evaluate(() => window.__pwned), undefined, `executed: ${value.slice(0, 60)}`);
      assert.equal(await frame.locator('script, img[src="x"]').count(), 0);
      assert.equal(await page.locator('.kl-widget__error:not([hidden])').count(), 0, `error shown for ${JSON.stringify(value.slice(0, 60))}`);
    }
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
