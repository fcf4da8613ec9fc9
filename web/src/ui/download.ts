/// Downloads: a file through a temporary link, and the numbers behind a figure as CSV.

/// One CSV cell: numbers keep the core's full precision (shortest round-trip form), text is quoted
/// when it holds a comma, quote or line break.
export type CsvCell = string | number | boolean | null;
export type CsvRows = readonly (readonly CsvCell[])[];

function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/// RFC 4180 text: rows joined by CRLF, ending with one.
export function toCsv(rows: CsvRows): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/// Saves `blob` as `fileName` through a temporary link.
export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadCsv(rows: CsvRows, fileName: string): void {
  download(new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' }), fileName);
}
