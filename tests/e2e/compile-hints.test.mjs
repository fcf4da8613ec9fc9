// V8's explicit compile hint (web/vite.config.ts): every chunk a figure runs as it starts has
// `//# allFunctionsCalledOnLoad` as its very first line, or V8 compiles its functions one by one
// on the main thread during the figure's first layout. The hint was once put in front of a chunk
// that Vite then prefixed with its `__vite__mapDeps` table (Chart.js' chunk, which has dynamic
// imports): it sat on line 2, where it does nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { distDir } from './harness.mjs';

const HINT = '//# allFunctionsCalledOnLoad\n';
const manifest = JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8'));

/// The manifest keys an entry or a widget's chunk imports statically, itself included.
function startingChunks() {
  const found = new Set();
  const visit = (key) => {
    if (found.has(key) || !manifest[key]) return;
    found.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry || /(^|\/)src\/widgets\/[^/]+\/index\.ts$/.test(key)) visit(key);
  }
  return [...found].filter((key) => manifest[key].file.endsWith('.js') && !/(^|\/)worker-[\w-]+\.js$/.test(manifest[key].file));
}

test('every chunk a figure starts with has the compile hint as its first line', () => {
  const chunks = startingChunks();
  assert.ok(chunks.length >= 10, `only ${chunks.length} chunks found`);
  const missing = chunks.filter((key) => !readFileSync(join(distDir, manifest[key].file), 'utf8').startsWith(HINT));
  assert.deepEqual(missing.map((key) => manifest[key].file), []);
  // The chunk with Vite's dependency table (the case that once hid the hint) has it first too.
  const withTable = chunks.filter((key) => readFileSync(join(distDir, manifest[key].file), 'utf8').slice(HINT.length).startsWith('const __vite__mapDeps'));
  assert.ok(withTable.length >= 1, 'no chunk with a __vite__mapDeps table among the starting chunks');
});

test('the worker and the lazily loaded parts carry no hint', () => {
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.file.endsWith('.js')) continue;
    const code = readFileSync(join(distDir, chunk.file), 'utf8');
    if (/(^|\/)worker-[\w-]+\.js$/.test(chunk.file) || /katex/.test(key)) assert.ok(!code.includes('allFunctionsCalledOnLoad'), `${chunk.file} carries the hint`);
  }
});
