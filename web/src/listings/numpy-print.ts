/// Numbers as the chapter's Python prints them, for the listings' printed output: NumPy's array
/// printing under `np.set_printoptions(precision=4, suppress=True)` (its FloatingFormat in the
/// default 'maxprec' mode: each number's shortest round-trip digits, cut to 4 decimals, trailing
/// zeros trimmed, then padded to one width), and the f-string formats the listings use. Formatting
/// only: every number comes from the core.

/// Print options of the chapter: `np.set_printoptions(precision=4, suppress=True)` and NumPy's
/// defaults for the rest.
const PRECISION = 4;
const LINE_WIDTH = 75;
const THRESHOLD = 1000;
const EDGE_ITEMS = 3;

/// The exact decimal expansion's digit after the `digits` kept ones is 5 and nothing follows it:
/// an exact tie, which Python and NumPy round to even and JavaScript's toFixed/toExponential up.
function exactTie(kept: string, exact: string): boolean {
  return exact.length > kept.length && exact[kept.length] === '5' && /^0*$/.test(exact.slice(kept.length + 1));
}

/// The last kept digit is even.
const evenLast = (digits: string): boolean => Number(digits.replace(/\D/g, '').at(-1) ?? '0') % 2 === 0;

/// |x| with `digits` decimals, rounded half to even on an exact tie (x finite, |x| < 1e21).
function fixedDigits(x: number, digits: number): string {
  const a = Math.abs(x);
  const rounded = a.toFixed(digits);
  const exact = a.toFixed(100);
  const cut = exact.slice(0, exact.indexOf('.') + 1 + digits).replace(/\.$/, '');
  return exactTie(cut, exact) && evenLast(cut) ? cut : rounded;
}

/// |x| as mantissa digits and exponent with `digits` mantissa decimals, half to even on a tie.
function exponentDigits(x: number, digits: number): { mantissa: string; exponent: number } {
  const a = Math.abs(x);
  const split = (text: string): { mantissa: string; exponent: number } => {
    const [mantissa = '', exponent = '0'] = text.split('e');
    return { mantissa, exponent: Number(exponent) };
  };
  const rounded = split(a.toExponential(digits));
  const exact = split(a.toExponential(100));
  const cut = exact.mantissa.slice(0, digits === 0 ? 1 : 2 + digits);
  return exactTie(cut, exact.mantissa) && evenLast(cut) ? { mantissa: cut, exponent: exact.exponent } : rounded;
}

const negative = (x: number): boolean => x < 0 || Object.is(x, -0);

/// Python's f"{x:.{digits}f}".
export function pyFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const sign = negative(x) ? '-' : '';
  if (Math.abs(x) >= 1e21) return `${sign}${BigInt(Math.abs(x)).toString()}${digits > 0 ? `.${'0'.repeat(digits)}` : ''}`;
  return sign + fixedDigits(x, digits);
}

/// Python's f"{x:.{digits}e}": 2.22e-16, 0.00e+00.
export function pyExp(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const { mantissa, exponent } = exponentDigits(x, digits);
  return `${negative(x) ? '-' : ''}${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/// Python's str() of a float (and of a NumPy float64): the shortest text that reads back as it.
export function pyFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const a = Math.abs(x);
  const sign = negative(x) ? '-' : '';
  if (a !== 0 && (a < 1e-4 || a >= 1e16)) {
    const [mantissa = '', exponent = '0'] = a.toExponential().split('e');
    const power = Number(exponent);
    return `${sign}${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  }
  const text = String(a);
  return sign + (Number.isInteger(a) ? `${text}.0` : text);
}

/// Python's str() of a bool.
export const pyBool = (x: boolean): string => (x ? 'True' : 'False');

/// Python's str() of a shape tuple: (31, 1).
export const pyShape = (...sizes: number[]): string => `(${sizes.join(', ')}${sizes.length === 1 ? ',' : ''})`;

/// The shortest round-trip digits of |x| (x finite, nonzero) and its decimal exponent.
function shortest(x: number): { digits: string; exponent: number } {
  const [mantissa = '', exponent = '0'] = Math.abs(x).toExponential().split('e');
  return { digits: mantissa.replace('.', ''), exponent: Number(exponent) };
}

