// The vectorised exponential of the attention rows (cpp/src/vector_math.cpp) in the wasm build is
// the wasm build's std::exp bit for bit: tests/exp/wasm_exp_check.cpp, built next to the modules,
// compares 2 million arguments per shift (the softmax's range, special values) and prints the count.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { wasmDir } from './load.mjs';

test('exp_inplace, the scalar exp and the softmax rows\' exp_shifted_sum equal std::exp bit for bit in the wasm build', () => {
  const program = path.join(wasmDir, 'kernel_lens_exp_check.cjs');
  assert.ok(fs.existsSync(program), `${program} is missing: run npm run build:wasm`);
  const output = execFileSync(process.execPath, ['--no-experimental-fetch', program], { encoding: 'utf8' });
  const lines = output.trim().split('\n').map((line) => JSON.parse(line));
  assert.equal(lines.length, 3);
  for (const line of lines) {
    assert.equal(line.count, 2 ** 21);
    assert.equal(line.differing, 0, `shift ${line.shift}: ${line.differing} results differ (largest ${line.maxUlps} ulp)`);
    assert.equal(line.scalarDiffering, 0,
      `shift ${line.shift}: ${line.scalarDiffering} scalar results differ (largest ${line.scalarMaxUlps} ulp)`);
    // Rows of lengths 1-300 shifted by their maximum, as attention's rows are (exp_shifted_sum).
    assert.ok(line.rowCount > 40000, `only ${line.rowCount} row results compared`);
    assert.equal(line.rowDiffering, 0, `shift ${line.shift}: ${line.rowDiffering} row results differ (largest ${line.rowMaxUlps} ulp)`);
    assert.equal(line.sumRows, 300);
    assert.equal(line.sumRowsDiffering, 0, `shift ${line.shift}: ${line.sumRowsDiffering} rows' fused exp and sum differ from exp_inplace + pairwise_sum`);
  }
});
