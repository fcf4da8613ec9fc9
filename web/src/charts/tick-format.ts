/// Chart.js' numeric tick labels (`Ticks.formatters.numeric`) as they read in English, written
/// without Intl. A page's first `Intl.NumberFormat` loads the locale data (about 50 ms on the main
/// thread, the first chart's layout on a page of figures), and Chart.js' formatter makes one per
/// label format. Same choices as Chart.js: the decimals from the step between ticks, scientific
/// notation when the axis' outer ticks are below 1e-4 or above 1e15; and as Intl writes them in
/// `en-US`: rounded half away from zero from the shortest decimal form of the double (so 0.35
/// reads "0.4" where `toFixed` gives "0.3"), thousands grouped with commas, "1.5E-5".
/// Dependency-free so that tests/e2e/tick-format.test.mjs checks it against Intl in Node.

/// Whether the browser's default number locale writes numbers as `englishTickLabel` does: the
/// locale Chart.js formats in when a chart sets none. Other locales (a decimal comma, other digits
/// or grouping) keep Chart.js' Intl formatter.
export function defaultLocaleIsEnglish(language: string | undefined): boolean {
  return language !== undefined && /^en(-US)?$/i.test(language);
}

/// Significant digits a double holds: where a label asks for more, Intl's output depends on its
/// ICU version (one writes "0.099…E-16" for 1e-17), and the label is left to Chart.js.
const MAX_DIGITS = 15;

/// The label Chart.js' numeric formatter gives `value` among `ticks` in `en-US`, or null where
/// that label would need more than a double's digits.
export function englishTickLabel(value: number, ticks: readonly { value: number }[]): string | null {
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return null;
  let scientific = false;
  let delta = value;
  const first = ticks[0];
  const last = ticks[ticks.length - 1];
  if (ticks.length > 1 && first && last) {
    const maxTick = Math.max(Math.abs(first.value), Math.abs(last.value));
    scientific = maxTick < 1e-4 || maxTick > 1e15;
    delta = stepAround(value, ticks);
  }
  const logDelta = Math.log10(Math.abs(delta));
  const decimals = Number.isNaN(logDelta) ? 1 : Math.max(Math.min(-1 * Math.floor(logDelta), 20), 0);
  const { digits, exponent } = shortestDigits(value);
  if ((scientific ? 1 : Math.max(exponent + 1, 1)) + decimals > MAX_DIGITS) return null;
  return scientific ? scientificText(value < 0, digits, exponent, decimals) : fixedText(value < 0, digits, exponent, decimals);
}

/// Chart.js' `calculateDelta`: the step between ticks, or a value's own fraction on a coarse axis.
function stepAround(value: number, ticks: readonly { value: number }[]): number {
  const [a, b] = ticks.length > 3 ? [ticks[1], ticks[2]] : [ticks[0], ticks[1]];
  let delta = (b?.value ?? 0) - (a?.value ?? 0);
  if (Math.abs(delta) >= 1 && value !== Math.floor(value)) delta = value - Math.floor(value);
  return delta;
}

/// The shortest decimal digits of |x| (no leading zeros) and the power of ten of the first one.
function shortestDigits(x: number): { digits: number[]; exponent: number } {
  const [mantissa = '0', power = '0'] = Math.abs(x).toExponential().split('e');
  return { digits: Array.from(mantissa.replace('.', ''), Number), exponent: Number(power) };
}

/// Rounds `digits` to `keep` digits, half away from zero; a carry out of the first digit grows
/// the result by one digit (returned as `carried`).
function roundDigits(digits: readonly number[], keep: number): { digits: number[]; carried: boolean } {
  if (keep < 0) return { digits: [], carried: false };
  const kept = digits.slice(0, keep);
  while (kept.length < keep) kept.push(0);
  if ((digits[keep] ?? 0) < 5) return { digits: kept, carried: false };
  for (let i = kept.length - 1; i >= 0; i--) {
    if (kept[i] === 9) kept[i] = 0;
    else {
      kept[i] = (kept[i] ?? 0) + 1;
      return { digits: kept, carried: false };
    }
  }
  return { digits: [1, ...kept], carried: true };
}

/// A number of shortest `digits` (first at 10^`exponent`) with `decimals` fraction digits and
/// commas between thousands: Intl's en-US. A negative that rounds to zero keeps its sign ("-0.0").
function fixedText(negative: boolean, digits: readonly number[], exponent: number, decimals: number): string {
  // Rounded to an integer count of 10^-decimals: exponent + 1 digits stand before the point.
  const text = roundDigits(digits, exponent + 1 + decimals).digits.join('').padStart(decimals + 1, '0');
  const integer = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals);
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${decimals > 0 ? `.${fraction}` : ''}`;
}

/// The same number in Intl's en-US scientific notation with `decimals` mantissa decimals: "1.50E-5".
function scientificText(negative: boolean, digits: readonly number[], exponent: number, decimals: number): string {
  const rounded = roundDigits(digits, 1 + decimals);
  const mantissa = rounded.carried ? rounded.digits.slice(0, 1 + decimals) : rounded.digits;
  const power = exponent + (rounded.carried ? 1 : 0);
  const [lead = 0, ...rest] = mantissa;
  return `${negative ? '-' : ''}${lead}${decimals > 0 ? `.${rest.join('')}` : ''}E${power}`;
}
