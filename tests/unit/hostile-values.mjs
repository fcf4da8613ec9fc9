// Values no URL parameter of any figure accepts, and a reproducible stream of junk: the hostile
// inputs of tests/unit/hostile-params.test.mjs (every value against every schema) and of
// tests/e2e/url-hostile.test.mjs (every figure's page, with the values that try to run code).
/// Values no parameter kind accepts (numbers, integers, enums, lists, booleans).
export const HOSTILE = [
  '<script>window.__pwned=1</script>',
  '"><img src=x onerror="window.__pwned=2">',
  'javascript:window.__pwned=3',
  "'; window.__pwned=4; '",
  '${window.__pwned=5}',
  '{{constructor.constructor("window.__pwned=6")()}}',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '0x10',
  '__proto__',
  'constructor',
  '\u0000\u0001\u0002',
  '\uFFFD\uD800',
  ',,,',
  '1,,2',
  'A'.repeat(4000),
  '9'.repeat(400),
  '1;DROP TABLE x',
  '%00%0a',
  '\u202e1',
];

/// A reproducible stream of junk (xorshift32), mixing hostile fragments with random characters.
export function* randomStrings(seed, count) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const alphabet = '<>"\'&;=:/\\%{}()[]$`!@#*|^~ abcxyz._-+eE\u00e9\u4e2d\u{1F600}';
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * 40);
    let text = Math.floor(next() * 10) === 0 ? '' : 'x';
    for (let k = 0; k < length; k++) text += [...alphabet][Math.floor(next() * [...alphabet].length)];
    yield text;
  }
}

/// The values of HOSTILE that would run code if a page put them into its markup or evaluated them:
/// each sets window.__pwned.
export const INJECTIONS = HOSTILE.filter((value) => value.includes('__pwned'));
