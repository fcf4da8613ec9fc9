/// The your-data entry: the CSV text box, the upload, "Use this data" and reset, and under them the
/// message (a refusal), the warnings and the summary of the accepted table. An uploaded file is
/// checked for its size before it is read and decoded (decode-upload.ts) before the core sees it.
import type { CsvTable } from '../../engine';
import { button, controlRow } from '../../ui/controls';
import { liveReadout, setText } from '../../ui/readout';
import { decodeUpload } from './decode-upload';
import { element } from '../../ui/dom';

export interface EntryOptions {
  /// The text box's id (unique on the page).
  id: string;
  /// The core's limit on the text, in bytes (Infinity until it is known).
  maxBytes(): number;
  /// Text to check and use: typed ("Use this data", Ctrl+Enter) or uploaded (the text box keeps
  /// the reader's text unless the core accepts the file).
  use(csv: string, from: 'text' | 'upload'): void;
  reset(): void;
  /// A refusal before the core sees the data (a file too large, not UTF-8).
  refuse(reason: string): void;
}

export interface DataEntry {
  readonly element: HTMLDivElement;
  readonly text: HTMLTextAreaElement;
  /// Shows a refusal, or hides the message (null).
  showMessage(text: string | null): void;
  /// Names the accepted table: its rows, columns and warnings.
  describe(current: CsvTable): void;
  warn(text: string): void;
}

export function dataEntry(options: EntryOptions): DataEntry {
  const textLabel = element('label', 'kl-your-data__label', 'CSV: 1–8 key columns, then one value column (comma, tab or semicolon separated)');
  textLabel.htmlFor = options.id;
  const text = element('textarea', 'kl-your-data__text');
  text.id = options.id;
  text.rows = 6;
  text.spellcheck = false;
  text.dataset.testid = 'csv-text';
  const file = element('input', 'kl-your-data__file');
  file.type = 'file';
  file.accept = '.csv,.tsv,.txt,text/csv,text/plain,text/tab-separated-values';
  file.setAttribute('aria-label', 'Upload a CSV file');
  const useButton = button('Use this data', () => options.use(text.value, 'text'));
  const resetButton = button("Reset to the chapter's example", options.reset);
  const fileLabel = element('label', 'kl-your-data__upload', 'Upload ');
  fileLabel.append(file);

  const message = element('p', 'kl-your-data__message');
  message.setAttribute('role', 'alert');
  message.dataset.testid = 'data-message';
  message.hidden = true;
  const warnings = element('ul', 'kl-your-data__warnings');
  warnings.dataset.testid = 'data-warnings';
  const summary = liveReadout('kl-your-data__summary');
  summary.dataset.testid = 'data-summary';

  file.addEventListener('change', () => {
    const chosen = file.files?.[0];
    file.value = '';
    if (!chosen) return;
    const maxBytes = options.maxBytes();
    if (chosen.size > maxBytes) {
      options.refuse(
        `the file "${chosen.name}" is ${chosen.size.toLocaleString('en-US')} bytes; the limit is ${maxBytes.toLocaleString('en-US')} bytes (4 MiB), so it was not read`,
      );
      return;
    }
    chosen.arrayBuffer().then(
      (bytes) => {
        const decoded = decodeUpload(new Uint8Array(bytes));
        if ('refusal' in decoded) {
          options.refuse(`the file "${chosen.name}" ${decoded.refusal}`);
          return;
        }
        options.use(decoded.text, 'upload');
      },
      (error: unknown) => options.refuse(`the file "${chosen.name}" could not be read: ${String(error)}`),
    );
  });
  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) options.use(text.value, 'text');
  });

  const entry = element('div', 'kl-your-data__entry');
  entry.append(textLabel, text, controlRow(useButton, fileLabel, resetButton), message, warnings, summary);
  return {
    element: entry,
    text,
    showMessage(shown) {
      message.hidden = shown === null;
      setText(message, shown ?? '');
    },
    describe(current) {
      warnings.replaceChildren(...current.warnings.map((warning) => element('li', 'kl-your-data__warning', warning)));
      const keyNames = current.header.slice(0, current.d).join(', ');
      setText(
        summary,
        `${current.n.toLocaleString('en-US')} rows; ${current.d} key ${current.d === 1 ? 'column' : 'columns'} (${keyNames}); value column: ${current.header[current.d] ?? 'y'}.`,
      );
    },
    warn(warning) {
      warnings.append(element('li', 'kl-your-data__warning', warning));
    },
  };
}
