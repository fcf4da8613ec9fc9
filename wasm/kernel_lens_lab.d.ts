/// Types of build/wasm/kernel_lens_lab.mjs (see kernel_lens.d.ts).
import type { KernelLensLabFactory } from './kernel_lens';

export type { KernelLensLabModule, KernelLensModuleOptions } from './kernel_lens';

declare const createKernelLensLab: KernelLensLabFactory;
export default createKernelLensLab;
