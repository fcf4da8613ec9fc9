/// Running a list of calls against a loaded core, the same way on the page and in the worker:
/// calls are forwarded by name to the modules' embind functions (so new widgets need no edit
/// here), an argument may be an earlier call's result (`resultOf`), and a call with `keep` answers
/// only those fields of its result.
/// The core is two modules (kernel_lens_modules.json says which function lives where): `core`
/// (what the figures call) and `lab` (the laboratory), each loaded when a call first needs it.
import manifest from 'kernel-lens-wasm/kernel_lens_modules.json';
import type { KernelLensModuleOptions } from 'kernel-lens-wasm/kernel_lens_core.mjs';
import type { CoreCall, EarlierResult, ErrorPayload } from './protocol';

export type CoreFunction = (...args: unknown[]) => unknown;
export type ModulePart = keyof typeof manifest;
const MODULE_PARTS = Object.keys(manifest) as ModulePart[];

/// Which part exports each function.
const partOf = new Map<string, ModulePart>(
  MODULE_PARTS.flatMap((part) => manifest[part].map((name) => [name, part] as const)),
);


/// The part that exports `fn`, or a TypeError naming it.
function partFor(fn: string): ModulePart {
  const part = partOf.get(fn);
  if (!part) throw new TypeError(`the core has no function named "${fn}"`);
  return part;
}

/// The parts a call list needs, in a fixed order.
export function partsFor(calls: readonly CoreCall[]): ModulePart[] {
  const needed = new Set(calls.map(({ fn }) => partFor(fn)));
  return MODULE_PARTS.filter((part) => needed.has(part));
}

/// The modules' boundary (wasm/boundary.js) marks each exported function with its parameter
/// names (`kernelLensParameters`); runtime helpers and class constructors carry none.
function exportedFunctions(module: object): Map<string, CoreFunction> {
  const table = new Map<string, CoreFunction>();
  const record = module as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (typeof value !== 'function' || !/^[a-z][A-Za-z0-9]*$/.test(name)) continue;
    if (Array.isArray((value as { kernelLensParameters?: unknown }).kernelLensParameters)) {
      table.set(name, value as CoreFunction);
    }
  }
  return table;
}

/// Every ArrayBuffer reachable from a result, each listed once.
export function transferables(value: unknown, found: Set<ArrayBuffer> = new Set()): Set<ArrayBuffer> {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) transferables(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) transferables(item, found);
  }
  return found;
}

/// An argument, or the earlier result it names (`resultOf(i)` on the page).
function earlier(arg: unknown, results: readonly unknown[]): unknown {
  // Checked before anything that walks the argument: most are typed arrays of many numbers.
  if (arg === null || typeof arg !== 'object' || ArrayBuffer.isView(arg) || !('$result' in arg)) return arg;
  const index = (arg as EarlierResult).$result;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= results.length) {
    throw new TypeError(`an argument refers to result ${String(index)}, which no earlier call of the request gives`);
  }
  return results[index];
}

/// The fields `keep` names of a call's result (all of it without `keep`).
function kept(result: unknown, keep: unknown, fn: string): unknown {
  if (keep === undefined) return result;
  if (!Array.isArray(keep) || keep.length === 0 || !keep.every((field) => typeof field === 'string')) {
    throw new TypeError(`keep for ${fn} must be a non-empty list of field names`);
  }
  if (result === null || typeof result !== 'object' || Array.isArray(result) || ArrayBuffer.isView(result)) {
    throw new TypeError(`${fn} answers no object, so no fields of it can be kept`);
  }
  const out: Record<string, unknown> = {};
  for (const field of keep as string[]) {
    if (!Object.prototype.hasOwnProperty.call(result, field)) {
      throw new TypeError(`${fn} answers no field "${field}" (it has ${Object.keys(result).join(', ')})`);
    }
    out[field] = (result as Record<string, unknown>)[field];
  }
  return out;
}

export function errorPayload(error: unknown): ErrorPayload {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/// Runs the calls in order with the loaded parts' functions and answers their results.
export function runCalls(calls: readonly CoreCall[], loaded: (part: ModulePart) => Map<string, CoreFunction>): unknown[] {
  const full: unknown[] = [];
  for (const { fn, args } of calls) {
    const target = loaded(partFor(fn)).get(fn);
    if (!target) throw new TypeError(`the core has no function named "${fn}"`);
    full.push(target(...(args as unknown[]).map((arg) => earlier(arg, full))));
  }
  return full.map((result, i) => kept(result, calls[i]?.keep, calls[i]?.fn ?? ''));
}

/// An Emscripten module factory (kernel_lens_core.mjs, kernel_lens_lab.mjs).
export type Factory = (options?: KernelLensModuleOptions) => Promise<object>;

/// Instantiates a compiled part through the factory's `instantiateWasm` option (Emscripten's
/// documented hook: the factory hands over its imports and we answer with the instance), and
/// answers the module's embind functions by name.
export function instantiate(factory: Factory, module: WebAssembly.Module): Promise<Map<string, CoreFunction>> {
  return new Promise((resolve, reject) => {
    factory({
      // Nothing is fetched; without it the factory resolves its .wasm file's URL against its own
      // script's, which fails in the standalone file's blob: worker.
      locateFile: (path) => path,
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(module, imports).then((instance) => receive(instance), reject);
        return {};
      },
    }).then((instance) => resolve(exportedFunctions(instance)), reject);
  });
}
