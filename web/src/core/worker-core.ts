/// The body of the Web Worker that owns the wasm module. It answers `{ id, calls: [{ fn, args }] }`
/// with `{ id, results }` (result buffers transferred) or `{ id, error: { name, message } }`.
/// Calls are forwarded by name to the module's embind functions, so new widgets need no edit here.
import type { KernelLensModule } from 'kernel-lens-wasm/kernel_lens.mjs';
import type { CallRequest, CallResponse, ErrorPayload, ReadyMessage } from './protocol';

interface WorkerScope {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<CallRequest>) => void): void;
}
const scope = self as unknown as WorkerScope;

type CoreFunction = (...args: unknown[]) => unknown;

/// Embind marks the functions it exports with `argCount` (or an `overloadTable` when
/// overloaded); runtime helpers and class constructors carry neither.
function exportedFunctions(module: KernelLensModule): Map<string, CoreFunction> {
  const table = new Map<string, CoreFunction>();
  const record = module as unknown as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (typeof value !== 'function' || !/^[a-z][A-Za-z0-9]*$/.test(name)) continue;
    const marked = value as { argCount?: unknown; overloadTable?: unknown };
    if (typeof marked.argCount === 'number' || marked.overloadTable !== undefined) {
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

function errorPayload(error: unknown): ErrorPayload {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/// Serves calls once `module` has loaded (worker.ts: the module beside its .wasm file;
/// worker-single.ts: the one-file module with the wasm inlined).
export function serveCore(module: Promise<KernelLensModule>): void {
  const loading = module.then((loaded) => ({ module: loaded, functions: exportedFunctions(loaded) }));
  loading.then(
    ({ functions }) => {
      const ready: ReadyMessage = { id: 0, ready: true, functions: [...functions.keys()].sort() };
      scope.postMessage(ready);
    },
    (error: unknown) => {
      const ready: ReadyMessage = { id: 0, ready: true, functions: [], error: errorPayload(error) };
      scope.postMessage(ready);
    },
  );

  scope.addEventListener('message', (event) => {
    const { id, calls } = event.data;
    loading
      .then(({ functions }) => {
        const results = calls.map(({ fn, args }) => {
          const target = functions.get(fn);
          if (!target) throw new TypeError(`the core has no function named "${fn}"`);
          return target(...(args as unknown[]));
        });
        const response: CallResponse = { id, results };
        scope.postMessage(response, [...transferables(results)]);
      })
      .catch((error: unknown) => {
        const response: CallResponse = { id, error: errorPayload(error) };
        scope.postMessage(response);
      });
  });
}
