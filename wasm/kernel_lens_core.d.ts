/// Types of build/wasm/kernel_lens_core.mjs (see kernel_lens.d.ts).
import type { KernelLensCoreFactory } from './kernel_lens';

export type { KernelLensCoreModule, KernelLensModuleOptions } from './kernel_lens';

declare const createKernelLensCore: KernelLensCoreFactory;
export default createKernelLensCore;
