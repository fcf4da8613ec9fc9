/// The site's engine files: the core worker's script and the two .wasm files, as URLs beside this
/// script. The worker is a chunk of the site's build (web/vite.config.ts), so it imports the same
/// factory scripts the page's own core instance loads. (The standalone build swaps in
/// worker-factory-inline.ts.)
/// A page on another origin (the <kernel-lens-figure> element loaded from this site) may not start
/// a worker from this site's URL directly, so it starts a tiny blob worker that imports the real
/// one (the site must then send CORS headers, as web/public/_headers does).
import coreWasm from 'kernel-lens-wasm/kernel_lens_core.wasm?url';
import labWasm from 'kernel-lens-wasm/kernel_lens_lab.wasm?url';
import workerUrl from 'virtual:kernel-lens-worker-url';
import type { ModulePart } from './calls';

const resolved = (path: string): string => new URL(path, import.meta.url).href;

/// Where each part's .wasm file is.
export const WASM_FILES: Record<ModulePart, string> = { core: resolved(coreWasm), lab: resolved(labWasm) };

/// The worker's script, for messages about it.
export const WORKER_SCRIPT = resolved(workerUrl);

export function createCoreWorker(): Worker {
  const url = new URL(WORKER_SCRIPT);
  const options: WorkerOptions = { type: 'module', name: 'kernel-lens-core' };
  if (url.origin === location.origin) return new Worker(url, options);
  const shim = new Blob([`import ${JSON.stringify(url.href)};`], { type: 'text/javascript' });
  return new Worker(URL.createObjectURL(shim), options);
}
