// The listings' printed output in NumPy's print format: web/src/listings/numpy-print.ts against
// NumPy itself (tests/fixtures/numpy_print.json, written by scripts/gen_fixtures_numpy_print.py
// with np.set_printoptions(precision=4, suppress=True)).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { moduleLoader } from '../../scripts/widget-parameters.mjs';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/numpy_print.json', import.meta.url), 'utf8'));
const number = (x) => (typeof x === 'number' ? x : x === 'nan' ? Number.NaN : x === 'inf' ? Infinity : -Infinity);

let server;
let print;
before(async () => {
  server = await moduleLoader();
  print = await server.ssrLoadModule('/src/listings/numpy-print.ts');
});
after(async () => {
  await server?.close();
});

test('arrays print as NumPy prints them: maxprec digits, one width, wrapping and summary', () => {
  assert.ok(fixture.arrays.length > 40);
  for (const { values, str } of fixture.arrays) {
    assert.equal(print.ndarray(values.map(number)), str, `np.array(${JSON.stringify(values).slice(0, 200)})`);
  }
});

test("the chapter's arrays, as it prints them", () => {
  assert.equal(print.ndarray([-0.1, 0.05, 0.2, 0.35, 0.5]), '[-0.1   0.05  0.2   0.35  0.5 ]');
  assert.equal(print.ndarray([0.001, 0.0206, 0.152, 0.4132, 0.4132]), '[0.001  0.0206 0.152  0.4132 0.4132]');
});

test('f-string formats and str() of floats as Python writes them', () => {
  for (const entry of fixture.scalars) {
    const x = number(entry.value);
    assert.equal(print.pyFixed(x, 1), entry.f1, `${entry.value}:.1f`);
    assert.equal(print.pyFixed(x, 2), entry.f2, `${entry.value}:.2f`);
    assert.equal(print.pyFixed(x, 4), entry.f4, `${entry.value}:.4f`);
    assert.equal(print.pyExp(x, 2), entry.e2, `${entry.value}:.2e`);
    assert.equal(print.pyFloat(x), entry.str, `str(${entry.value})`);
  }
  assert.equal(print.pyShape(31, 1), '(31, 1)');
  assert.equal(print.pyBool(false), 'False');
});
