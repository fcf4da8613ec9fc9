/// The core worker of the standalone file: the one-file module (wasm inlined as base64), so
/// nothing is fetched and the page works from file://.
import createKernelLens from 'kernel-lens-wasm/kernel_lens_single.mjs';
import { serveCore } from './worker-core';

serveCore(createKernelLens());
