// Attention's weights and outputs, and the map figure's frame, in every regime of the speed goal
// (d = 1, 2, 8, 32; h = 0.05 to 10, where most of a row underflows at the small end; keys sorted
// and unsorted), bit for bit what the build before the exp pass's rework gave: SHA-256 digests
// recorded from that build (tests/fixtures/attention_regimes.json, scripts/record-attention-regimes.mjs).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { regimeDigests, regimes, SIZES } from './attention-regimes.mjs';
import { loadKernelLens, readFixture } from './load.mjs';

const fixture = readFixture('attention_regimes.json');
let kl;

before(async () => {
  kl = await loadKernelLens();
});

for (const size of SIZES) {
  test(`${size.m} queries × ${size.n} keys, p = ${size.p}: every regime's results are the recorded bits`, () => {
    const cases = regimes(size.m, size.n, size.p);
    for (const regime of cases) {
      const name = `${size.m}x${size.n}x${size.p} ${regime.name}`;
      assert.ok(fixture.cases[name], `no recorded digests for ${name}`);
      assert.deepEqual(regimeDigests(kl, regime), fixture.cases[name], name);
    }
    assert.equal(cases.length, 32);
  });
}
