/// Pieces shared by the pencil-exercise reveals: a "check your answer" disclosure and an editor for
/// the five targets on the keys −2…2.
import { button, controlRow } from '../../ui/controls';
import { element } from '../../ui/dom';
import { fixed, tuple } from '../../ui/format';
import './pencil.css';
import { setText } from '../../ui/readout';

/// The keys of section 12.1 and exercises 1–2.
export const EXERCISE_KEYS = [-2, -1, 0, 1, 2] as const;
/// Targets that are 1 everywhere: λᵀ1 and αᵀ1 are the weight sums.
export const ONES = EXERCISE_KEYS.map(() => 1);

export interface Reveal {
  element: HTMLElement;
  body: HTMLDivElement;
}

/// `<details>` whose summary reads `summary`; `onToggle` reports each opening and closing. A figure
/// that already sits behind a disclosure (the full page's exercises, each behind "Check your
/// answer") gets its answer as it is, not a second disclosure inside the first (`nested`).
export function reveal(summary: string, open: boolean, onToggle: (open: boolean) => void, nested = false): Reveal {
  const body = document.createElement('div');
  body.className = 'kl-reveal__body';
  if (nested) {
    const element = document.createElement('div');
    element.className = 'kl-reveal kl-reveal--nested';
    element.append(body);
    return { element, body };
  }
  const element = document.createElement('details');
  element.className = 'kl-reveal';
  element.open = open;
  const label = document.createElement('summary');
  label.className = 'kl-reveal__summary';
  setText(label, summary);
  element.append(label, body);
  element.addEventListener('toggle', () => onToggle(element.open));
  return { element, body };
}

export interface TargetEditor {
  element: HTMLElement;
  set(targets: readonly number[]): void;
}

export interface TargetEditorOptions {
  targets: readonly number[];
  range: { min: number; max: number };
  /// Named target vectors offered as one-click choices.
  presets: readonly { label: string; targets: readonly number[] }[];
  /// Receives the edited vector; NaN marks an entry that is not a number (the core names it).
  onChange(targets: number[]): void;
  /// Reports an entry outside `range`.
  onRefuse(message: string): void;
}

/// Five labelled number inputs (one per key) and the preset buttons.
export function targetEditor(options: TargetEditorOptions): TargetEditor {
  const editor = element('div', 'kl-targets');
  const fields = element('div', 'kl-targets__fields');
  const inputs = EXERCISE_KEYS.map((key, i) => {
    const label = element('label', 'kl-targets__field');
    const caption = document.createElement('span');
    setText(caption, `y${i + 1}`);
    const input = element('input', 'kl-input');
    input.type = 'number';
    input.step = '0.1';
    input.setAttribute('aria-label', `target y${i + 1} at key ${fixed(key, 0)}`);
    label.append(caption, input);
    fields.append(label);
    return input;
  });
  const set = (targets: readonly number[]): void => {
    inputs.forEach((input, i) => (input.value = String(targets[i] ?? 0)));
  };
  const read = (): void => {
    const targets = inputs.map((input) => (input.value.trim() === '' ? Number.NaN : Number(input.value)));
    const outside = targets.findIndex((y) => Number.isFinite(y) && (y < options.range.min || y > options.range.max));
    if (outside >= 0) {
      options.onRefuse(
        `target y${outside + 1} = ${inputs[outside]?.value} is refused: expected a number in [${fixed(options.range.min, 0)}, ${fixed(options.range.max, 0)}].`,
      );
      return;
    }
    options.onChange(targets);
  };
  for (const input of inputs) input.addEventListener('change', read);
  const presets = options.presets.map(({ label, targets }) => {
    const choice = button(`${label} ${tuple(targets, 0)}`, () => {
      set(targets);
      options.onChange([...targets]);
    });
    choice.setAttribute('aria-label', `Use the targets ${label} ${targets.join(', ')}`);
    return choice;
  });
  set(options.targets);
  editor.append(fields, controlRow(...presets));
  return { element: editor, set };
}
