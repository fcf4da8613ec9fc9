/// A typed number beside a slider, for values a slider cannot reach exactly (or must be able to
/// refuse, such as h = 0). Empty or unparsable text reports NaN so the core refuses it by name.
import { nameWithCaption } from './controls';

export interface TypedNumber {
  element: HTMLLabelElement;
  input: HTMLInputElement;
  /// Shows `value` without firing onChange.
  set(value: number): void;
}

/// `<label class="kl-control kl-control--compact">caption <input type="number"></label>`.
export function typedNumber(options: {
  /// What the field is, e.g. "bandwidth h, typed value"; the accessible name starts with the
  /// caption when this does not hold it ("type h, bandwidth h, typed value").
  label: string;
  caption: string;
  value: number;
  onChange(value: number): void;
}): TypedNumber {
  const input = document.createElement('input');
  input.type = 'number';
  input.className = 'kl-input';
  input.step = 'any';
  input.value = String(options.value);
  input.setAttribute('aria-label', nameWithCaption(options.label, options.caption));
  input.addEventListener('change', () => {
    const text = input.value.trim();
    options.onChange(text === '' ? Number.NaN : Number(text));
  });
  const element = document.createElement('label');
  element.className = 'kl-control kl-control--compact';
  // The caption in the sliders' caption span, so it keeps to one line as theirs do.
  const caption = document.createElement('span');
  caption.className = 'kl-control__caption';
  caption.textContent = options.caption;
  element.append(caption, input);
  return {
    element,
    input,
    set(value) {
      input.value = String(value);
    },
  };
}

/// A refusal's message for values that came from typed fields: a field left empty or holding no
/// number is named as such (never "h = NaN is refused"); otherwise the values as given and the
/// core's reason.
export function refusalOf(fields: ReadonlyArray<{ name: string; value: number; typed?: TypedNumber }>, reason: string, expected = 'a positive number'): string {
  const unreadable = fields.find((field) => Number.isNaN(field.value));
  if (unreadable) {
    const text = unreadable.typed?.input.value.trim() ?? '';
    const shown = Array.from(text).slice(0, 40).join('');
    return text === '' ? `${unreadable.name} is empty: type ${expected}.` : `${unreadable.name} = “${shown}${shown.length < text.length ? '…' : ''}” is not a number: type ${expected}.`;
  }
  return `${fields.map((field) => `${field.name} = ${String(field.value)}`).join(', ')} is refused: ${reason}`;
}
