// createKernelLens(options): the two Kernel Lens modules, kernel_lens_core (the figures'
// functions, the generator, the CSV reader) and kernel_lens_lab (the bias/variance laboratory
// and the exercises), instantiated together and merged into one object with the whole API.
import createKernelLensCore from './kernel_lens_core.mjs';
import createKernelLensLab from './kernel_lens_lab.mjs';

const isFunctionName = (name) => /^[a-z][A-Za-z0-9]*$/.test(name);
const isClassName = (name) => /^[A-Z][A-Za-z0-9]*$/.test(name);

/// The functions a module exports, sorted: lower-camel-case names whose value is a function
/// marked with its parameter names (`kernelLensParameters`, set by wasm/boundary.js).
export function embindFunctionNames(module) {
  return Object.keys(module)
    .filter((name) => isFunctionName(name) && typeof module[name] === 'function')
    .filter((name) => Array.isArray(module[name].kernelLensParameters))
    .sort();
}

/// The embind classes a module exports, sorted: constructors whose instances are embind handles.
export function embindClassNames(module) {
  return Object.keys(module)
    .filter((name) => isClassName(name) && typeof module[name]?.prototype?.isDeleted === 'function')
    .sort();
}

/// Options of one factory: its own `wasmBinary` (when given) and the shared `locateFile`.
function factoryOptions(wasmBinary, locateFile) {
  return {
    ...(wasmBinary !== undefined && { wasmBinary }),
    ...(locateFile !== undefined && { locateFile }),
  };
}

/// The engine's reason inside Emscripten's "Aborted(<reason>). Build with -s ASSERTIONS=1 for more
/// info." (the rest speaks to whoever builds the module, not to its caller).
function abortReason(error) {
  const text = String(error?.message ?? error);
  const inside = /^Aborted\(([\s\S]*)\)(?:\. Build with -s ASSERTIONS=1 for more info\.)?$/.exec(text);
  return inside ? inside[1] : text;
}

/// The factory's module, or an Error naming the file that could not be compiled or instantiated
/// ("kernel_lens_lab.wasm could not be compiled: CompileError: WebAssembly.instantiate(): expected
/// magic word ..."), with the factory's error as its cause.
async function instantiate(factory, file, options) {
  try {
    return await factory(options);
  } catch (error) {
    const reason = abortReason(error);
    const step = /^(CompileError|LinkError)\b/.test(reason) ? (reason.startsWith('Link') ? 'instantiated' : 'compiled') : 'started';
    const Type = reason.startsWith('CompileError') ? WebAssembly.CompileError : reason.startsWith('LinkError') ? WebAssembly.LinkError : Error;
    throw new Type(`${file} could not be ${step}: ${reason}`, { cause: error });
  }
}

/// Both modules, merged: every embind function and class of each (closures over their own
/// instance, so they can be called detached), plus `modules: { core, lab }`.
export default async function createKernelLens({ wasmBinaries = {}, locateFile } = {}) {
  const [core, lab] = await Promise.all([
    instantiate(createKernelLensCore, 'kernel_lens_core.wasm', factoryOptions(wasmBinaries.core, locateFile)),
    instantiate(createKernelLensLab, 'kernel_lens_lab.wasm', factoryOptions(wasmBinaries.lab, locateFile)),
  ]);
  const merged = { modules: { core, lab } };
  for (const module of [core, lab]) {
    for (const name of [...embindFunctionNames(module), ...embindClassNames(module)]) merged[name] = module[name];
  }
  return merged;
}
