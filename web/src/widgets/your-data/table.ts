/// The your-data table: the accepted data as editable cells (up to 30 rows), read back as CSV text
/// exactly as typed so the core checks every edit, and the CSV text of a table.
import type { CsvTable } from '../../engine';
import { dataTable } from '../../ui/controls';
import { setText } from '../../ui/readout';

/// Editable cells are offered up to this many rows; larger tables are edited as text.
export const MAX_EDITABLE_ROWS = 30;

/// A CSV field, quoted when it holds a separator, a quote or a line break.
function quote(field: string): string {
  return /[",\n;\t]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

/// Comma-separated text of a table (what the text box shows for the current data).
export function toCsv(header: readonly string[], keys: ArrayLike<number>, values: ArrayLike<number>, d: number): string {
  const lines = [header.map(quote).join(',')];
  for (let r = 0; r < values.length; r++) {
    const row = Array.from({ length: d }, (_, c) => String(keys[r * d + c]));
    lines.push([...row, String(values[r])].join(','));
  }
  return lines.join('\n');
}

function cellText(current: CsvTable, r: number, c: number): string {
  return String(c < current.d ? current.keys[r * current.d + c] : current.values[r]);
}

export interface EditableTable {
  readonly element: HTMLDivElement;
  /// Shows `current`: editable cells up to MAX_EDITABLE_ROWS rows, else its first rows as text.
  render(current: CsvTable): void;
  /// Puts the accepted table's numbers back into the editable cells (focus stays where it is).
  restore(current: CsvTable): void;
  /// The editable cells as CSV text under `header`, cells exactly as typed.
  text(header: readonly string[]): string;
}

/// `onEdit` is called when a cell's value is committed (change event).
export function editableTable(onEdit: () => void): EditableTable {
  const view = dataTable('Your data (edit a cell and press Enter)', []);
  const { table } = view;
  const rows = (): HTMLTableRowElement[] => Array.from(table.tBodies[0]?.rows ?? []);

  function render(current: CsvTable): void {
    // The cells are rebuilt: the cell that had the focus (the one just edited) has it again.
    const active = (table.getRootNode() as Document | ShadowRoot).activeElement;
    const focusedRow = active instanceof HTMLInputElement ? rows().findIndex((row) => row.contains(active)) : -1;
    const focusedCell = focusedRow >= 0 ? Array.from(rows()[focusedRow]?.cells ?? []).findIndex((cell) => cell.contains(active)) : -1;
    const head = table.tHead?.rows[0];
    head?.replaceChildren(
      ...['row', ...current.header].map((name) => {
        const th = document.createElement('th');
        th.scope = 'col';
        setText(th, name);
        return th;
      }),
    );
    const shown = Math.min(current.n, MAX_EDITABLE_ROWS);
    const cells: string[][] = [];
    for (let r = 0; r < shown; r++) cells.push([String(r + 1), ...Array.from({ length: current.d + 1 }, (_, c) => cellText(current, r, c))]);
    const body = table.tBodies[0];
    while (body && body.rows.length > shown) body.deleteRow(-1);
    view.setRows(cells);
    const editable = current.n <= MAX_EDITABLE_ROWS;
    rows().forEach((row, r) => {
      while (row.cells.length > current.d + 2) row.deleteCell(-1);
      Array.from(row.cells).forEach((cell, c) => {
        if (c === 0 || !editable) return;
        const input = document.createElement('input');
        input.className = 'kl-input';
        input.value = cell.textContent ?? '';
        input.setAttribute('aria-label', `row ${r + 1}, ${current.header[c - 1] ?? `column ${c}`}`);
        input.addEventListener('change', onEdit);
        cell.replaceChildren(input);
      });
    });
    if (focusedCell > 0) (rows()[focusedRow]?.cells[focusedCell]?.querySelector('input') ?? table.querySelector('input'))?.focus();
    table.caption!.textContent = editable
      ? 'Your data (edit a cell and press Enter)'
      : `Your data: the first ${shown} of ${current.n.toLocaleString('en-US')} rows (edit larger tables as text)`;
  }

  function restore(current: CsvTable): void {
    rows().forEach((row, r) => {
      Array.from(row.querySelectorAll('input')).forEach((input, c) => {
        if (r < current.n && c <= current.d) input.value = cellText(current, r, c);
      });
    });
  }

  function text(header: readonly string[]): string {
    const lines = [header.map(quote).join(',')];
    for (const row of rows()) lines.push(Array.from(row.querySelectorAll('input'), (input) => quote(input.value)).join(','));
    return lines.join('\n');
  }

  return { element: view.element, render, restore, text };
}
