/// Number formatting for display only (no math here).

/// Fixed decimals with a true minus sign: fixed(-0.1, 4) → "−0.1000".
export function fixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  const text = x.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text.replace('-', '−');
}

/// A share (0 to 1) as a percentage with one decimal: percent(0.3128) → "31.3 %", the space a
/// no-break one (a line never starts with the sign).
export function percent(share: number, digits = 1): string {
  return `${fixed(share * 100, digits)}\u00a0%`;
}

/// A blank as wide as `sample` in tabular figures (each digit a figure space, a point a
/// punctuation space; a space stays a space, any other character is taken as a digit's width): a
/// table cell or read-out holds it while its number is computed, so the number arriving moves
/// nothing (no layout shift). pending('0.0000') for a four-decimal cell.
export function pending(sample: string): string {
  return sample.replace(/[.,]/g, '\u2008').replace(/[^\u2008 ]/g, '\u2007');
}

/// Significant digits without exponent noise for slider read-outs: 0.6 → "0.6", 1234 → "1234".
export function significant(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return fixed(x, 0);
  if (x !== 0 && (Math.abs(x) >= 1e6 || Math.abs(x) < 1e-4)) return x.toExponential(digits - 1).replace('-', '−');
  return String(Number(x.toPrecision(digits))).replace('-', '−');
}

/// A bandwidth or temperature read-out with `digits` significant digits kept: 0.6 → "0.600".
export function precise(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return fixed(x, 0);
  if (x !== 0 && (Math.abs(x) >= 1e5 || Math.abs(x) < 1e-3)) return x.toExponential(digits - 1).replace('-', '−');
  return x.toPrecision(digits).replace('-', '−');
}

/// A list of numbers, e.g. "(1, 0, 0, 0, 0)".
export function tuple(xs: ArrayLike<number>, digits: number): string {
  return `(${Array.from(xs, (x) => fixed(x, digits)).join(', ')})`;
}

/// Rounds a slider reading to `digits` significant digits so URLs stay readable.
export function roundSignificant(x: number, digits = 3): number {
  return Number(x.toPrecision(digits));
}

/// Exactly Python's "{:.2e}" (as the chapter prints it): 2.22e-16 → "2.22e-16", 0 → "0.00e+00".
export function scientific(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return fixed(x, 0);
  const [mantissa = '', exponent = '0'] = x.toExponential(digits).split('e');
  const power = Number(exponent);
  return `${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
}

/// Python's repr of a float, as the chapter's print() shows it: 1 → "1.0", 0.9999999999999999 →
/// "0.9999999999999999", 1e-05 → "1e-05" (the shortest text that reads back as the number).
export function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const magnitude = Math.abs(x);
  if (x !== 0 && (magnitude < 1e-4 || magnitude >= 1e16)) {
    const [mantissa = '', exponent = '0'] = x.toExponential().split('e');
    const power = Number(exponent);
    return `${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  }
  const text = String(x);
  return Number.isInteger(x) ? `${text}.0` : text;
}

/// A name with a subscript index, as the chapter's $k_1$: indexed('k', 12) → "k₁₂".
export function indexed(name: string, index: number): string {
  return name + [...String(index)].map((digit) => String.fromCodePoint(0x2080 + Number(digit))).join('');
}

/// `dress(text)` with `text` cut at a character boundary and ended with "…" where the whole one is
/// wider than `room` as `measure` measures it: the longest cut that fits; `dress('')` when no
/// character fits. E.g. an axis title `${name} (key)` with the name cut to the canvas.
export function cutToFit(text: string, dress: (shown: string) => string, room: number, measure: (text: string) => number): string {
  const whole = dress(text);
  if (measure(whole) <= room) return whole;
  const characters = Array.from(text);
  const cut = (count: number): string => dress(count > 0 ? `${characters.slice(0, count).join('').trimEnd()}…` : '');
  // Wider with every character kept: a binary search for the longest that fits.
  let low = 0;
  let high = characters.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (measure(cut(middle)) <= room) low = middle;
    else high = middle - 1;
  }
  return cut(low);
}
