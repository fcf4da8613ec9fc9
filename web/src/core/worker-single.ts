/// The core worker of the standalone file: the one-file modules (wasm inlined as base64), so
/// nothing is fetched and the page works from file://. Both are bundled (the standalone worker is
/// one script); the laboratory is still instantiated only when first needed.
import createCore from 'kernel-lens-wasm/kernel_lens_core_single.mjs';
import createLab from 'kernel-lens-wasm/kernel_lens_lab_single.mjs';
import { serveCore } from './worker-core';

serveCore({ core: () => createCore(), lab: () => createLab() });
