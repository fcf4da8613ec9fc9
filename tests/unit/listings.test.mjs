// The one source of the chapter's code, web/src/listings/chapter.py, against the chapter's text
// (parsed by scripts/chapter-spec.mjs): every listing, its kind, title and lines, in the chapter's
// order (regenerate with `node scripts/extract-listings.mjs`); and the notebook written from it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { readChapter } from '../../scripts/chapter-spec.mjs';
import { moduleLoader } from '../../scripts/widget-parameters.mjs';

const script = readFileSync(new URL('../../web/src/listings/chapter.py', import.meta.url), 'utf8');
let server;
let cells;
before(async () => {
  server = await moduleLoader();
  cells = await server.ssrLoadModule('/src/listings/cells.ts');
});
after(async () => {
  await server?.close();
});

test("chapter.py holds the chapter's listings verbatim and in order", () => {
  const chapter = readChapter();
  const code = cells.parseCells(script).filter((cell) => cell.type === 'code');
  assert.deepEqual(
    code.map((cell) => ({ kind: cell.kind, title: cell.title, lines: cell.source.split('\n') })),
    chapter.listings.map(({ kind, title, lines }) => ({ kind, title, lines })),
  );
  assert.equal(new Set(code.map((cell) => cell.id)).size, code.length, 'each listing has its own id');
});

test('the notebook is nbformat 4 JSON: a heading cell per section, a code cell per listing', () => {
  const parsed = cells.parseCells(script);
  const notebook = JSON.parse(JSON.stringify(cells.notebook(parsed)));
  assert.equal(notebook.nbformat, 4);
  assert.ok(notebook.nbformat_minor >= 5, 'cell ids need nbformat 4.5');
  const code = notebook.cells.filter((cell) => cell.cell_type === 'code');
  assert.equal(code.length, readChapter().listings.length);
  for (const cell of code) {
    assert.deepEqual(cell.outputs, []);
    assert.equal(cell.execution_count, null);
    assert.ok(cell.source.slice(0, -1).every((line) => line.endsWith('\n')));
  }
  assert.match(notebook.cells[0].source.join(''), /^# 12 Kernel Regression/);
  assert.throws(() => cells.parseCells('# %% Code: no id\nx = 1\n'), /without kind, title and id/);
});
