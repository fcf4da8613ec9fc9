// The lookup example of section 12.1 (one query, three keys, h = 0.6 -> 2.7412), the check that a
// module still answers it, and both modules' memory use, shared by the boundary tests.
import assert from 'node:assert/strict';

export const Q = [3.5];
export const K = [1, 3, 5];
export const V = [1.5, 2.8, 1.8];

/// Both modules' memory use: wasm stack pointer, heap, malloc'd bytes and embind handles.
export function memoryUsage(kl) {
  return { core: kl.memoryUsage(), lab: kl.labMemoryUsage() };
}

export function assertLookupAnswers(kl) {
  assert.equal(kl.attention(Q, K, V, 1, 1, 0.6).outputs[0].toFixed(4), '2.7412');
}
