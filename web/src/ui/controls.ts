/// Form controls shared by the widgets: labelled range sliders (linear or logarithmic), buttons.
import { fixed, precise, roundSignificant } from './format';
import { setText } from './readout';
import { scrollBox } from './scroll-box';
import type { NumberParam } from './state';

/// Slider resolution of logarithmic scales: each step multiplies the value by (max/min)^(1/LOG_STEPS).
const LOG_STEPS = 400;

export interface SliderOptions {
  /// The accessible name, e.g. "bandwidth h" or "query q".
  label: string;
  /// Visible label (may differ from the accessible name, e.g. KaTeX-free "h").
  caption?: string;
  spec: Pick<NumberParam, 'min' | 'max' | 'scale' | 'step'>;
  value: number;
  format(value: number): string;
  onInput(value: number): void;
}

export interface Slider {
  element: HTMLElement;
  input: HTMLInputElement;
  /// Moves the thumb and read-out to `value` without firing onInput.
  set(value: number): void;
  readonly value: number;
}

/// The accessible name of a control whose visible caption is `caption`: `label` when it holds the
/// caption, else the caption first ("type h, bandwidth h"): a speech user says what is seen.
export function nameWithCaption(label: string, caption: string): string {
  return label.toLowerCase().includes(caption.toLowerCase()) ? label : `${caption}, ${label}`;
}

/// `<label class="kl-control">caption <input type="range"> <span></label>`. The value beside the
/// thumb is plain text (the slider's aria-valuetext says it): no live region repeats the slider.
export function slider(options: SliderOptions): Slider {
  const { spec } = options;
  const log = spec.scale === 'log';
  const element = document.createElement('label');
  element.className = 'kl-control';
  const caption = document.createElement('span');
  caption.className = 'kl-control__caption';
  caption.textContent = options.caption ?? options.label;
  const input = document.createElement('input');
  input.type = 'range';
  input.setAttribute('aria-label', nameWithCaption(options.label, options.caption ?? options.label));
  const output = document.createElement('span');
  output.className = 'kl-control__value';
  if (log) {
    input.min = '0';
    input.max = String(LOG_STEPS);
    input.step = '1';
  } else {
    input.min = String(spec.min);
    input.max = String(spec.max);
    input.step = String(spec.step ?? 'any');
  }
  element.append(caption, input, output);

  let value = options.value;
  const ratio = Math.log(spec.max / spec.min);
  const toPosition = (x: number): number =>
    log ? Math.round((LOG_STEPS * Math.log(x / spec.min)) / ratio) : x;
  const fromPosition = (position: number): number =>
    log ? roundSignificant(spec.min * Math.exp((ratio * position) / LOG_STEPS), 3) : position;

  const show = (x: number): void => {
    const text = options.format(x);
    setText(output, text);
    input.setAttribute('aria-valuetext', text);
  };
  /// The thumb's position for the last value set from outside (the chapter's h = 0.05 is not on
  /// the logarithmic grid): moving the thumb back there gives that value again, not its neighbour
  /// on the grid.
  let anchor = { position: NaN, value };
  const set = (x: number): void => {
    value = x;
    input.value = String(Math.min(Math.max(toPosition(x), Number(input.min)), Number(input.max)));
    anchor = { position: Number(input.value), value: x };
    show(x);
  };
  set(value);
  input.addEventListener('input', () => {
    const position = Number(input.value);
    value = position === anchor.position ? anchor.value : fromPosition(position);
    show(value);
    options.onInput(value);
  });
  return {
    element,
    input,
    set,
    get value() {
      return value;
    },
  };
}

/// A bandwidth slider: accessible name "bandwidth <symbol>", read-out to three significant digits.
export function bandwidthSlider(
  spec: SliderOptions['spec'],
  value: number,
  onInput: (h: number) => void,
  symbol = 'h',
): Slider {
  return slider({ label: `bandwidth ${symbol}`, spec, value, format: (h) => precise(h, 3), onInput });
}

/// A query slider: accessible name "query <symbol>", read-out to two decimals.
export function querySlider(
  spec: SliderOptions['spec'],
  value: number,
  onInput: (q: number) => void,
  symbol = 'q',
): Slider {
  return slider({ label: `query ${symbol}`, spec, value, format: (q) => fixed(q, 2), onInput });
}

export function button(label: string, onClick: () => void, className = 'kl-button'): HTMLButtonElement {
  const node = document.createElement('button');
  node.type = 'button';
  node.className = className;
  node.textContent = label;
  node.addEventListener('click', onClick);
  return node;
}

/// `<div class="kl-controls">` holding the given controls.
export function controlRow(...children: HTMLElement[]): HTMLDivElement {
  const row = document.createElement('div');
  row.className = 'kl-controls';
  row.append(...children);
  return row;
}

/// A small data table: caption, header row, body rows (all text). `element` is the table in a
/// horizontally scrolling box named by the caption, so wide tables never widen a narrow page.
export function dataTable(caption: string, header: readonly string[]): {
  table: HTMLTableElement;
  element: HTMLDivElement;
  /// A `null` cell is left as it is (a cell holding a control the caller manages).
  setRows(rows: readonly (readonly (string | null)[])[]): void;
  /// One summary row in the table's footer (e.g. column sums); null removes it.
  setFooter(cells: readonly string[] | null): void;
} {
  const table = document.createElement('table');
  table.className = 'kl-table';
  const cap = table.createCaption();
  cap.textContent = caption;
  const head = table.createTHead().insertRow();
  for (const text of header) {
    // A column without a title (e.g. row buttons) gets a plain cell: an empty header names nothing.
    const cell = document.createElement(text ? 'th' : 'td');
    if (text) (cell as HTMLTableCellElement).scope = 'col';
    cell.textContent = text;
    head.append(cell);
  }
  const body = table.createTBody();
  const fillRow = (tr: HTMLTableRowElement, cells: readonly (string | null)[]): void => {
    cells.forEach((text, i) => {
      let cell = tr.cells[i];
      if (!cell) {
        cell = document.createElement(i === 0 ? 'th' : 'td');
        if (i === 0) (cell as HTMLTableCellElement).scope = 'row';
        tr.append(cell);
      }
      if (text !== null) setText(cell, text);
    });
    while (tr.cells.length > cells.length) tr.deleteCell(-1);
  };
  const element = scrollBox(caption, [table]) as HTMLDivElement;
  return {
    table,
    element,
    /// Rows and cells are reused and only changed text is written, so a table refreshed on every
    /// frame of a drag costs little layout.
    setRows(rows) {
      rows.forEach((cells, r) => fillRow(body.rows[r] ?? body.insertRow(), cells));
      while (body.rows.length > rows.length) body.deleteRow(-1);
    },
    setFooter(cells) {
      if (!cells) {
        table.deleteTFoot();
        return;
      }
      const foot = table.createTFoot();
      fillRow(foot.rows[0] ?? foot.insertRow(), cells);
    },
  };
}
