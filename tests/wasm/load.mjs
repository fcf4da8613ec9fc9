// Loads the Kernel Lens module for Node tests: build/wasm by default, or $KERNEL_LENS_WASM_DIR.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The folder holding kernel_lens.mjs and kernel_lens.wasm. */
export const wasmDir = path.resolve(root, process.env.KERNEL_LENS_WASM_DIR ?? 'build/wasm');

/** Reads a fixture from tests/fixtures. */
export function readFixture(name) {
  return JSON.parse(fs.readFileSync(path.join(root, 'tests/fixtures', name), 'utf8'));
}

/** A fresh module instance. */
export async function loadKernelLens() {
  const { default: createKernelLens } = await import(pathToFileURL(path.join(wasmDir, 'kernel_lens.mjs')).href);
  return createKernelLens({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'kernel_lens.wasm')) });
}