/// Dragon4 positional in 'maxprec' mode, trimmed to its point: "0.05", "1.", "-0.".
function positional(x: number): string {
  const sign = negative(x) ? '-' : '';
  if (x === 0) return `${sign}0.`;
  const { digits, exponent } = shortest(x);
  let text: string;
  if (digits.length - 1 - exponent <= PRECISION) {
    // The shortest digits fit: written out in full.
    if (exponent < 0) text = `0.${'0'.repeat(-exponent - 1)}${digits}`;
    else if (digits.length <= exponent + 1) text = `${digits}${'0'.repeat(exponent + 1 - digits.length)}.`;
    else text = `${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
  } else {
    text = fixedDigits(x, PRECISION);
  }
  if (!text.includes('.')) text += '.';
  return sign + text.replace(/0+$/, '');
}

/// Dragon4 scientific in 'maxprec' mode: mantissa digits cut to 4 decimals, zeros trimmed.
function scientific(x: number): { int: string; frac: string; exponent: number } {
  const sign = negative(x) ? '-' : '';
  if (x === 0) return { int: `${sign}0`, frac: '', exponent: 0 };
  const { digits, exponent } = shortest(x);
  let mantissa: string;
  let power = exponent;
  if (digits.length - 1 <= PRECISION) mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  else ({ mantissa, exponent: power } = exponentDigits(x, PRECISION));
  const [int = '', frac = ''] = mantissa.split('.');
  return { int: sign + int, frac: frac.replace(/0+$/, ''), exponent: power };
}

/// The element formatter NumPy builds for these values (its FloatingFormat.fillFormat).
function floatFormat(values: readonly number[]): (x: number) => string {
  const finite = values.filter(Number.isFinite);
  const nonzero = finite.filter((x) => x !== 0).map(Math.abs);
  const exp = nonzero.length > 0 && Math.max(...nonzero) >= 1e8;
  let padLeft = 0;
  let padRight = 0;
  let body: (x: number) => string = () => '';
  if (finite.length > 0 && exp) {
    const parts = finite.map(scientific);
    const precision = Math.max(...parts.map((p) => p.frac.length));
    const expSize = Math.max(...parts.map((p) => String(Math.abs(p.exponent)).padStart(2, '0').length));
    padLeft = Math.max(...parts.map((p) => p.int.length));
    padRight = expSize + 2 + precision;
    body = (x) => {
      const p = scientific(x);
      const power = `${p.exponent < 0 ? '-' : '+'}${String(Math.abs(p.exponent)).padStart(expSize, '0')}`;
      return `${p.int.padStart(padLeft)}.${p.frac.padEnd(precision, '0')}e${power}`;
    };
  } else if (finite.length > 0) {
    const parts = finite.map((x) => positional(x).split('.'));
    padLeft = Math.max(...parts.map(([int = '']) => int.length));
    padRight = Math.max(...parts.map(([, frac = '']) => frac.length));
    body = (x) => {
      const [int = '', frac = ''] = positional(x).split('.');
      return `${int.padStart(padLeft)}.${frac.padEnd(padRight)}`;
    };
  }
  if (finite.length !== values.length) {
    const negInf = values.some((x) => x === -Infinity);
    const offset = padRight + 1;
    padLeft = Math.max(padLeft, 3 - offset, 3 + (negInf ? 1 : 0) - offset);
  }
  const width = padLeft + padRight + 1;
  return (x) => (Number.isFinite(x) ? body(x) : (Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf').padStart(width));
}

/// NumPy's str() of a 1-d float array: "[0.0002 0.9413 0.0585]", wrapped at 75 characters with a
/// one-space hanging indent, and summarized ("...") past 1,000 elements.
export function ndarray(values: ArrayLike<number>): string {
  const all = Array.from(values);
  if (all.length === 0) return '[]';
  const summary = all.length > THRESHOLD;
  const shown = summary ? [...all.slice(0, EDGE_ITEMS), ...all.slice(-EDGE_ITEMS)] : all;
  const format = floatFormat(shown);
  const words = summary ? [...all.slice(0, EDGE_ITEMS).map(format), '...', ...all.slice(-EDGE_ITEMS).map(format)] : all.map(format);
  // NumPy's _formatArray for the last axis: the hanging indent is one space (the "[" it replaces),
  // and a line holds words up to the width less the closing bracket.
  const indent = ' ';
  const width = LINE_WIDTH - 1;
  let text = '';
  let line = indent;
  words.forEach((word, i) => {
    const limit = i === words.length - 1 ? width : width;
    if (line.length + word.length > limit && line.length > indent.length) {
      text += `${line.trimEnd()}\n`;
      line = indent;
    }
    line += word;
    if (i < words.length - 1) line += ' ';
  });
  text += line;
  return `[${text.slice(indent.length)}]`;
}
