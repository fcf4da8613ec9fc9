// The fixtures' lists, refused when empty: a loop over an empty fixture checks nothing and passes.
import assert from 'node:assert/strict';

/// `list` itself once it is a non-empty array (`name` says which fixture field it is).
export function nonEmpty(list, name) {
  assert.ok(Array.isArray(list) && list.length > 0, `the fixture's ${name} is empty or missing`);
  return list;
}
