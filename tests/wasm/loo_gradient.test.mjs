// looRiskGradient in Node: the Gaussian rule's leave-one-out risk against NumPy's full weight
// matrix (1e-10) and its derivative in log h against NumPy's central finite differences (1e-6
// relative), tests/fixtures/loo_gradient.json from scripts/gen_fixtures_loo_gradient.py; the risk
// is looCurve's; one gradient step downhill lowers the risk; looDescent against NumPy's descent;
// the refusals.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadKernelLens, readFixture } from './load.mjs';
import { nonEmpty } from './fixtures.mjs';

let kl;
let fixture;
before(async () => {
  kl = await loadKernelLens();
  fixture = readFixture('loo_gradient.json');
});

function check(c, label) {
  const result = kl.looRiskGradient(c.keys, c.values, c.d, c.bandwidth);
  assert.ok(Math.abs(result.risk - c.risk) < 1e-10, `${label} risk: ${result.risk} vs ${c.risk}`);
  assert.ok(Math.abs(result.gradient - c.gradient) < 1e-6 * Math.abs(c.gradient), `${label} gradient: ${result.gradient} vs ${c.gradient}`);
  const curve = kl.looCurve(c.keys, c.values, c.d, [c.bandwidth]);
  assert.ok(Math.abs(result.risk - curve[0]) < 1e-12 * c.risk, `${label}: looCurve gives ${curve[0]}`);
}

test('the chapter sample: risk to 1e-10, gradient to 1e-6 relative of the finite differences', () => {
  for (const c of nonEmpty(fixture.chapter, 'chapter')) check(c, `h = ${c.bandwidth}`);
});

test('random keys, d = 1..3', () => {
  for (const [i, c] of nonEmpty(fixture.cases, 'cases').entries()) check(c, `case ${i} (d = ${c.d})`);
});

test('a small step against the gradient lowers the risk', () => {
  const data = kl.chapterDataset();
  for (const h of [0.05, 0.6]) {
    const { risk, gradient } = kl.looRiskGradient(data.keys, data.observedValues, 1, h);
    const next = kl.looRiskGradient(data.keys, data.observedValues, 1, h * Math.exp(-0.01 * Math.sign(gradient)));
    assert.ok(next.risk < risk, `h = ${h}: ${next.risk} ≥ ${risk}`);
  }
});

test('looDescent follows NumPy\'s descent with finite-difference gradients and continues bit for bit', () => {
  const { start, rate, steps, trajectory } = fixture.descent;
  const c = fixture.chapter[0];
  const run = kl.looDescent(c.keys, c.values, 1, start, rate, steps);
  assert.equal(run.bandwidths.length, steps + 1);
  trajectory.forEach((expected, t) => {
    assert.ok(Math.abs(run.bandwidths[t] / expected.bandwidth - 1) < 1e-6, `step ${t}: h ${run.bandwidths[t]} vs ${expected.bandwidth}`);
    assert.ok(Math.abs(run.risks[t] - expected.risk) < 1e-8, `step ${t}: risk`);
    assert.deepEqual(kl.looRiskGradient(c.keys, c.values, 1, run.bandwidths[t]), { risk: run.risks[t], gradient: run.gradients[t] });
  });
  const head = kl.looDescent(c.keys, c.values, 1, start, rate, 5);
  const tail = kl.looDescent(c.keys, c.values, 1, head.bandwidths[5], rate, steps - 5);
  assert.equal(tail.bandwidths[steps - 5], run.bandwidths[steps]);
  assert.throws(() => kl.looDescent(c.keys, c.values, 1, start, 0, 3), /rate must be positive/);
  assert.throws(() => kl.looDescent(c.keys, c.values, 1, start, 1e6, 3), /take a smaller rate/);
  assert.throws(() => kl.looDescent(c.keys, c.values, 1, start, rate, 10001), RangeError);
});

test('bad input gets a clear error', () => {
  const keys = [0, 1, 2];
  const values = [1, 2, 3];
  assert.throws(() => kl.looRiskGradient(keys, values, 1, 0), RangeError);
  assert.throws(() => kl.looRiskGradient(keys, values, 1, Number.NaN), RangeError);
  assert.throws(() => kl.looRiskGradient([0], [1], 1, 1), /at least 2 rows/);
  assert.throws(() => kl.looRiskGradient(keys, [1, 2], 1, 1), /one entry per key/);
  assert.throws(() => kl.looRiskGradient(keys, values, 1), /looRiskGradient takes 4 arguments/);
  assert.throws(() => kl.looRiskGradient('junk', values, 1, 1), TypeError);
  // The module stays usable.
  assert.ok(Number.isFinite(kl.looRiskGradient(keys, values, 1, 1).risk));
});
