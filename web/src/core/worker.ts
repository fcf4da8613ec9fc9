/// The core worker of the site: the core module from its own .wasm file at start, the laboratory
/// module (a separate script and .wasm file) on the first call that needs it.
import createCore from 'kernel-lens-wasm/kernel_lens_core.mjs';
import coreWasm from 'kernel-lens-wasm/kernel_lens_core.wasm?url';
import labWasm from 'kernel-lens-wasm/kernel_lens_lab.wasm?url';
import { serveCore } from './worker-core';

const beside = (wasm: string) => (path: string): string => (path.endsWith('.wasm') ? wasm : path);

serveCore({
  core: () => createCore({ locateFile: beside(coreWasm) }),
  lab: async () => {
    const { default: createLab } = await import('kernel-lens-wasm/kernel_lens_lab.mjs');
    return createLab({ locateFile: beside(labWasm) });
  },
});
