/// The body of the Web Worker that runs the heavy calls (engine/cost.ts decides which). The page
/// compiles each part of the core once and sends the compiled WebAssembly.Module before the first
/// request that needs it (`{ id: -1, part, module }`); the worker instantiates it on that first
/// request. It answers `{ id, calls }` with `{ id, results }` (result buffers transferred)
/// or `{ id, error: { name, message } }`. Its first message says it started, and names the Web
/// Lock it holds while it lives; `{ id: -1, loaded: part }` says a part is instantiated (see
/// protocol.ts).
import createCore from 'kernel-lens-wasm/kernel_lens_core.mjs';
import { errorPayload, instantiate, partsFor, runCalls, transferables, type CoreFunction, type Factory, type ModulePart } from './calls';
import type { CallResponse, LoadedMessage, PageMessage, StartedMessage } from './protocol';

/// The worker's global scope (web/tsconfig.worker.json compiles this file with lib webworker).
const scope = self as DedicatedWorkerGlobalScope;

/// Every figure calls the core; the laboratory's factory script is fetched by its first call.
const FACTORIES: Record<ModulePart, () => Promise<Factory>> = {
  core: () => Promise.resolve(createCore),
  // The bundler wraps this import in its preload helper, which reports a failed import on
  // `window` (a worker has none, so a network failure would surface as "window is not defined"):
  // the import settles as a value inside the helper, and the failure is raised after it.
  lab: async () => {
    const loaded = await import('kernel-lens-wasm/kernel_lens_lab.mjs').then(
      (script) => ({ factory: script.default, error: null }),
      (error: unknown) => ({ factory: null, error }),
    );
    if (loaded.factory) return loaded.factory;
    const reason = loaded.error instanceof Error ? loaded.error.message : String(loaded.error);
    throw new Error(`the script of the laboratory module could not be loaded in the worker (${reason}); change any input to try again.`);
  },
};
const compiled = new Map<ModulePart, WebAssembly.Module>();
const instances = new Map<ModulePart, Promise<Map<string, CoreFunction>>>();
const loaded = new Map<ModulePart, Map<string, CoreFunction>>();

/// The part's functions, instantiated from the module the page sent (once; a failure is retried).
function load(part: ModulePart): Promise<Map<string, CoreFunction>> {
  let pending = instances.get(part);
  if (!pending) {
    const module = compiled.get(part);
    pending = module
      ? FACTORIES[part]().then((factory) => instantiate(factory, module)).then((functions) => {
          loaded.set(part, functions);
          const message: LoadedMessage = { id: -1, loaded: part };
          scope.postMessage(message);
          return functions;
        })
      : Promise.reject(new Error(`the page sent no compiled ${part} module`));
    instances.set(part, pending);
    pending.catch(() => instances.delete(part));
  }
  return pending;
}

scope.addEventListener('message', (event) => {
  const request = event.data;
  if ('module' in request) {
    compiled.set(request.part, request.module);
    return;
  }
  const { id, calls } = request;
  Promise.resolve()
    .then(() => Promise.all(partsFor(calls).map(load)))
    .then(() => {
      const results = runCalls(calls, (part) => loaded.get(part) ?? new Map());
      const response: CallResponse = { id, results };
      scope.postMessage(response, [...transferables(results)]);
    })
    .catch((error: unknown) => {
      const response: CallResponse = { id, error: errorPayload(error) };
      scope.postMessage(response);
    });
});

/// Holds a Web Lock for as long as this worker lives, then says it started.
function announce(lock: string | null): void {
  const started: StartedMessage = { id: 0, started: true, lock };
  scope.postMessage(started);
}
const locks = (self.navigator as Navigator & { locks?: LockManager }).locks;
if (locks) {
  const name = `kernel-lens-core-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  void locks.request(name, () => {
    announce(name);
    return new Promise<never>(() => undefined);
  });
} else {
  announce(null);
}
