// The chapter's bias/variance sweep in plain JavaScript, as a careful web developer would write
// it: typed arrays, flat row-major matrices, the chapter's algorithm (the worlds x queries
// prediction matrix per bandwidth). Draws come from xoshiro128** with Marsaglia's polar method, a
// different stream from NumPy's, so the table agrees with the chapter's statistically, not digit
// for digit.

/** xoshiro128** on 32-bit words; next53() gives a double in [0, 1) with 53 random bits. */
function createRandom(seed) {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 ^ (seed * 31);
  let c = 0xb7e15162;
  let d = 0x85a308d3;
  const next32 = () => {
    const result = Math.imul(((Math.imul(b, 5) << 7) | (Math.imul(b, 5) >>> 25)), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = (d << 11) | (d >>> 21);
    return result;
  };
  for (let i = 0; i < 16; i += 1) next32();
  const next53 = () => ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992;
  let spare = null;
  const normal = () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    for (;;) {
      const u = 2 * next53() - 1;
      const v = 2 * next53() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) {
        const factor = Math.sqrt((-2 * Math.log(s)) / s);
        spare = v * factor;
        return u * factor;
      }
    }
  };
  return { next53, normal };
}

const truth = (x) => Math.sin(1.5 * x) + 0.3 * Math.cos(4 * x);

function linspace(start, stop, count) {
  const out = new Float64Array(count);
  const step = (stop - start) / (count - 1);
  for (let i = 0; i < count; i += 1) out[i] = start + i * step;
  out[count - 1] = stop;
  return out;
}

/** Gaussian weights A (m x n), each row a stable softmax of -(q - k)^2 / (2h^2). */
function gaussianWeights(queries, keys, bandwidth) {
  const m = queries.length;
  const n = keys.length;
  const weights = new Float64Array(m * n);
  const scale = 1 / (2 * bandwidth * bandwidth);
  for (let r = 0; r < m; r += 1) {
    const offset = r * n;
    let max = -Infinity;
    for (let i = 0; i < n; i += 1) {
      const diff = queries[r] - keys[i];
      const score = -diff * diff * scale;
      weights[offset + i] = score;
      if (score > max) max = score;
    }
    let sum = 0;
    for (let i = 0; i < n; i += 1) {
      const w = Math.exp(weights[offset + i] - max);
      weights[offset + i] = w;
      sum += w;
    }
    for (let i = 0; i < n; i += 1) weights[offset + i] /= sum;
  }
  return weights;
}

const BANDWIDTHS = [0.05, 0.08, 0.12, 0.18, 0.28, 0.42, 0.65, 1.0];

/** The chapter's sweep: 60 keys, 241 queries, 1000 worlds, noise 0.25. Rows of [h, 2h^2, bias2, variance, mse]. */
export function chapterSweep({ keys: n = 60, queries: m = 241, worlds = 1000, noise = 0.25 } = {}) {
  const keyRandom = createRandom(605012);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i += 1) keys[i] = -3 + 6 * keyRandom.next53();
  keys.sort();
  const observedRandom = createRandom(605013);
  const observed = new Float64Array(n);
  for (let i = 0; i < n; i += 1) observed[i] = truth(keys[i]) + noise * observedRandom.normal();
  const queries = linspace(-2.9, 2.9, m);
  const target = queries.map(truth);
  const worldRandom = createRandom(605014);
  const responses = new Float64Array(worlds * n);
  for (let w = 0; w < worlds; w += 1)
    for (let i = 0; i < n; i += 1) responses[w * n + i] = truth(keys[i]) + noise * worldRandom.normal();

  const predictions = new Float64Array(worlds * m);
  const rows = [];
  for (const bandwidth of BANDWIDTHS) {
    const weights = gaussianWeights(queries, keys, bandwidth);
    for (let w = 0; w < worlds; w += 1) {
      const y = w * n;
      for (let r = 0; r < m; r += 1) {
        const a = r * n;
        let sum = 0;
        for (let i = 0; i < n; i += 1) sum += responses[y + i] * weights[a + i];
        predictions[w * m + r] = sum;
      }
    }
    let bias2 = 0;
    let variance = 0;
    let mse = 0;
    for (let r = 0; r < m; r += 1) {
      let mean = 0;
      for (let w = 0; w < worlds; w += 1) mean += predictions[w * m + r];
      mean /= worlds;
      let spread = 0;
      let error = 0;
      for (let w = 0; w < worlds; w += 1) {
        const p = predictions[w * m + r];
        spread += (p - mean) * (p - mean);
        error += (p - target[r]) * (p - target[r]);
      }
      bias2 += (mean - target[r]) * (mean - target[r]);
      variance += spread / worlds;
      mse += error / worlds;
    }
    rows.push([bandwidth, 2 * bandwidth * bandwidth, bias2 / m, variance / m, mse / m]);
  }
  return rows;
}

/** Exact risk of the same design over the given bandwidths, directly from the weight matrices. */
export function exactRisk(bandwidths, { keys: n = 60, queries: m = 241, noise = 0.25 } = {}) {
  const keyRandom = createRandom(605012);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i += 1) keys[i] = -3 + 6 * keyRandom.next53();
  keys.sort();
  const queries = linspace(-2.9, 2.9, m);
  const truthAtKeys = keys.map(truth);
  return bandwidths.map((bandwidth) => {
    const weights = gaussianWeights(queries, keys, bandwidth);
    let bias2 = 0;
    let norm2 = 0;
    for (let r = 0; r < m; r += 1) {
      let fit = 0;
      for (let i = 0; i < n; i += 1) {
        const w = weights[r * n + i];
        fit += w * truthAtKeys[i];
        norm2 += w * w;
      }
      bias2 += (fit - truth(queries[r])) ** 2;
    }
    return [bandwidth, bias2 / m, (noise * noise * norm2) / m];
  });
}
