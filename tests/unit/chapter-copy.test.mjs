// The repository's copy of the chapter's text (tests/fixtures/chapter-12.txt), which the page's
// tests read when the edition's file is not beside the clone, is that file byte for byte.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CHAPTER_COPY, SPEC_PATHS } from '../../scripts/chapter-spec.mjs';

test('the copy of the chapter equals the edition\'s file wherever that is present', (t) => {
  const edition = SPEC_PATHS.find((path) => existsSync(path));
  if (!edition) {
    t.skip(`the edition's file is not beside this clone (looked in ${SPEC_PATHS.join(', ')})`);
    return;
  }
  assert.ok(readFileSync(CHAPTER_COPY).equals(readFileSync(edition)), `${CHAPTER_COPY} differs from ${edition}`);
});
