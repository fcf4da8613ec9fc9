/// Typed widget parameters: a schema per widget, parsed from URL parameters with a per-parameter
/// fallback to the default, and serialised back (only what differs from the default).

export interface NumberParam {
  kind: 'number';
  label: string;
  default: number;
  min: number;
  max: number;
  /// How a slider maps to the value; 'log' sliders move by equal ratios.
  scale: 'linear' | 'log';
  /// Slider step for linear scales.
  step?: number;
}

export interface IntegerParam {
  kind: 'integer';
  label: string;
  default: number;
  min: number;
  max: number;
}

export interface EnumParam<T extends string = string> {
  kind: 'enum';
  label: string;
  default: T;
  options: readonly T[];
}

export interface NumberListParam {
  kind: 'numbers';
  label: string;
  default: readonly number[];
  min: number;
  max: number;
  minLength: number;
  maxLength: number;
}

export interface BooleanParam {
  kind: 'boolean';
  label: string;
  default: boolean;
}

export type ParamSpec = NumberParam | IntegerParam | EnumParam | NumberListParam | BooleanParam;
export type Schema = Record<string, ParamSpec>;

export type ValueOf<P extends ParamSpec> = P extends NumberParam | IntegerParam
  ? number
  : P extends EnumParam<infer T>
    ? T
    : P extends NumberListParam
      ? number[]
      : P extends BooleanParam
        ? boolean
        : never;

export type StateOf<S extends Schema> = { [K in keyof S]: ValueOf<S[K]> };

export interface ParsedState<S extends Schema> {
  state: StateOf<S>;
  /// One line per rejected parameter, e.g. `h=abc (expected a number in [0.05, 5])`.
  rejected: string[];
  /// One line per parameter that had no effect: not a parameter of the figure (with the nearest
  /// one it may have meant), or given more than once (which one counts).
  ignored: string[];
}

function expectation(spec: ParamSpec): string {
  switch (spec.kind) {
    case 'number':
      return `a number in [${spec.min}, ${spec.max}]`;
    case 'integer':
      return `an integer in [${spec.min}, ${spec.max}]`;
    case 'enum':
      return `one of ${spec.options.join(', ')}`;
    case 'numbers':
      return `${spec.minLength}–${spec.maxLength} comma-separated numbers in [${spec.min}, ${spec.max}]`;
    case 'boolean':
      return 'true or false';
  }
}

function parseNumber(text: string): number | null {
  if (!/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text)) return null;
  return Number(text);
}

function inRange(spec: NumberParam | NumberListParam | IntegerParam, x: number): boolean {
  return Number.isFinite(x) && x >= spec.min && x <= spec.max;
}

/// Longest part of a refused value that a note repeats; a link can carry thousands of characters.
export const MAX_ECHOED = 40;

/// A refused value as a note shows it: at most MAX_ECHOED characters (whole code points), then
/// "… (N characters)" so the reader still sees how long it was.
export function echoed(text: string): string {
  const points = Array.from(text);
  if (points.length <= MAX_ECHOED) return text;
  return `${points.slice(0, MAX_ECHOED).join('')}… (${points.length.toLocaleString('en-US')} characters)`;
}

/// The value of one parameter, or null when `text` is not acceptable.
export function parseParam<P extends ParamSpec>(spec: P, text: string): ValueOf<P> | null {
  switch (spec.kind) {
    case 'number': {
      const x = parseNumber(text);
      return x !== null && inRange(spec, x) ? (x as ValueOf<P>) : null;
    }
    case 'integer': {
      const x = parseNumber(text);
      return x !== null && Number.isInteger(x) && inRange(spec, x) ? (x as ValueOf<P>) : null;
    }
    case 'enum':
      return spec.options.includes(text) ? (text as ValueOf<P>) : null;
    case 'numbers': {
      const parts = text.split(',');
      if (parts.length < spec.minLength || parts.length > spec.maxLength) return null;
      const values = parts.map(parseNumber);
      if (values.some((x) => x === null || !inRange(spec, x))) return null;
      return values as ValueOf<P>;
    }
    case 'boolean':
      if (text === 'true' || text === '1') return true as ValueOf<P>;
      if (text === 'false' || text === '0') return false as ValueOf<P>;
      return null;
  }
  return null;
}

export function defaults<S extends Schema>(schema: S): StateOf<S> {
  const state: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema)) {
    state[name] = Array.isArray(spec.default) ? [...spec.default] : spec.default;
  }
  return state as StateOf<S>;
}

/// Reads every schema parameter from `params`; a missing one takes its default, an invalid one
/// takes its default and is listed in `rejected`. A name that is neither a parameter nor one of
/// `others` (the page's own, such as `widget` and `theme`), and a parameter given twice, are
/// listed in `ignored`.
export function parseState<S extends Schema>(schema: S, params: URLSearchParams, others: readonly string[] = []): ParsedState<S> {
  const state = defaults(schema) as Record<string, unknown>;
  const rejected: string[] = [];
  for (const [name, spec] of Object.entries(schema)) {
    const text = params.get(name);
    if (text === null) continue;
    const value = parseParam(spec, text);
    if (value === null) rejected.push(`${name}=${echoed(text)} (expected ${expectation(spec)})`);
    else state[name] = value;
  }
  return { state: state as StateOf<S>, rejected, ignored: ignoredParams(schema, params, others) };
}

