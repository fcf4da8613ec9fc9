// Units of the site's pure TypeScript, run in Node through Vite's module loader (no browser):
// the parameter schema's parsing and its notes for parameters that had no effect, and the
// number formats the read-outs print, and text cut to the room it has.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { moduleLoader } from '../../scripts/widget-parameters.mjs';

let server;
let state;
let format;

const SCHEMA = {
  h: { kind: 'number', label: 'bandwidth h', default: 0.6, min: 0.05, max: 5, scale: 'log' },
  q: { kind: 'number', label: 'query q', default: 3.5, min: 0, max: 6, scale: 'linear', step: 0.05 },
  keys: { kind: 'numbers', label: 'key locations', default: [1, 3, 5], min: 0, max: 6, minLength: 1, maxLength: 8 },
  band: { kind: 'boolean', label: '±2 sd band shown', default: false },
};

before(async () => {
  server = await moduleLoader();
  state = await server.ssrLoadModule('/src/ui/state.ts');
  format = await server.ssrLoadModule('/src/ui/format.ts');
});
after(async () => {
  await server?.close();
});

test('parameters parse to the state, and refused values fall back with a line each', () => {
  const parsed = state.parseState(SCHEMA, new URLSearchParams('h=0.2&q=9&keys=1,2&band=1'));
  assert.deepEqual(parsed.state, { h: 0.2, q: 3.5, keys: [1, 2], band: true });
  assert.deepEqual(parsed.rejected, ['q=9 (expected a number in [0, 6])']);
  assert.deepEqual(parsed.ignored, []);
});

test('a misspelt, wrong-case or unknown parameter is named with the one it may have meant', () => {
  const { ignored } = state.parseState(SCHEMA, new URLSearchParams('bandwith=0.2&H=2&kyes=1&foo=1&widget=lookup'), ['widget']);
  assert.deepEqual(ignored, [
    'bandwith is not a parameter of this figure; did you mean bandwidth h (h)?',
    'H is not a parameter of this figure; did you mean bandwidth h (h)?',
    'kyes is not a parameter of this figure; did you mean key locations (keys)?',
    'foo is not a parameter of this figure',
  ]);
});

test('a parameter given twice says which one counts', () => {
  const parsed = state.parseState(SCHEMA, new URLSearchParams('h=1&h=2'));
  assert.equal(parsed.state.h, 1);
  assert.deepEqual(parsed.ignored, ['h is given 2 times; the first, h=1, counts']);
});

test('a long name or value is cut in the notes', () => {
  const long = 'x'.repeat(5000);
  const { ignored } = state.parseState(SCHEMA, new URLSearchParams(`${long}=1`));
  assert.equal(ignored.length, 1);
  assert.ok(ignored[0].length < 200, ignored[0]);
  assert.match(ignored[0], /… \(5,000 characters\) is not a parameter/);
});

test('a form-encoded plus reads as the browser reads it: h=+1 is h = 1', () => {
  const parsed = state.parseState(SCHEMA, new URLSearchParams('h=+1'));
  assert.equal(parsed.state.h, 1);
  assert.deepEqual([...parsed.rejected, ...parsed.ignored], []);
});

test('a theme that is none, in any case, is named with the one it may have meant', () => {
  assert.equal(state.themeNote('dark'), null);
  assert.equal(state.themeNote(null), null);
  assert.equal(state.themeNote('DARK'), "theme=DARK is not a theme (light, dark, auto); did you mean dark? the figures follow the reader's setting");
  assert.match(state.themeNote('drak'), /did you mean dark\?/);
  assert.doesNotMatch(state.themeNote('sepia'), /did you mean/);
});

test("the full page names every address entry that neither it nor a figure takes", () => {
  const figures = ['lookup', 'smoothing', 'attention-map'];
  const notes = state.pageParamNotes(new URLSearchParams('lookup.bandwith=1&nope.h=2&lokup.h=1&h=1&theme=DARK&theme=dark&smoothing.h=0.2'), figures);
  assert.deepEqual(notes, [
    'nope.h: no figure on this page is named nope',
    'lokup.h: no figure on this page is named lokup; did you mean lookup.h?',
    'h is not a parameter of this page; a figure\'s parameter takes the figure\'s name first, as in lookup.h',
    'theme is given 2 times; the first, theme=DARK, counts',
    "theme=DARK is not a theme (light, dark, auto); did you mean dark? the figures follow the reader's setting",
  ]);
  // lookup.bandwith is lookup's own to note (its figure names it), not the page's.
  assert.equal(notes.some((line) => line.startsWith('lookup.')), false);
});

