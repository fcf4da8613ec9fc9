/// A heat map read cell by cell: the plot is one keyboard stop (arrows move a cell, Page keys a
/// tenth of the rows, Home and End to the first and last column), the cell read is outlined on the
/// overlay and written beside the pointer or the cursor (row, column, value); a polite live region
/// speaks it while the plot has focus. A "Show data" table lists the values the page holds.
import type { Heatmap } from './heatmap';
import { dataTable, keyboardStop } from './explore';
import { fixed, indexed, significant } from '../ui/format';

/// Names of a map's rows and columns and the value of a cell.
export interface CellReader {
  /// What a cell's value is ("weight").
  what: string;
  row(r: number): string;
  col(c: number): string;
  /// The cell's value; null when the page does not hold it (yet).
  value(r: number, c: number): number | null;
  /// Asks for row `r`'s values (the attention map computes one row's weights at a time).
  select?(r: number): void;
}

/// A reader for a map of queries (rows) against keys (columns): "q = 0.52, k₇ = 1.30, weight …".
/// `axes` gives the drawn map's queries and keys; `value` defaults to the frame's own values.
export function queryKeyReader(
  map: Heatmap,
  axes: () => { queries: ArrayLike<number>; keys: ArrayLike<number> } | null,
  more: Partial<CellReader> = {},
): CellReader {
  return {
    ...defaultReader(map),
    what: 'weight',
    row: (r) => `q = ${fixed(axes()?.queries[r] ?? Number.NaN, 2)}`,
    col: (c) => `${indexed('k', c + 1)} = ${fixed(axes()?.keys[c] ?? Number.NaN, 2)}`,
    ...more,
  };
}

/// The reader a map has by default: row and column numbers, the frame's own values.
function defaultReader(map: Heatmap): CellReader {
  return {
    what: 'value',
    row: (r) => `row ${r + 1}`,
    col: (c) => `column ${c + 1}`,
    value: (r, c) => {
      const frame = map.shown;
      const v = frame?.values?.[r * frame.cols + c];
      return v === undefined ? null : v;
    },
  };
}

/// The largest table "Show data" builds (rows × columns); a larger map says so.
const MAX_TABLE_CELLS = 40000;

export function exploreHeatmap(map: Heatmap): () => void {
  const plot = map.plot;
  const live = keyboardStop(plot, 'heat map', () => {
    const focused = plot.matches(':focus');
    if (focused) map.cursor ??= { r: 0, c: 0 };
    show(focused ? map.cursor : null);
    map.redrawOverlay();
  });
  const tip = document.createElement('div');
  tip.className = 'kl-heatmap__cell';
  tip.hidden = true;
  plot.append(tip);

  const reader = (): CellReader => map.reader ?? defaultReader(map);
  const cellText = (r: number, c: number): string => {
    const read = reader();
    const v = read.value(r, c);
    return `${read.row(r)}, ${read.col(c)}, ${read.what} ${v === null ? 'being computed' : significant(v, 4)}`;
  };
  let waiting = false;
  const show = (cell: { r: number; c: number } | null): void => {
    tip.hidden = cell === null;
    if (cell) tip.textContent = cellText(cell.r, cell.c);
  };
  const speak = (): void => {
    const cell = map.cursor;
    if (!cell) return;
    const read = reader();
    waiting = read.value(cell.r, cell.c) === null;
    if (waiting) read.select?.(cell.r);
    live.textContent = cellText(cell.r, cell.c);
    plot.dataset.klRead = live.textContent;
    show(cell);
  };

  const renewTable = dataTable(
    map.element,
    map.label,
    () => ['', ...Array.from({ length: map.shown?.cols ?? 0 }, (_, c) => reader().col(c))],
    () => {
      const frame = map.shown;
      const read = reader();
      if (!frame || frame.rows * frame.cols > MAX_TABLE_CELLS || read.select) {
        return 'The page holds part of this map: read its cells with the arrow keys.';
      }
      return Array.from({ length: frame.rows }, (_, i) => {
        const r = frame.rows - 1 - i;
        return [read.row(r), ...Array.from({ length: frame.cols }, (_, c) => significant(read.value(r, c) ?? Number.NaN, 4))];
      });
    },
  );
  plot.addEventListener('pointermove', (event) => show(map.cellAt(event.clientX, event.clientY)));
  plot.addEventListener('pointerleave', () => show(plot.matches(':focus') ? map.cursor : null));
  plot.addEventListener('keydown', (event) => {
    const frame = map.shown;
    const cell = map.cursor;
    if (!frame || !cell) return;
    const page = Math.max(1, Math.round(frame.rows / 10));
    const clamp = (v: number, n: number): number => Math.max(0, Math.min(n - 1, v));
    const moves: Record<string, () => void> = {
      ArrowRight: () => (cell.c = clamp(cell.c + 1, frame.cols)),
      ArrowLeft: () => (cell.c = clamp(cell.c - 1, frame.cols)),
      ArrowUp: () => (cell.r = clamp(cell.r + 1, frame.rows)),
      ArrowDown: () => (cell.r = clamp(cell.r - 1, frame.rows)),
      PageUp: () => (cell.r = clamp(cell.r + page, frame.rows)),
      PageDown: () => (cell.r = clamp(cell.r - page, frame.rows)),
      Home: () => (cell.c = 0),
      End: () => (cell.c = frame.cols - 1),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
    speak();
    map.redrawOverlay();
  });

  let described = '';
  return () => {
    const frame = map.shown;
    const { low, high } = map.shownRange ?? map.colors;
    const text = frame
      ? `${map.label}. ${frame.rows} rows by ${frame.cols} columns; ${reader().what} from ${significant(low, 3)} to ${significant(high, 3)} on a ${frame.scale} colour scale. Arrow keys read the cells.`
      : `${map.label}. No data drawn.`;
    if (text !== described) {
      described = text;
      plot.setAttribute('aria-label', text);
      renewTable();
    }
    // A row asked for from the keyboard has arrived: read the cell again.
    const cell = map.cursor;
    if (waiting && cell && reader().value(cell.r, cell.c) !== null) speak();
    else if (cell && !tip.hidden) show(cell);
  };
}
