// The chapter's text (the book's plain-text edition) read into its parts: the title, the section
// headings, and each "Code:" or "Figure:" listing with its lines, its section and the printed
// output that follows it in the book. scripts/extract-listings.mjs writes web/src/listings/
// chapter.py from it; the listings' tests hold the page against it.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/// The chapter's text as the book's edition ships it, beside the repository (or beside the folder
/// holding it); $KERNEL_LENS_CHAPTER overrides.
export const SPEC_PATHS = ['../../shared/spec/000_0d1fb23487dad7d4.txt', '../../../shared/spec/000_0d1fb23487dad7d4.txt'].map((path) =>
  fileURLToPath(new URL(path, import.meta.url)),
);
/// The copy kept in the repository, so a clone anywhere checks the page against the same text;
/// tests/unit/chapter-copy.test.mjs holds it equal to the edition's file wherever that is present.
export const CHAPTER_COPY = fileURLToPath(new URL('../tests/fixtures/chapter-12.txt', import.meta.url));

/// The chapter's text: $KERNEL_LENS_CHAPTER, else the edition's file beside the repository, else the copy.
export const CHAPTER_PATH = process.env.KERNEL_LENS_CHAPTER || (SPEC_PATHS.find((path) => existsSync(path)) ?? CHAPTER_COPY);

/// A block's first line starts a Python statement: a keyword, a comment, a decorator, a docstring,
/// an assignment (`a, b = …`, `x[…].y = …`) or a call written without a space before its paren.
/// Printed output (`weights: […]`, ` h     2h^2`, `Q (31, 1), …`) and prose do not.
const STATEMENT =
  /^\s*(#|@|"""|(from|import|def|class|for|if|elif|else|with|while|try|except|finally|return|raise|print)\b|[A-Za-z_][\w]*(\[[^\]]*\]|\.[A-Za-z_]\w*)*(\s*,\s*[A-Za-z_]\w*)*\s*(=|\+=|-=|\*=)(?!=)|[A-Za-z_][\w.]*(\[[^\]]*\])*(\.[A-Za-z_]\w*)*\()/;

/// Blank-line separated blocks of `text`, each as its lines.
function blocks(text) {
  const out = [];
  let current = [];
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (current.length) out.push(current);
      current = [];
    } else current.push(line.replace(/\s+$/, ''));
  }
  if (current.length) out.push(current);
  return out;
}

/// { title, sections: [heading], listings: [{ kind, title, section, lines, output }] }: `lines` the
/// listing's code (blank lines inside it kept), `output` the printed lines after it (after its
/// caption for a figure), [] when it prints nothing.
export function parseChapter(text) {
  const parts = blocks(text);
  const title = parts[0]?.[0] ?? '';
  const sections = [];
  const listings = [];
  let section = '';
  for (let i = 1; i < parts.length; i++) {
    const first = parts[i][0];
    if (parts[i].length === 1 && /^12\.\d+ \S/.test(first)) {
      section = first;
      sections.push(first);
      continue;
    }
    const header = /^(Code|Figure): (.+)$/.exec(first);
    if (!header || parts[i].length !== 1) continue;
    const code = [];
    let j = i + 1;
    for (; j < parts.length && STATEMENT.test(parts[j][0]); j++) {
      if (code.length) code.push('');
      code.push(...parts[j]);
    }
    let output = [];
    if (code.some((line) => /\bprint\(/.test(line))) {
      let k = j;
      if (parts[k] && /^Figure \d+\.\d+: /.test(parts[k][0])) k++;
      output = parts[k] ?? [];
    }
    listings.push({ kind: header[1], title: header[2], section, lines: code, output });
    i = j - 1;
  }
  return { title, sections, listings };
}

export function readChapter(path = CHAPTER_PATH) {
  return parseChapter(readFileSync(path, 'utf8'));
}
