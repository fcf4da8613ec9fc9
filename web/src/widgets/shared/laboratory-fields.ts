/// Typed settings fields (number, integer or list inputs) checked against a widget's parameter
/// spec before anything reaches the core; a refused entry leaves the last good value in place.
import {
  describeParam,
  parseParam,
  type IntegerParam,
  type NumberListParam,
  type NumberParam,
  type Schema,
  type StateOf,
  type ValueOf,
} from '../../ui/state';
import { setText } from '../../ui/readout';

type FieldSpec = NumberParam | IntegerParam | NumberListParam;

/// The largest seed the core's generator accepts (2^53 - 1).
export const MAX_SEED = 2 ** 53 - 1;

/// Laboratory settings shared by the audit and selection widgets: the chapter's noise level and
/// bandwidth grid (section 12.4).
export const laboratoryParams = {
  noise: { kind: 'number', label: 'noise σ', default: 0.25, min: 0, max: 2, scale: 'linear', step: 0.01 },
  bandwidths: {
    kind: 'numbers',
    label: 'bandwidth grid',
    default: [0.05, 0.08, 0.12, 0.18, 0.28, 0.42, 0.65, 1.0],
    min: 0.01,
    max: 5,
    minLength: 1,
    maxLength: 16,
  },
} as const satisfies Record<string, NumberParam | NumberListParam>;

export interface Field<P extends FieldSpec> {
  element: HTMLLabelElement;
  /// A one-line input for a number; for a list, a text area that wraps its value at the figure's
  /// width (WCAG 1.4.10: a list of sixteen bandwidths never scrolls out of view at 320 px).
  input: HTMLInputElement | HTMLTextAreaElement;
  /// Shows `value` without firing onCommit.
  set(value: ValueOf<P>): void;
}

export interface FieldOptions<P extends FieldSpec> {
  /// Visible caption and accessible name.
  label: string;
  spec: P;
  value: ValueOf<P>;
  /// Called with the parsed value after the reader commits a valid entry (change / Enter).
  onCommit(value: ValueOf<P>): void;
  /// Called with a message naming the refused text and what the field accepts.
  onRefuse(message: string): void;
  /// Width in characters (lists need more room).
  size?: number;
}

/// Whether the browser sizes a text area to its text (CSS field-sizing: content).
const SIZES_TO_CONTENT = typeof CSS !== 'undefined' && CSS.supports('field-sizing', 'content');

function show(spec: FieldSpec, value: unknown): string {
  return spec.kind === 'numbers' ? (value as number[]).join(', ') : String(value);
}

/// `<label class="kl-control kl-field">caption <input class="kl-input"></label>` (a `<textarea>` for a list).
export function field<P extends FieldSpec>(options: FieldOptions<P>): Field<P> {
  const element = document.createElement('label');
  element.className = 'kl-field';
  const caption = document.createElement('span');
  caption.className = 'kl-field__caption';
  setText(caption, options.label);
  const list = options.spec.kind === 'numbers';
  const input = list ? document.createElement('textarea') : document.createElement('input');
  if (input instanceof HTMLInputElement) input.type = 'text';
  else input.rows = 1;
  input.className = list ? 'kl-input kl-input--list' : 'kl-input';
  input.inputMode = list ? 'text' : 'decimal';
  input.spellcheck = false;
  /// The field is as wide as its text (never narrower than `size`), so a list is never cut off;
  /// a list wraps once it reaches the figure's width (CSS field-sizing, or its height set here
  /// where the browser has none).
  const fit = (): void => {
    const width = Math.max(options.size ?? 8, input.value.length + 1);
    if (input instanceof HTMLInputElement) {
      input.size = width;
      return;
    }
    input.cols = width;
    if (!SIZES_TO_CONTENT) {
      input.style.height = 'auto';
      input.style.height = `${input.scrollHeight + 2}px`;
    }
  };
  input.addEventListener('input', fit);
  input.setAttribute('aria-label', options.label);
  element.append(caption, input);
  /// The text last committed: Enter commits a list, and the change on leaving it then does not
  /// commit it twice.
  let committed = '';
  const set = (value: ValueOf<P>): void => {
    input.value = show(options.spec, value);
    committed = input.value;
    input.removeAttribute('aria-invalid');
    fit();
  };
  set(options.value);
  const commit = (): void => {
    if (input.value === committed && !input.hasAttribute('aria-invalid')) return;
    const text = input.value.replace(/\s+/g, '');
    const value = parseParam(options.spec, text) as ValueOf<P> | null;
    if (value === null) {
      input.setAttribute('aria-invalid', 'true');
      options.onRefuse(`${options.label} = “${input.value}” is refused: expected ${describeParam(options.spec)}.`);
      return;
    }
    committed = input.value;
    input.removeAttribute('aria-invalid');
    options.onCommit(value);
  };
  input.addEventListener('change', commit);
  // A list is a text area, where Enter would start a new line: it commits, as in a one-line field.
  const box: HTMLElement = input;
  box.addEventListener('keydown', (event) => {
    if (list && event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      commit();
    }
  });
  return { element, input, set };
}

/// The keys of a schema whose parameters can be typed into a field.
export type FieldKey<S extends Schema> = { [K in keyof S]: S[K] extends FieldSpec ? K : never }[keyof S] & string;

/// A maker of fields for a widget's settings: `make(key, size)` captions the field with the
/// parameter's label, shows the current value and commits `{ [key]: value }`.
export function settingsFields<S extends Schema>(
  schema: S,
  current: () => StateOf<S>,
  onCommit: (partial: Partial<StateOf<S>>) => void,
  onRefuse: (message: string) => void,
): <K extends FieldKey<S>>(key: K, size: number) => Field<FieldSpec> {
  return (key, size) => {
    const spec = schema[key] as FieldSpec;
    return field<FieldSpec>({
      label: spec.label,
      spec,
      value: current()[key] as ValueOf<FieldSpec>,
      size,
      onCommit: (value) => onCommit({ [key]: value } as Partial<StateOf<S>>),
      onRefuse,
    });
  };
}

/// A bandwidth as the chapter prints it ("0.05", "1.00"), with more digits only when needed.
export function bandwidthText(h: number): string {
  const two = h.toFixed(2);
  return Number(two) === h ? two : String(Number(h.toPrecision(4)));
}
