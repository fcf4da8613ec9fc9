/// The core worker of the site: the wasm module loaded from its own .wasm file.
import createKernelLens from 'kernel-lens-wasm/kernel_lens.mjs';
import wasmUrl from 'kernel-lens-wasm/kernel_lens.wasm?url';
import { serveCore } from './worker-core';

serveCore(createKernelLens({ locateFile: (path: string) => (path.endsWith('.wasm') ? wasmUrl : path) }));
