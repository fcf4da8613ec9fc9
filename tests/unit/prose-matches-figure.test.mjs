// Prose that names a figure's inputs names the ones the figure shows: the temperature section asks
// the reader to shrink h on the figure's own keys (its default key locations), not on other keys.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const widget = (name, file) => readFileSync(new URL(`../../web/src/widgets/${name}/${file}`, import.meta.url), 'utf8');

test("the temperature prose shrinks h on the figure's keys", () => {
  const defaults = /keys: \{[^}]*default: \[([^\]]*)\]/.exec(widget('temperature', 'index.ts'));
  assert.ok(defaults, 'the figure declares its default keys');
  const figureKeys = defaults[1].split(',').map((k) => Number(k.trim()));
  const prose = widget('temperature', 'prose.html').replace(/\s+/g, ' ');
  const named = /Shrink \$h\$ on the figure's keys \$([^$]*)\$/.exec(prose);
  assert.ok(named, 'the prose names the keys it shrinks h on as the figure’s');
  assert.deepEqual(named[1].split(',').map((k) => Number(k.trim())), figureKeys);
});

test('learning h gives η its unit and relates its risk to the audit’s (the noise variance σ²)', () => {
  const prose = widget('learn-bandwidth', 'prose.html').replace(/\s+/g, ' ');
  assert.match(prose, /the rate \$\\eta\$ is in units of \$\\log h\$ per unit of risk/);
  assert.match(prose, /noise variance \$\\sigma\^2\$/);
  assert.match(widget('learn-bandwidth', 'index.ts'), /'rate η \(log h per unit of risk\)'/);
});

test('the ±2 sd band’s prose names its assumptions and that it leaves out the bias', () => {
  const prose = widget('smoothing', 'prose.html').replace(/\s+/g, ' ');
  assert.doesNotMatch(prose, /How sure is each curve\?/);
  for (const assumption of [/the keys fixed/, /one noise level \$\\sigma\$ everywhere/, /\$\\sigma\$ known/, /pointwise/, /leaves out the bias/]) {
    assert.match(prose, assumption);
  }
});
