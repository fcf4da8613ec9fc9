// Loads the Kernel Lens module for Node tests: build/wasm by default, or $KERNEL_LENS_WASM_DIR.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The folder holding kernel_lens.mjs (the wrapper) and both modules' .mjs and .wasm files. */
export const wasmDir = path.resolve(root, process.env.KERNEL_LENS_WASM_DIR ?? 'build/wasm');

/** Reads a fixture from tests/fixtures. */
export function readFixture(name) {
  return JSON.parse(fs.readFileSync(path.join(root, 'tests/fixtures', name), 'utf8'));
}

/** Imports a file of the wasm folder. */
export function importWasm(name) {
  return import(pathToFileURL(path.join(wasmDir, name)).href);
}

/** The bytes of kernel_lens_<module>.wasm. */
export function readWasm(module) {
  return fs.readFileSync(path.join(wasmDir, `kernel_lens_${module}.wasm`));
}

/** Fresh instances of both modules, merged by the wrapper into one object with the whole API. */
export async function loadKernelLens() {
  const { default: createKernelLens } = await importWasm('kernel_lens.mjs');
  return createKernelLens({ wasmBinaries: { core: readWasm('core'), lab: readWasm('lab') } });
}
