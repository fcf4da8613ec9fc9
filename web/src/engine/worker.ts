/// The body of the Web Worker that runs the heavy calls (engine/cost.ts decides which). The page
/// compiles each part of the core once and sends the compiled WebAssembly.Module before the first
/// request that needs it (`{ id: -1, part, module }`); the worker instantiates it on that first
/// request. It answers `{ id, calls }` with `{ id, results, elapsed }` (result buffers transferred)
/// or `{ id, error: { name, message } }`. Its first message says it started, and names the Web
/// Lock it holds while it lives (see protocol.ts).
import createCore from 'kernel-lens-wasm/kernel_lens_core.mjs';
import { errorPayload, exportedFunctions, instantiate, partsFor, runCalls, transferables, type CoreFunction, type Factory, type ModulePart } from './calls';
import type { CallResponse, ClosingMessage, PageMessage, StartedMessage } from './protocol';

interface WorkerScope {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<PageMessage>) => void): void;
  close(): void;
}
const scope = self as unknown as WorkerScope;

/// A worker that closes itself says so first: the page cannot see a closed worker otherwise where
/// it has no Web Locks (see announce below). The message is posted before the worker stops.
const closeWorker = scope.close.bind(scope);
scope.close = () => {
  const closing: ClosingMessage = { id: 0, closing: true };
  scope.postMessage(closing);
  closeWorker();
};

/// Every figure calls the core; the laboratory's factory script is fetched by its first call.
const FACTORIES: Record<ModulePart, () => Promise<Factory>> = {
  core: () => Promise.resolve(createCore),
  lab: () =>
    import('kernel-lens-wasm/kernel_lens_lab.mjs').then(
      (script) => script.default,
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`the script of the laboratory module could not be loaded in the worker (${reason}); change any input to try again`);
      },
    ),
};
const compiled = new Map<ModulePart, WebAssembly.Module>();
const instances = new Map<ModulePart, Promise<Map<string, CoreFunction>>>();
const loaded = new Map<ModulePart, Map<string, CoreFunction>>();

/// The site's .wasm files, for a page that sends no compiled module (a script speaking to the
/// worker directly, as the leak test does): the worker then fetches and compiles the part itself.
/// The standalone file always sends its modules, so it carries no second copy of them here.
async function fetchedPart(part: ModulePart): Promise<Map<string, CoreFunction>> {
  if (import.meta.env.MODE !== 'standalone') {
    const { WASM_URLS } = await import('./wasm-urls');
    const factory = await FACTORIES[part]();
    const functions = exportedFunctions(await factory({ locateFile: () => WASM_URLS[part] }));
    loaded.set(part, functions);
    return functions;
  }
  throw new Error(`the page sent no compiled ${part} module`);
}

function load(part: ModulePart): Promise<Map<string, CoreFunction>> {
  let pending = instances.get(part);
  if (!pending) {
    const module = compiled.get(part);
    if (!module) pending = fetchedPart(part);
    else pending = FACTORIES[part]().then((factory) => instantiate(factory, module)).then((functions) => {
      loaded.set(part, functions);
      return functions;
    });
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
  const start = performance.now();
  Promise.resolve()
    .then(() => Promise.all(partsFor(calls).map(load)))
    .then(() => {
      const results = runCalls(calls, (part) => loaded.get(part) ?? new Map());
      const response: CallResponse = { id, results, elapsed: performance.now() - start };
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
