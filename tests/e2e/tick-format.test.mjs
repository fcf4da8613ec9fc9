// The charts' English tick labels (web/src/charts/tick-format.ts) read as Chart.js' numeric
// formatter writes them with Intl in en-US, on ticks as Chart.js' linear scales place them and on
// awkward ones (float noise, one tick, huge and tiny axes, roundings that carry). No browser: the
// module has no imports, so TypeScript's transpiler makes it runnable here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Ticks } from 'chart.js';
import ts from 'typescript';

const source = readFileSync(new URL('../../web/src/charts/tick-format.ts', import.meta.url), 'utf8');
const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
const { englishTickLabel, defaultLocaleIsEnglish } = await import(`data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`);

/// Chart.js' own label in en-US (a scale-like `this`: the chart's locale, no `ticks.format`).
const chartJsLabel = (value, index, ticks) =>
  Ticks.formatters.numeric.call({ chart: { options: { locale: 'en-US' } }, options: { ticks: {} } }, value, index, ticks);

/// Tick sets as a linear scale makes them (nice steps, values rounded to the step's decimals),
/// with the axis' own min and max at the ends, and raw ones (sums with float noise): every
/// power of ten from 1e-18 to 1e17, the nice steps, starts on both sides of zero, few and many ticks.
function tickSets() {
  const sets = [];
  for (let power = -18; power < 18; power++) {
    for (const nice of [1, 2, 2.5, 5]) {
      const step = nice * 10 ** power;
      const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
      const factor = 10 ** Math.min(decimals, 20);
      for (const first of [-7, -3, 0, 1, 4]) {
        for (const length of [1, 2, 4, 7, 11]) {
          const raw = Array.from({ length }, (_, i) => (first + i) * step);
          const rounded = raw.map((value) => Math.round(value * factor) / factor);
          const ends = [(first - 0.37) * step, ...rounded.slice(1, -1), (first + length - 1 + 0.61) * step];
          sets.push(rounded, raw, ends);
        }
      }
    }
  }
  return sets.map((values) => values.map((value) => ({ value })));
}

test('English tick labels read as Chart.js writes them with Intl in en-US', () => {
  const awkward = [
    [0.35], [0.25, 0.35], [-0.05, 0, 0.05], [9.96, 9.97, 9.98], [0.95, 0.96], [-0.01, -0.005],
    [0.00009999, 0.0001], [999999.5, 1000000.5], [1e-7, 2e-7, 3e-7], [9.99e-5, 1e-4], [1e16, 2e16],
    [-3, -2, -1, 0, 1, 2, 3], [0, 0.1, 0.2, 0.30000000000000004], [1234.5, 1234.75, 1235], [1, 1, 1], [5],
  ].map((values) => values.map((value) => ({ value })));
  let checked = 0;
  let left = 0;
  for (const ticks of [...awkward, ...tickSets()]) {
    ticks.forEach((tick, index) => {
      const label = englishTickLabel(tick.value, ticks);
      // null: more digits than a double holds, left to Chart.js.
      if (label === null) return void left++;
      assert.equal(label, chartJsLabel(tick.value, index, ticks), `${tick.value} among ${ticks.map((t) => t.value).join(', ')}`);
      checked++;
    });
  }
  assert.ok(checked > 20000 && left < checked / 5, `${checked} labels checked, ${left} left to Chart.js`);
});

test('only an English default locale (en, en-US) takes the Intl-free labels', () => {
  for (const language of ['en', 'en-US', 'EN-us']) assert.equal(defaultLocaleIsEnglish(language), true, language);
  for (const language of ['en-GB', 'en-IN', 'de', 'de-DE', 'fr', 'ar-EG', '', undefined]) assert.equal(defaultLocaleIsEnglish(language), false, String(language));
});
