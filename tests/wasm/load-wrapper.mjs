// The wrapper's discovery helpers (embindFunctionNames, embindClassNames) from the wasm folder.
import { importWasm } from './load.mjs';

export const { embindFunctionNames, embindClassNames } = await importWasm('kernel_lens.mjs');
