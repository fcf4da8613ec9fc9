// The regimes of attention's speed goal (d = 1, 2, 8, 32; h = 0.05, 0.3, 1, 10; inputs on [-3, 3];
// keys sorted and unsorted) and a SHA-256 of what the core returns in each: attention's weights and
// outputs, and the map figure's frame. tests/wasm/attention_regimes.test.mjs compares them with
// tests/fixtures/attention_regimes.json, which scripts/record-attention-regimes.mjs wrote from
// the build before the exp pass changed; scripts/bench/attention.mjs times the same regimes.
import { createHash } from 'node:crypto';

export const DIMENSIONS = [1, 2, 8, 32];
export const BANDWIDTHS = [0.05, 0.3, 1, 10];
export const ORDERS = ['unsorted', 'sorted'];

/** Deterministic uniform draws on [-3, 3] from a 64-bit LCG's top 53 bits. */
export function uniform(count, state) {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i += 1) {
    state.x = (state.x * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    out[i] = Number(state.x >> 11n) / 2 ** 53 * 6 - 3;
  }
  return out;
}

/** Rows of `d` numbers ordered by their first coordinate (ties by the rest, as drawn). */
function sortRows(flat, d) {
  const rows = [];
  for (let i = 0; i < flat.length; i += d) rows.push(flat.subarray(i, i + d));
  rows.sort((a, b) => a[0] - b[0]);
  const out = new Float64Array(flat.length);
  rows.forEach((row, i) => out.set(row, i * d));
  return out;
}

/** Queries (m, d), keys (n, d) and values (n, p) of one regime; the same seed for every regime. */
export function regimeInputs({ m, n, d, p = 1, order }) {
  const state = { x: 605012n };
  const queries = uniform(m * d, state);
  const drawn = uniform(n * d, state);
  const values = uniform(n * p, state);
  return { queries, keys: order === 'sorted' ? sortRows(drawn, d) : drawn, values };
}

/** Every regime of the grid at one size, in a fixed order. */
export function regimes(m, n, p = 1) {
  const out = [];
  for (const d of DIMENSIONS)
    for (const h of BANDWIDTHS)
      for (const order of ORDERS) out.push({ name: `d=${d} h=${h} ${order}`, m, n, d, p, h, order });
  return out;
}

/** SHA-256 (hex) of the bytes of the given typed arrays, in order. */
export function digest(...arrays) {
  const hash = createHash('sha256');
  for (const a of arrays) hash.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return hash.digest('hex');
}

/** A fixed palette of 257 RGBA colours (the map's colours are not what is checked here). */
export function testPalette() {
  return Array.from({ length: 257 * 4 }, (_, i) => (i * 37) % 256);
}

/** The digests of one regime: attention's weights and outputs, and the map's frame. */
export function regimeDigests(kl, regime) {
  const { queries, keys, values } = regimeInputs(regime);
  const { d, p, h } = regime;
  const { weights, outputs } = kl.attention(queries, keys, values, d, p, h);
  const map = kl.attentionMap(queries, keys, values, d, p, h, { palette: testPalette(), row: regime.m >> 1, width: 97, height: Math.min(61, regime.m), scale: 'log' });
  const numbers = new Float64Array([map.maxRowSumError, map.low, map.high, map.zeros ? 1 : 0]);
  return {
    attention: digest(weights, outputs),
    map: digest(map.image, map.outputs, map.rowWeights, numbers),
  };
}

/** The sizes checked: the benchmark's row length, and odd lengths for the loops' remainders. */
export const SIZES = [
  { m: 256, n: 2048, p: 1 },
  { m: 37, n: 1003, p: 3 },
];
