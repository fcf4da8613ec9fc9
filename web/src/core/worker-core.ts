/// The body of the Web Worker that owns the wasm modules. It answers `{ id, calls: [{ fn, args,
/// keep? }] }` with `{ id, results }` (result buffers transferred; a call with `keep` answers only
/// those fields of its result) or `{ id, error: { name, message } }`.
/// The core is two modules (kernel_lens_modules.json says which function lives where): the core
/// module loads at start, the laboratory module only when a call first needs it, so a figure
/// that never runs the laboratory never downloads it. Calls are forwarded by name to the modules'
/// embind functions, so new widgets need no edit here.
import manifest from 'kernel-lens-wasm/kernel_lens_modules.json';
import { post } from './mailbox';
import type { CallResponse, EarlierResult, ErrorPayload, PageMessage, ReadyMessage } from './protocol';

interface WorkerScope {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<PageMessage>) => void): void;
}
const scope = self as unknown as WorkerScope;

type CoreFunction = (...args: unknown[]) => unknown;

/// The two parts of the core and how each is instantiated (worker.ts: from its .wasm file beside
/// the page; worker-single.ts: the one-file modules with the wasm inlined).
export type ModulePart = keyof typeof manifest;
export type ModuleLoaders = Record<ModulePart, () => Promise<object>>;

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
function transferables(value: unknown, found: Set<ArrayBuffer> = new Set()): Set<ArrayBuffer> {
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

function errorPayload(error: unknown): ErrorPayload {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/// Which part exports each function.
const partOf = new Map<string, ModulePart>(
  (Object.keys(manifest) as ModulePart[]).flatMap((part) => manifest[part].map((name) => [name, part] as const)),
);

/// Serves calls: the core module loads now, the laboratory on its first call. A part that failed
/// to load is tried again by the next call that needs it.
export function serveCore(loaders: ModuleLoaders): void {
  const loading = new Map<ModulePart, Promise<Map<string, CoreFunction>>>();
  const load = (part: ModulePart): Promise<Map<string, CoreFunction>> => {
    let pending = loading.get(part);
    if (!pending) {
      pending = loaders[part]().then(exportedFunctions);
      loading.set(part, pending);
      pending.catch(() => loading.delete(part));
    }
    return pending;
  };

  load('core').then(
    () => {
      const ready: ReadyMessage = { id: 0, ready: true, functions: [...partOf.keys()].sort() };
      scope.postMessage(ready);
    },
    (error: unknown) => {
      const ready: ReadyMessage = { id: 0, ready: true, functions: [], error: errorPayload(error) };
      scope.postMessage(ready);
    },
  );

  /// The function `fn`, loading its part first if need be.
  const resolve = async (fn: string): Promise<CoreFunction> => {
    const part = partOf.get(fn);
    if (!part) throw new TypeError(`the core has no function named "${fn}"`);
    const functions = await load(part).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`the ${part === 'lab' ? 'laboratory' : 'core'} module could not be loaded (${reason})`);
    });
    const target = functions.get(fn);
    if (!target) throw new TypeError(`the core has no function named "${fn}"`);
    return target;
  };

  /// Shared with the page when it is cross-origin isolated (see mailbox.ts).
  let mailbox: SharedArrayBuffer | null = null;

  scope.addEventListener('message', (event) => {
    const request = event.data;
    if (!('calls' in request)) {
      mailbox = request.mailbox;
      return;
    }
    const { id, calls, wait } = request;
    const start = performance.now();
    Promise.all(calls.map(({ fn }) => resolve(fn)))
      .then((targets) => {
        const full: unknown[] = [];
        calls.forEach(({ args }, i) => {
          full.push((targets[i] as CoreFunction)(...(args as unknown[]).map((arg) => earlier(arg, full))));
        });
        const results = full.map((result, i) => kept(result, calls[i]?.keep, calls[i]?.fn ?? ''));
        const elapsed = performance.now() - start;
        // The page may be waiting for these results in the mailbox; the message tells it they are
        // there if it stopped waiting.
        if (wait && mailbox && post(mailbox, id, { results, elapsed })) {
          const response: CallResponse = { id, inMailbox: true, elapsed };
          scope.postMessage(response);
          return;
        }
        const response: CallResponse = { id, results, elapsed };
        scope.postMessage(response, [...transferables(results)]);
      })
      .catch((error: unknown) => {
        const response: CallResponse = { id, error: errorPayload(error) };
        scope.postMessage(response);
      });
  });
}
