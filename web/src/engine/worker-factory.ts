/// The site's engine files: the core worker's script and the two .wasm files, as URLs beside this
/// script. The worker is a chunk of the site's build (web/vite.config.ts), so it imports the same
/// factory scripts the page's own core instance loads. (The standalone build swaps in
/// worker-factory-inline.ts.)
/// A page on another origin (the <kernel-lens-figure> element loaded from this site) may not start
/// a worker from this site's URL directly, so it starts a tiny blob worker that imports the real
/// one (the site must then send CORS headers, as web/public/_headers does). The blob worker is a
/// classic one that imports the real script dynamically: a page whose origin is opaque (opened
/// from a file, as deck exporters open theirs; a sandboxed frame) cannot start a module worker
/// at all in Chromium, a classic one it can.
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
  if (url.origin === location.origin) return new Worker(url, { type: 'module', name: 'kernel-lens-core' });
  const shim = new Blob([importingShim(url.href)], { type: 'text/javascript' });
  return new Worker(URL.createObjectURL(shim), { name: 'kernel-lens-core' });
}

/// The classic worker script that imports the module `href`. The page's messages that arrive
/// before the module has added its listener are held and handed to it once it has; a failed
/// import is thrown from the worker's global scope, where the page's Worker sees it as an error.
function importingShim(href: string): string {
  return `const held = [];
const hold = (event) => { event.stopImmediatePropagation(); held.push(event.data); };
self.addEventListener('message', hold);
import(${JSON.stringify(href)}).then(() => {
  self.removeEventListener('message', hold);
  for (const data of held) self.dispatchEvent(new MessageEvent('message', { data }));
}, (error) => setTimeout(() => { throw error; }));
`;
}
