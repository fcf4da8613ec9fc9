/// The standalone file's engine files: the worker bundled into the page as a blob worker and the
/// .wasm files inlined as data URLs, so nothing is fetched and the page works from file:// and
/// from any upload folder. The page compiles each part once and hands the worker the compiled
/// module, as on the site.
import coreWasm from 'kernel-lens-wasm/kernel_lens_core.wasm?url&inline';
import labWasm from 'kernel-lens-wasm/kernel_lens_lab.wasm?url&inline';
import CoreWorker from './worker.ts?worker&inline';
import type { ModulePart } from './calls';

export const WASM_FILES: Record<ModulePart, string> = { core: coreWasm, lab: labWasm };

export const WORKER_SCRIPT = 'the worker inlined in this file';

export function createCoreWorker(): Worker {
  return new CoreWorker({ name: 'kernel-lens-core' });
}
