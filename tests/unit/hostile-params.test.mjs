// Every hostile value and a stream of random junk against every parameter of every figure's own
// schema, through the parser the pages use (web/src/ui/state.ts): each value is refused, the
// figure keeps its default, and the refusal names the parameter with the value cut to 40
// characters. tests/e2e/url-hostile.test.mjs loads each figure with the values that would run code.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadWidgets, moduleLoader } from '../../scripts/widget-parameters.mjs';
import { HOSTILE, randomStrings } from './hostile-values.mjs';

let server;
let state;
let widgets;

before(async () => {
  server = await moduleLoader();
  state = await server.ssrLoadModule('/src/ui/state.ts');
  widgets = (await loadWidgets(server)).filter((widget) => Object.keys(widget.params).length > 0);
});
after(async () => {
  await server?.close();
});

/// The text a refusal shows for `value`: the first 40 characters (code points) and the length.
function echo(value) {
  const points = Array.from(value);
  return points.length <= 40 ? value : `${points.slice(0, 40).join('')}… (${points.length.toLocaleString('en-US')} characters)`;
}

test('every hostile and random value falls back to the default in every parameter of every figure', () => {
  assert.ok(widgets.length >= 15, `${widgets.length} figures with parameters`);
  let checked = 0;
  for (const widget of widgets) {
    const names = Object.keys(widget.params);
    const values = [...HOSTILE, ...randomStrings(widget.name.length * 7919 + 17, 60)];
    const defaults = state.defaults(widget.params);
    for (const value of values) {
      const parsed = state.parseState(widget.params, new URLSearchParams(names.map((name) => [name, value])));
      assert.deepEqual(parsed.state, defaults, `${widget.name} took ${JSON.stringify(value.slice(0, 60))}`);
      assert.equal(parsed.rejected.length, names.length, `${widget.name}: ${JSON.stringify(parsed.rejected)}`);
      // An address holds well-formed text: a lone surrogate arrives as U+FFFD.
      const arrived = value.toWellFormed();
      parsed.rejected.forEach((line, i) => {
        assert.ok(line.startsWith(`${names[i]}=${echo(arrived)} (expected `), `${widget.name}: ${line.slice(0, 200)}`);
      });
      assert.deepEqual(parsed.ignored, []);
      checked += names.length;
    }
  }
  assert.ok(checked > 5000, `${checked} values checked`);
});