/// The lines of `ParsedState.ignored`.
function ignoredParams(schema: Schema, params: URLSearchParams, others: readonly string[]): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) continue;
    seen.add(name);
    const values = params.getAll(name);
    if (name in schema || others.includes(name)) {
      if (values.length > 1) lines.push(`${echoed(name)} is given ${values.length} times; the first, ${echoed(name)}=${echoed(values[0] ?? '')}, counts`);
      continue;
    }
    const guess = nearestParam(schema, name);
    lines.push(`${echoed(name)} is not a parameter of this figure${guess ? `; did you mean ${guess}?` : ''}`);
  }
  return lines;
}

/// The parameter `name` most likely meant: same letters in another case, or a name or a word of a
/// label within a small edit distance; described as "label (name)".
function nearestParam(schema: Schema, name: string): string | null {
  const wanted = name.toLowerCase();
  let best: { key: string; distance: number } | null = null;
  for (const [key, spec] of Object.entries(schema)) {
    const candidates = [key, ...spec.label.split(/[\s,()]+/)].map((word) => word.toLowerCase()).filter((word) => word.length > 0);
    for (const candidate of candidates) {
      const distance = editDistance(wanted, candidate);
      const limit = candidate === key.toLowerCase() ? Math.max(1, Math.floor(candidate.length / 3)) : Math.floor(candidate.length / 4);
      if (distance <= limit && (!best || distance < best.distance)) best = { key, distance };
    }
  }
  if (!best) return null;
  const label = schema[best.key]?.label ?? best.key;
  return label === best.key ? best.key : `${label} (${best.key})`;
}

/// The one of `names` that `name` most likely meant (same letters in another case, or within a
/// third of its letters by edit distance), or null.
export function nearestName(names: readonly string[], name: string): string | null {
  const wanted = name.toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const candidate of names) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance <= Math.max(1, Math.floor(candidate.length / 3)) && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name ?? null;
}

/// The page's `theme=` values.
export const THEMES = ['light', 'dark', 'auto'] as const;

/// The note on a `theme` value that is no theme (the page then follows the reader's setting), or
/// null; `name` is how the page spells the parameter (`theme`, or an element's attribute).
export function themeNote(value: string | null, name = 'theme'): string | null {
  if (value === null || (THEMES as readonly string[]).includes(value)) return null;
  const guess = nearestName(THEMES, value);
  return `${name}=${echoed(value)} is not a theme (${THEMES.join(', ')}); ${guess ? `did you mean ${guess}? ` : ''}the figures follow the reader's setting`;
}

/// Notes on the full page's address: each name that is neither `theme`, one of the page's `own`
/// entries (each noted by its own function), nor `<figure>.<parameter>` of one of `figures` (those
/// are the figures' own to note), a repeated `theme`, and a theme that is none.
export function pageParamNotes(
  search: URLSearchParams,
  figures: readonly string[],
  own: ReadonlyMap<string, (values: readonly string[]) => readonly string[]> = new Map(),
): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const name of search.keys()) {
    if (seen.has(name)) continue;
    seen.add(name);
    const notes = own.get(name);
    if (notes) {
      lines.push(...notes(search.getAll(name)));
      continue;
    }
    if (name === 'theme') {
      const values = search.getAll(name);
      if (values.length > 1) lines.push(`theme is given ${values.length} times; the first, theme=${echoed(values[0] ?? '')}, counts`);
      const note = themeNote(values[0] ?? null);
      if (note) lines.push(note);
      continue;
    }
    const dot = name.indexOf('.');
    if (dot > 0 && figures.includes(name.slice(0, dot))) continue;
    if (dot > 0) {
      const figure = name.slice(0, dot);
      const guess = nearestName(figures, figure);
      lines.push(`${echoed(name)}: no figure on this page is named ${echoed(figure)}${guess ? `; did you mean ${guess}.${echoed(name.slice(dot + 1))}?` : ''}`);
      continue;
    }
    const example = `${figures.includes('lookup') ? 'lookup' : (figures[0] ?? 'lookup')}.${echoed(name)}`;
    lines.push(`${echoed(name)} is not a parameter of this page; a figure's parameter takes the figure's name first, as in ${example}`);
  }
  return lines;
}

/// Edit distance with swaps of neighbours counted as one edit ("kyes" is one from "keys"), for
/// names of a few letters (a long name is cut first).
function editDistance(a: string, b: string): number {
  const s = a.slice(0, 64);
  const t = b.slice(0, 64);
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (s[i - 1] === t[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, (before[j - 2] ?? 0) + 1);
      current[j] = best;
    }
    before = previous;
    previous = current;
  }
  return previous[t.length] ?? 0;
}

function formatParam(spec: ParamSpec, value: unknown): string {
  if (spec.kind === 'numbers') return (value as number[]).map(String).join(',');
  return String(value);
}

/// Whether two parameter values are equal: the same number, string or boolean, or lists of the
/// same numbers (how a value is told from its default).
export function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

/// `lead` and the notes `lines` as one sentence: "lead: a; b." (no full stop after a closing "?").
export function noteSentence(lead: string, lines: readonly string[]): string {
  const text = `${lead}: ${lines.join('; ')}`;
  return /[.?!]$/.test(text) ? text : `${text}.`;
}

/// URL parameters for `state`, leaving out values equal to their defaults, and values the figure
/// would refuse on reading the address back (an emptied typed field holds NaN, which the core
/// refuses by name: the address keeps no `q=NaN` that a reload would only report).
export function serializeState<S extends Schema>(schema: S, state: StateOf<S>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, spec] of Object.entries(schema)) {
    const value = (state as Record<string, unknown>)[name];
    if (sameValue(value, spec.default)) continue;
    const text = formatParam(spec, value);
    if (parseParam(spec, text) !== null) params.set(name, text);
  }
  return params;
}

/// The human description of what a parameter accepts (for docs and notes).
export function describeParam(spec: ParamSpec): string {
  return expectation(spec);
}