test("the page's own h= is noted when repeated or not an h, and a figure's own h that gives way is named", async () => {
  const oneH = await server.ssrLoadModule('/src/page/one-h.ts');
  const figures = ['lookup'];
  const own = new Map([['h', oneH.pageHNotes]]);
  assert.deepEqual(state.pageParamNotes(new URLSearchParams('h=0.3'), figures, own), []);
  assert.deepEqual(state.pageParamNotes(new URLSearchParams('h=0.3&h=2'), figures, own), ['h is given 2 times; the first, h=0.3, counts']);
  for (const junk of ['abc', '', '0', '-1', 'NaN', 'Infinity', '1e9', '0.3x']) {
    assert.deepEqual(state.pageParamNotes(new URLSearchParams([['h', junk]]), figures, own), [
      `h=${junk}: one h for the whole page takes a number in [${oneH.PAGE_H.min}, ${oneH.PAGE_H.max}]; each figure keeps its own h`,
    ], junk);
    assert.equal(oneH.readPageH(new URLSearchParams([['h', junk]])), null, junk);
  }
  assert.equal(oneH.readPageH(new URLSearchParams('h=0.3')), 0.3);
  assert.equal(oneH.readPageH(new URLSearchParams('lookup.h=0.3')), null);
  assert.equal(oneH.givesWayNote('0.8', 0.25), "h=0.8 gives way to the page's one h, h=0.25");
  assert.equal(oneH.givesWayNote('0.25', 0.25), null);
  assert.equal(oneH.givesWayNote(null, 0.25), null);
  assert.equal(oneH.givesWayNote('0.8', null), null);
});

test('the state serialises only what differs from the defaults, and reads back the same', () => {
  const params = state.serializeState(SCHEMA, { h: 0.2, q: 3.5, keys: [1, 2], band: false });
  assert.equal(params.toString(), 'h=0.2&keys=1%2C2');
  assert.deepEqual(state.parseState(SCHEMA, params).state, { h: 0.2, q: 3.5, keys: [1, 2], band: false });
  // A value the address could not give back (an emptied typed field's NaN) is left out.
  assert.equal(state.serializeState(SCHEMA, { h: Number.NaN, q: Number.NaN, keys: [1, 2], band: false }).toString(), 'keys=1%2C2');
});

test('notes end as one sentence, with no full stop after a question', () => {
  assert.equal(state.noteSentence('Parameters with no effect', ['bandwith is not a parameter of this figure; did you mean bandwidth h (h)?']), 'Parameters with no effect: bandwith is not a parameter of this figure; did you mean bandwidth h (h)?');
  assert.equal(state.noteSentence('Parameters with no effect', ['foo is not a parameter of this figure']), 'Parameters with no effect: foo is not a parameter of this figure.');
});

test('number formats print the digits the chapter prints', () => {
  assert.equal(format.fixed(2.74119, 4), '2.7412');
  assert.equal(format.tuple([0.00021, 0.94131, 0.05848], 4), '(0.0002, 0.9413, 0.0585)');
  assert.equal(format.pythonFloat(0.1), '0.1');
});

test('a title cut to fit keeps whole characters and the most that fit', () => {
  const width = (text) => Array.from(text).length; // one unit a character
  const dress = (shown) => (shown ? `${shown} (key)` : 'key');
  assert.equal(format.cutToFit('location', dress, 14, width), 'location (key)');
  assert.equal(format.cutToFit('location', dress, 13, width), 'locati… (key)');
  // A cut ending in a space drops it before the ellipsis.
  assert.equal(format.cutToFit('a b c', dress, 9, width), 'a… (key)');
  // A character outside the BMP is never split (it counts as one).
  assert.equal(format.cutToFit('𝑥𝑦𝑧', dress, 8, width), '𝑥… (key)');
  // Nothing fits: the dress alone.
  assert.equal(format.cutToFit('location', dress, 3, width), 'key');
});
