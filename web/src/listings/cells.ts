/// The chapter's code as cells: web/src/listings/chapter.py (written by
/// scripts/extract-listings.mjs from the chapter's text) is a percent-format script, `# %%` starting
/// each cell. The page shows its code cells where the chapter puts them; the build writes the
/// notebook from the same cells (web/vite.config.ts). Pure: no DOM, no Node.

export interface MarkdownCell {
  type: 'markdown';
  /// The cell's Markdown, its lines without the leading "# ".
  source: string;
}

export interface CodeCell {
  type: 'code';
  /// The name the page's slot uses: `<div data-kl-listing="attention">`.
  id: string;
  /// "Code" or "Figure", as the chapter heads the listing.
  kind: string;
  title: string;
  /// The listing's lines, verbatim.
  source: string;
}

export type Cell = MarkdownCell | CodeCell;

const CELL = /^# %%(.*)$/;
const CODE_HEADER = /^\s*(Code|Figure): (.*?)\s+id="([\w-]+)"\s*$/;

/// The cells of a percent-format script (what precedes the first `# %%` is the file's own comment).
export function parseCells(script: string): Cell[] {
  const cells: Cell[] = [];
  let header: string | null = null;
  let lines: string[] = [];
  const flush = (): void => {
    if (header === null) return;
    while (lines.length && lines[lines.length - 1]?.trim() === '') lines.pop();
    if (/^\s*\[markdown\]\s*$/.test(header)) {
      cells.push({ type: 'markdown', source: lines.map((line) => line.replace(/^# ?/, '')).join('\n') });
      return;
    }
    const code = CODE_HEADER.exec(header);
    if (!code) throw new Error(`chapter.py: a cell header without kind, title and id: "# %%${header}"`);
    cells.push({ type: 'code', kind: code[1] ?? '', title: code[2] ?? '', id: code[3] ?? '', source: lines.join('\n') });
  };
  for (const line of script.replace(/\r\n/g, '\n').split('\n')) {
    const start = CELL.exec(line);
    if (start) {
      flush();
      header = start[1] ?? '';
      lines = [];
    } else if (header !== null) lines.push(line);
  }
  flush();
  return cells;
}

/// A Jupyter notebook (nbformat 4) of the cells: Markdown cells for the title and sections, a
/// Markdown line naming each listing as the chapter heads it, then the listing as a code cell.
export function notebook(cells: readonly Cell[]): object {
  const source = (text: string): string[] => text.split('\n').map((line, i, all) => (i < all.length - 1 ? `${line}\n` : line));
  const out: object[] = [];
  for (const cell of cells) {
    if (cell.type === 'markdown') {
      out.push({ cell_type: 'markdown', metadata: {}, source: source(cell.source) });
      continue;
    }
    out.push({ cell_type: 'markdown', metadata: {}, source: source(`**${cell.kind}:** ${cell.title}`) });
    out.push({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: source(cell.source) });
  }
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' },
      language_info: { name: 'python', pygments_lexer: 'ipython3' },
    },
    cells: out.map((cell, i) => ({ id: `cell-${i + 1}`, ...cell })),
  };
}
