// parseCsv and the module's memory figures through the public JavaScript API.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadKernelLens } from './load.mjs';

let kl;
before(async () => {
  kl = await loadKernelLens();
});

/// Asserts that parseCsv(text) throws a RangeError with exactly `message`.
function refuses(text, message) {
  assert.throws(() => kl.parseCsv(text), (error) => {
    assert.ok(error instanceof RangeError, `expected a RangeError, got ${error}`);
    assert.equal(error.message, message);
    return true;
  });
}

test('the chapter three observations read back as keys, values and a header', () => {
  const table = kl.parseCsv('location,response\n1,1.5\n3,2.8\n5,1.8\n');
  assert.deepEqual(Array.from(table.keys), [1, 3, 5]);
  assert.deepEqual(Array.from(table.values), [1.5, 2.8, 1.8]);
  assert.equal(table.d, 1);
  assert.equal(table.n, 3);
  assert.deepEqual(table.header, ['location', 'response']);
  assert.equal(table.hasHeader, true);
  assert.equal(table.delimiter, ',');
  assert.deepEqual(table.warnings, []);
  assert.ok(table.keys instanceof Float64Array);
});

test('two key columns, tabs, no header, and a duplicate-key warning', () => {
  const table = kl.parseCsv('0\t0\t1\n1\t0\t2\n0\t0\t3\n');
  assert.equal(table.d, 2);
  assert.deepEqual(Array.from(table.keys), [0, 0, 1, 0, 0, 0]);
  assert.deepEqual(table.header, ['x1', 'x2', 'y']);
  assert.equal(table.delimiter, '\t');
  assert.deepEqual(table.warnings, [
    'rows 1 and 3 have the same key (0, 0); 1 row repeats an earlier key. They are kept: the estimator averages their values.',
  ]);
});

test('every kind of junk is a RangeError naming the row and column', () => {
  refuses('x,y\n1,2\n3,abc\n', 'row 3, column 2 ("y"): "abc" is not a number');
  refuses('x,y\n1,2\nNaN,3\n', 'row 3, column 1 ("x"): "NaN" is NaN (not a number); every cell must be a finite number');
  refuses('x,y\n1,Infinity\n2,3\n', 'row 2, column 2 ("y"): "Infinity" is infinite; every cell must be a finite number');
  refuses('x,y\n1,2\n-inf,3\n', 'row 3, column 1 ("x"): "-inf" is minus infinity; every cell must be a finite number');
  refuses('x,y\n1,2\n3,4,5\n', 'row 3 has 3 columns but row 1 has 2; column 3 is extra');
  refuses('', 'the data is empty; paste or upload at least two rows of numbers');
  refuses('x,y\n1,2\n', 'only one data row (row 2); smoothing and leave-one-out need at least 2 rows');
  refuses(
    "x,y\n=cmd|' /C calc'!A0,1\n2,3\n",
    'row 2, column 1 ("x"): "=cmd|\' /C calc\'!A0" looks like a spreadsheet formula; only plain numbers are accepted',
  );
  refuses(
    'x,y\n1,\u0000\u0001\n',
    'row 2, column 2: byte 0x00 is a control character; the data looks binary, and only plain text tables are accepted',
  );
  refuses(
    'x,y\n1,\uFFFDPNG\n',
    'row 2, column 2: it contains U+FFFD, a replaced byte; the data looks binary, and only plain text tables are accepted',
  );
  refuses('1,2\n'.repeat(1_000_000), 'row 5001 is data row 5,001; the limit is 5,000 data rows');
});

test('a 50 MB string is refused by its length before it is copied into wasm memory', () => {
  const before = kl.memoryUsage();
  refuses('1'.repeat(50 * 1024 * 1024), 'the data is at least 52,428,800 bytes; the limit is 4,194,304 bytes (4 MiB)');
  const after = kl.memoryUsage();
  assert.equal(after.heapBytes, before.heapBytes, 'the heap did not grow');
});

test('a wrong argument type is a TypeError; the module keeps working after every refusal', () => {
  assert.throws(() => kl.parseCsv(42), TypeError);
  assert.throws(() => kl.parseCsv(), TypeError);
  assert.throws(() => kl.parseCsv('a', 'b'), TypeError);
  assert.equal(kl.parseCsv('1,2\n3,4').n, 2);
});

test('csvLimits documents the caps and memoryUsage reports heap, allocations and handles', () => {
  assert.deepEqual(kl.csvLimits(), { maxBytes: 4194304, maxRows: 5000, maxKeyColumns: 8, maxMagnitude: 1e12 });
  const usage = kl.memoryUsage();
  assert.equal(usage.heapBytes % 65536, 0);
  assert.equal(kl.heapBytes(), usage.heapBytes);
  assert.ok(usage.allocatedBytes > 0);
  assert.equal(typeof usage.liveHandles, 'number');
});

test('10,000 parses and refusals leave the allocations and handles flat', () => {
  const text = 'x,y\n' + Array.from({ length: 200 }, (_, i) => `${i},${i % 7}`).join('\n');
  for (let i = 0; i < 200; i++) kl.parseCsv(text);
  const start = kl.memoryUsage();
  for (let i = 0; i < 10_000; i++) {
    if (i % 2) kl.parseCsv(text);
    else assert.throws(() => kl.parseCsv('x,y\n1,abc\n'), RangeError);
  }
  const end = kl.memoryUsage();
  assert.equal(end.allocatedBytes, start.allocatedBytes);
  assert.equal(end.liveHandles, start.liveHandles);
  assert.equal(end.heapBytes, start.heapBytes);
});

test('a lone surrogate is named by its row and column and never swallows the comma after it', () => {
  const lone = (unit) =>
    `${unit} is a lone surrogate, half of a UTF-16 pair and not a character (the text was cut inside a character); only plain text tables are accepted`;
  refuses('x,y\n1,2\n3\uD83D,4\n', `row 3, column 1: ${lone('U+D83D')}`);
  refuses('x,y\n1,2\n3,\uDE00\n', `row 3, column 2: ${lone('U+DE00')}`);
  // A proper pair is one character: a header name with an emoji is kept whole.
  assert.deepEqual(kl.parseCsv('x\uD83D\uDE00,y\n1,2\n3,4\n').header, ['x\u{1F600}', 'y']);
});
