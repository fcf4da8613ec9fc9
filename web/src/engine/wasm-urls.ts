/// The site's .wasm files as URLs beside the worker's script (see worker.ts: used only when the
/// page sends no compiled module).
import coreWasm from 'kernel-lens-wasm/kernel_lens_core.wasm?url';
import labWasm from 'kernel-lens-wasm/kernel_lens_lab.wasm?url';
import type { ModulePart } from './calls';

export const WASM_URLS: Record<ModulePart, string> = {
  core: new URL(coreWasm, import.meta.url).href,
  lab: new URL(labWasm, import.meta.url).href,
};
