// The hand-written types (wasm/kernel_lens.d.ts) against the bindings as built: every function and
// class each module exports is declared in that module's interface and nothing else is, each
// function with the parameters its binding registered (the names, and which are optional, as
// wasm/boundary.js reads them: a trailing "?"), and each declared method of a class exists.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import ts from 'typescript';
import { importWasm, readWasm } from './load.mjs';

const DTS = new URL('../../wasm/kernel_lens.d.ts', import.meta.url);
const source = ts.createSourceFile('kernel_lens.d.ts', readFileSync(DTS, 'utf8'), ts.ScriptTarget.Latest, true);

/// The members of a declared interface or class: methods as their parameter lists ("name" or
/// "name?"), properties as null.
function declared(name) {
  const node = source.statements.find((statement) => (ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name?.text === name);
  assert.ok(node, `kernel_lens.d.ts declares ${name}`);
  const members = new Map();
  for (const member of node.members) {
    if (!member.name || !ts.isIdentifier(member.name)) continue;
    const parameters = ts.isMethodSignature(member) || ts.isMethodDeclaration(member)
      ? member.parameters.map((parameter) => `${parameter.name.getText(source)}${parameter.questionToken ? '?' : ''}`)
      : null;
    members.set(member.name.text, parameters);
  }
  return members;
}

const { embindClassNames, embindFunctionNames } = await importWasm('kernel_lens.mjs');

for (const [part, name] of [['core', 'KernelLensCoreModule'], ['lab', 'KernelLensLabModule']]) {
  test(`${name} declares exactly what kernel_lens_${part}.wasm exports, with its bindings' parameters`, async () => {
    const { default: factory } = await importWasm(`kernel_lens_${part}.mjs`);
    const module = await factory({ wasmBinary: readWasm(part) });
    const members = declared(name);
    const exported = [...embindFunctionNames(module), ...embindClassNames(module)].sort();
    assert.deepEqual([...members.keys()].sort(), exported, `${name} (left) against the module's exports (right)`);
    for (const fn of embindFunctionNames(module)) {
      assert.deepEqual(members.get(fn), module[fn].kernelLensParameters, `the parameters of ${fn}`);
    }
    for (const className of embindClassNames(module)) {
      assert.equal(members.get(className), null, `${className} is declared as a class (typeof ${className})`);
      const methods = declared(className);
      for (const [method, parameters] of methods) {
        if (method === 'constructor' || parameters === null) continue;
        assert.equal(typeof module[className].prototype[method], 'function', `${className}.${method}`);
      }
    }
  });
}
