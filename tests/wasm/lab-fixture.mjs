// Hex-encoded doubles of tests/fixtures/random.json and laboratory.json (16 hex digits each,
// big-endian IEEE-754 bit patterns), decoded to Float64Arrays or BigInt bit patterns.

/** The bit patterns of a hex string of doubles. */
export function hexBits(hex) {
  const out = new BigUint64Array(hex.length / 16);
  for (let i = 0; i < out.length; i += 1) out[i] = BigInt(`0x${hex.slice(16 * i, 16 * i + 16)}`);
  return out;
}

export function hexDoubles(hex) {
  return new Float64Array(hexBits(hex).buffer);
}

/** The bit patterns of doubles. */
export function bitsOf(values) {
  return new BigUint64Array(Float64Array.from(values).buffer);
}

/** |a - b| <= tolerance * max(|a|, |b|). */
export function relativeClose(a, b, tolerance = 1e-9) {
  return Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b)) || Math.abs(a - b) < 1e-300;
}
