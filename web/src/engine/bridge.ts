/// The one road to the core. `run(calls)` asks engine/cost.ts (by the core's own work formulas,
/// answered by the page's core instance, loaded first) where the calls belong: on the page
/// (a core instance of its own, answered synchronously, so the answer to a slider's input is drawn
/// in the frame that handled it) or in the worker (heavy work; the page stays responsive). What is
/// too large the core itself refuses, wherever it runs. Both places instantiate the same
/// WebAssembly.Module, compiled once (wasm.ts).
/// `channel(key)` hands out latest-wins requesters: one request in flight per channel and at most
/// one pending, which a newer request replaces, so the newest state always wins.
import { markTiming, noteDelivered } from '../base/timing';
import { partsFor, type ModulePart } from './calls';
import { COLD_SLOWDOWN, NO_WORKER_BUDGET_MS, PAGE_BUDGET_MS, place, relaxedSlowdown, slowdownAfter, TASK_BUDGET_MS, TINY_MS } from './cost';
import { LocalCore } from './local';
import type { CallResponse, CoreCall, CoreResults, ErrorPayload, ModuleRequest, WorkerMessage } from './protocol';
import { blockedByPolicy, watchPolicy } from './policy';
import { compiledPart, wasmFileName } from './wasm';
import { createCoreWorker, WORKER_SCRIPT } from './worker-factory';

/// The standalone file's worker has no file of its own (WORKER_SCRIPT then describes it).
const INLINED_WORKER = WORKER_SCRIPT.startsWith('the ');

/// An error raised by the core (or the worker), rebuilt with the core's name and message.
export class CoreError extends Error {
  constructor(payload: ErrorPayload) {
    super(payload.message);
    this.name = payload.name;
  }
}

/// Whether `error` is the core refusing its arguments (the bindings raise RangeError or TypeError
/// with the project's own message), as opposed to a part of the core that could not be loaded or
/// a worker that stopped: those are worth another try, a refusal is not.
export function isRefusal(error: unknown): boolean {
  return error instanceof Error && (error.name === 'RangeError' || error.name === 'TypeError');
}

interface Pending {
  resolve(results: unknown[]): void;
  reject(error: Error): void;
}

/// A request in the worker: its calls are kept so a restarted worker can run them again.
interface Outstanding extends Pending {
  calls: readonly CoreCall[];
  parts: readonly ModulePart[];
  /// cost.ts' estimate of the calls (ms; NaN when it has none).
  ms: number;
  retried: boolean;
}

/// How long a load may take before the figures say they are loading (ms).
const LOADING_NOTE_MS = 400;

/// Test hook: when a page defines `globalThis.kernelLensEngineLog` as an array before its scripts
/// run, every request is recorded there as `{ fns: 'attention …', where: 'page' | 'worker' }`
/// (tests/e2e/engine.test.mjs checks the placement through it).
function log(calls: readonly CoreCall[], where: string): void {
  const record = (globalThis as { kernelLensEngineLog?: unknown }).kernelLensEngineLog;
  if (Array.isArray(record)) record.push({ fns: calls.map((c) => c.fn).join(' '), where });
}

/// Latest-wins requester. A superseded request resolves to `null` instead of results. `depth`
/// requests may be in flight at once (1 by default): with 2, the worker has the next request as
/// soon as it finishes one, instead of idling while the answer reaches the page and the page
/// sends the next (a figure whose every answer takes the worker tens of milliseconds).
export class Channel {
  private inFlight = 0;
  /// Requests sent so far, and the newest of them answered: an older answer arriving later is dropped.
  private sent = 0;
  private answered = 0;
  private queued: { calls: readonly CoreCall[]; issuedAt: number; settle: Pending; drop(): void } | null =
    null;

  constructor(
    private readonly bridge: Bridge,
    private readonly depth = 1,
  ) {}

  request<const C extends readonly CoreCall[]>(calls: C): Promise<CoreResults<C> | null> {
    const issuedAt = performance.now();
    return new Promise<CoreResults<C> | null>((resolve, reject) => {
      const settle: Pending = {
        resolve: (results) => resolve(results as CoreResults<C>),
        reject,
      };
      const entry = { calls, issuedAt, settle, drop: () => resolve(null) };
      if (this.inFlight >= this.depth) {
        this.queued?.drop();
        this.queued = entry;
      } else {
        this.send(entry);
      }
    });
  }

  private send(entry: { calls: readonly CoreCall[]; issuedAt: number; settle: Pending; drop(): void }): void {
    this.inFlight += 1;
    const order = ++this.sent;
    const next = (): void => {
      this.inFlight -= 1;
      const queued = this.queued;
      this.queued = null;
      if (queued) this.send(queued);
    };
    this.bridge.run(entry.calls).then(
      (results) => {
        // With two in flight, a newer request answered first (on the page, say) supersedes this one.
        if (order < this.answered) entry.drop();
        else {
          this.answered = order;
          noteDelivered(entry.issuedAt);
          markTiming('kernel-lens:result', entry.issuedAt);
          entry.settle.resolve(results);
        }
        next();
      },
      (error: Error) => {
        // A refusal is an answer too: an older request's results arriving after it are dropped.
        if (order < this.answered) entry.drop();
        else {
          this.answered = order;
          entry.settle.reject(error);
        }
        next();
      },
    );
  }
}

export class Bridge {
  private readonly local = new LocalCore();
  private worker: Worker | null = null;
  /// The current worker ran its script (a failure before that is a script that did not load).
  private started = false;
  /// The last worker failed to start (and none has started since): requests light enough for the
  /// page run there instead (see NO_WORKER_BUDGET_MS).
  private workerFailed = false;
  /// The parts whose compiled module the current worker was sent.
  private readonly sent = new Set<ModulePart>();
  private readonly modules = new Map<ModulePart, WebAssembly.Module>();
  private nextId = 1;
  private readonly pending = new Map<number, Outstanding>();
  private readonly restartListeners = new Set<(reason: string) => void>();
  private readonly loadingListeners = new Set<(what: string | null) => void>();
  /// The loads that have taken a while, each named by what it loads (one entry per load).
  private readonly slowLoads: string[][] = [];
  private loadingShown: string | null = null;
  /// Settles the loading note of the worker being started (null once it started or was dropped).
  private workerUp: (() => void) | null = null;
  /// Settle the loading notes of the parts the worker is instantiating.
  private readonly partsUp = new Map<ModulePart, () => void>();

  private partUp(part: ModulePart): void {
    this.partsUp.get(part)?.();
    this.partsUp.delete(part);
  }
  private readonly channels = new Map<string, Channel>();
  /// How much slower than cost.ts' estimates the page's instance runs, as measured (see
  /// `slowdownAfter`): a freshly compiled instance runs baseline code, and a phone is slower
  /// than the laptop the estimates were measured on.
  /// Each module part has its own (an instance of the core says nothing of the laboratory's).
  private readonly slowdowns = new Map<ModulePart, number>();
  /// Milliseconds the page's instance computed in the current task.
  private spentThisTask = 0;
  private resetQueued = false;

  /// The latest-wins requester for `key` (one per widget computation), `depth` requests in flight.
  channel(key: string, depth = 1): Channel {
    let channel = this.channels.get(key);
    if (!channel) {
      channel = new Channel(this, depth);
      this.channels.set(key, channel);
    }
    return channel;
  }

  /// Runs the calls where cost.ts places them; every request is answered (no dropping at this
  /// level). A call on the page whose parts are loaded is answered by an already settled promise,
  /// so its answer is handled in the task (the input's) that asked.
  /// With `signal`, an abort rejects the request with an AbortError at once; a request running in
  /// the worker is stopped there (the worker is replaced, and the other requests it had are sent
  /// to the new one).
  run<const C extends readonly CoreCall[]>(calls: C, signal?: AbortSignal): Promise<CoreResults<C>> {
    if (signal?.aborted) return Promise.reject(aborted());
    let parts: ModulePart[];
    try {
      parts = partsFor(calls);
    } catch (error) {
      return Promise.reject(error);
    }
    // The core's work formulas place the calls: the page's core instance answers them.
    if (!this.local.has(['core'])) {
      return this.loading(['core'], this.local.load('core')).then(() => this.run(calls, signal));
    }
    const placement = place(calls, this.local.work);
    // A task that already spent its share of page time (a loop of small calls) sends the rest on;
    // tiny calls have a larger share.
    const share = placement.ms <= TINY_MS ? 4 * TASK_BUDGET_MS : TASK_BUDGET_MS;
    const slowdown = Math.max(...parts.map((part) => this.slowdowns.get(part) ?? COLD_SLOWDOWN));
    const slow = placement.ms > TINY_MS && placement.ms * slowdown > PAGE_BUDGET_MS;
    // A tiny call never starts a worker for the budget: the start costs far more than the call.
    const overBudget = this.spentThisTask > share && !(placement.ms <= TINY_MS && this.worker === null);
    const sent = placement.where === 'page' && (slow || overBudget) ? 'worker' : placement.where;
    const where = sent === 'worker' && this.workerFailed && withoutWorker(placement.ms) ? 'page' : sent;
    // A call sent on for the slowdown alone lowers it a little: calls that would fit the page
    // come back to it after a few (and are measured there), rather than never being timed again.
    if (placement.where === 'page' && slow) for (const part of parts) this.slowdowns.set(part, relaxedSlowdown(this.slowdowns.get(part) ?? COLD_SLOWDOWN));
    log(calls, where);
    if (where === 'page') return this.onPage(calls, parts, placement.ms);
    return new Promise<CoreResults<C>>((resolve, reject) => {
      let posted = false;
      // Before the request reaches the worker an abort only answers it; after, it stops the worker.
      const stop = (): void => (posted ? this.abort(entry) : entry.reject(aborted()));
      const entry: Outstanding = {
        calls,
        parts,
        ms: placement.ms,
        retried: false,
        resolve: (results) => {
          signal?.removeEventListener('abort', stop);
          resolve(results as CoreResults<C>);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', stop);
          reject(error);
        },
      };
      signal?.addEventListener('abort', stop, { once: true });
      this.loading(parts, Promise.all(parts.map((part) => this.compiled(part)))).then(() => {
        if (signal?.aborted) return;
        posted = true;
        this.post(entry);
      }, entry.reject);
    });
  }

  /// Calls `listener(reason)` whenever the core stopped and was replaced; returns the unsubscriber.
  onRestart(listener: (reason: string) => void): () => void {
    this.restartListeners.add(listener);
    return () => this.restartListeners.delete(listener);
  }

  /// Calls `listener(what)` when loading the core takes a while (`what` names the files, e.g.
  /// "the core (kernel_lens_core.wasm)") and `listener(null)` when it is done or failed; a
  /// listener added during a slow load hears of it at once. Returns the unsubscriber.
  onLoading(listener: (what: string | null) => void): () => void {
    this.loadingListeners.add(listener);
    if (this.loadingShown) listener(this.loadingShown);
    return () => this.loadingListeners.delete(listener);
  }

  /// Stops `entry`: the worker that has it is replaced by a new one, which is sent the other
  /// requests the old one had (they are answered as if nothing happened).
  private abort(entry: Outstanding): void {
    const others = [...this.pending.values()].filter((other) => other !== entry);
    if (others.length === this.pending.size) return;
    this.pending.clear();
    this.dropWorker();
    entry.reject(aborted());
    for (const other of others) this.post(other);
  }

  /// Runs calls on the page, once the parts they need are loaded there.
  private onPage<C extends readonly CoreCall[]>(calls: C, parts: readonly ModulePart[], estimatedMs: number): Promise<CoreResults<C>> {
    if (this.local.has(parts)) return this.runHere(calls, parts, estimatedMs);
    return this.loading(parts, Promise.all(parts.map((part) => this.local.load(part)))).then(() => this.runHere(calls, parts, estimatedMs));
  }

  /// Runs calls on the page now. A trap (a RuntimeError) leaves the instance unusable: it is
  /// dropped (the next call instantiates the module again) and the listeners are told.
  private runHere<C extends readonly CoreCall[]>(calls: C, parts: readonly ModulePart[], estimatedMs: number): Promise<CoreResults<C>> {
    const start = performance.now();
    try {
      const results = this.local.run(calls) as CoreResults<C>;
      const ms = performance.now() - start;
      this.spend(ms);
      for (const part of parts) this.slowdowns.set(part, slowdownAfter(this.slowdowns.get(part) ?? COLD_SLOWDOWN, estimatedMs, ms));
      return Promise.resolve(results);
    } catch (error) {
      this.spend(performance.now() - start);
      if (error instanceof Error && error.name === 'RuntimeError') {
        this.local.reset();
        this.slowdowns.clear();
        this.tellRestart(error.message);
        return Promise.reject(
          new CoreError({ name: 'Error', message: `the core stopped while computing this (${error.message}); it was restarted` }),
        );
      }
      return Promise.reject(error);
    }
  }

  /// Counts page time against the current task (see TASK_BUDGET_MS); the count starts over in
  /// the next task.
  private spend(ms: number): void {
    this.spentThisTask += ms;
    if (this.resetQueued) return;
    this.resetQueued = true;
    setTimeout(() => {
      this.spentThisTask = 0;
      this.resetQueued = false;
    }, 0);
  }

  private compiled(part: ModulePart): Promise<void> {
    if (this.modules.has(part)) return Promise.resolve();
    return compiledPart(part).then((module) => {
      this.modules.set(part, module);
    });
  }

  /// `work` (loading `parts`, or the worker's script: a string naming it), with the loading
  /// listeners told if it takes a while.
  private loading<T>(parts: readonly ModulePart[] | string, work: Promise<T>): Promise<T> {
    let settled = false;
    const files = typeof parts === 'string' ? [parts] : parts.map((part) => `${part === 'lab' ? 'the laboratory' : 'the core'} (${wasmFileName(part)})`);
    const timer = setTimeout(() => {
      if (settled) return;
      this.slowLoads.push(files);
      this.tellLoading();
    }, LOADING_NOTE_MS);
    const done = (): void => {
      settled = true;
      clearTimeout(timer);
      const index = this.slowLoads.indexOf(files);
      if (index < 0) return;
      this.slowLoads.splice(index, 1);
      this.tellLoading();
    };
    work.then(done, done);
    return work;
  }

  /// Tells the loading listeners what the slow loads still under way load (null: none), when that changed.
  private tellLoading(): void {
    const shown = [...new Set(this.slowLoads.flat())].join(' and ') || null;
    if (shown === this.loadingShown) return;
    this.loadingShown = shown;
    for (const listener of this.loadingListeners) listener(shown);
  }

  private post(entry: Outstanding): void {
    const worker = this.ensureWorker();
    for (const part of entry.parts) {
      const module = this.modules.get(part);
      if (!module || this.sent.has(part)) continue;
      const message: ModuleRequest = { id: -1, part, module };
      worker.postMessage(message);
      this.sent.add(part);
      // The worker fetches the part's script itself: slow, it is said like the page's own loads,
      // until the worker says the part is in (or answers the request that needed it, or goes).
      void this.loading([part], new Promise<void>((up) => this.partsUp.set(part, up)));
    }
    const id = this.nextId++;
    this.pending.set(id, entry);
    worker.postMessage({ id, calls: entry.calls });
  }

  /// The worker (or its wasm instance) died: start a new one, run the outstanding requests once
  /// more (the one that was running when it died, `culprit`, is answered with an error instead)
  /// and tell the listeners.
  private recover(reason: string, culprit?: Outstanding): void {
    const outstanding = [...this.pending.values()];
    this.pending.clear();
    this.dropWorker();
    const failed = new CoreError({
      name: 'Error',
      message: `the core stopped while computing this (${reason}); it was restarted`,
    });
    // A worker that died without a word was working on its oldest request.
    const blamed = culprit ?? outstanding.shift();
    blamed?.reject(failed);
    for (const entry of outstanding) {
      if (entry.retried) entry.reject(failed);
      else this.post({ ...entry, retried: true });
    }
    this.tellRestart(reason);
  }

  private tellRestart(reason: string): void {
    for (const listener of this.restartListeners) listener(reason);
  }

  private dropWorker(): void {
    this.worker?.terminate();
    this.worker = null;
    this.started = false;
    this.workerUp?.();
    this.workerUp = null;
    for (const up of this.partsUp.values()) up();
    this.partsUp.clear();
    this.sent.clear();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = createCoreWorker();
    // A worker whose script is slow to arrive is said like a slow module, until it starts.
    void this.loading(
      `the core's worker (${INLINED_WORKER ? 'inlined' : (WORKER_SCRIPT.split('/').pop() ?? WORKER_SCRIPT)})`,
      new Promise<void>((up) => (this.workerUp = up)),
    );
    worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => {
      if (worker === this.worker) this.receive(worker, event.data);
    });
    worker.addEventListener('error', (event) => {
      if (worker !== this.worker) return;
      event.preventDefault();
      if (this.started) this.recover(event.message || 'the core worker failed');
      else void this.scriptFailed(event.message);
    });
    this.worker = worker;
    return worker;
  }

  /// The worker's script did not run (missing, an error in it, or a page that may not start a
  /// worker from it: a page opened from a file, say, as deck exporters do). The requests waiting
  /// for it that are light enough run on the page instead (and so do later ones, until a worker
  /// starts); the others are answered with the reason, and the next of them starts a new worker.
  private async scriptFailed(message: string | undefined): Promise<void> {
    const all = [...this.pending.values()];
    this.pending.clear();
    this.dropWorker();
    this.workerFailed = true;
    const waiting: Outstanding[] = [];
    for (const entry of all) {
      if (withoutWorker(entry.ms)) this.onPage(entry.calls, entry.parts, entry.ms).then(entry.resolve, entry.reject);
      else waiting.push(entry);
    }
    if (waiting.length === 0) return;
    let detail = message || '';
    const policy = INLINED_WORKER ? null : await blockedByPolicy(WORKER_SCRIPT, 'worker');
    if (policy) detail = `${policy}; docs/embedding.md lists what a host policy must allow`;
    else if (!INLINED_WORKER) {
      // A missing script is said by its status, whatever the browser's own words for it were.
      const status = await fetch(WORKER_SCRIPT, { method: 'HEAD' }).then(
        (response) => (response.ok ? null : `HTTP ${response.status} for ${WORKER_SCRIPT}`),
        (error: unknown) => (detail ? null : error instanceof Error ? error.message : String(error)),
      );
      detail = status ?? (detail || 'it did not run');
    }
    const error = new CoreError({
      name: 'Error',
      message: `the core worker's script could not be started (${detail || 'no reason given'}); change any input to try again.`,
    });
    for (const entry of waiting) entry.reject(error);
  }

  private receive(worker: Worker, message: WorkerMessage): void {
    if ('started' in message) {
      this.started = true;
      this.workerFailed = false;
      this.workerUp?.();
      this.workerUp = null;
      if (message.lock) this.watch(worker, message.lock);
      return;
    }
    if ('loaded' in message) {
      this.partUp(message.loaded);
      return;
    }
    // An answer (a failed load's error included) ends the loading of the parts it needed.
    for (const part of this.pending.get(message.id)?.parts ?? []) this.partUp(part);
    this.settle(message.id, message);
  }

  /// The worker holds the lock `name` while it lives: once the page gets it, the worker is gone.
  /// If that was not the page's doing, the worker stopped by itself (the browser dropped it, or
  /// it closed) and the requests waiting for it would otherwise wait forever.
  private watch(worker: Worker, name: string): void {
    const locks = (navigator as Navigator & { locks?: LockManager }).locks;
    // Where the browser denies Web Locks (third-party storage blocked in a cross-origin iframe,
    // as in Incognito) the request rejects: the worker is then simply not watched.
    locks
      ?.request(name, () => {
        if (worker === this.worker) this.recover('the core worker stopped by itself');
      })
      .catch(() => undefined);
  }

  private settle(id: number, response: CallResponse): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    // A wasm trap or abort leaves the module unusable: replace the worker.
    if ('error' in response && response.error.name === 'RuntimeError') {
      this.recover(response.error.message, pending);
      return;
    }
    if ('error' in response) {
      pending.reject(new CoreError(response.error));
      return;
    }
    pending.resolve(response.results);
  }
}

/// Whether a request estimated at `ms` may run on the page when no worker can be started.
function withoutWorker(ms: number): boolean {
  return ms <= NO_WORKER_BUDGET_MS;
}

function aborted(): CoreError {
  return new CoreError({ name: 'AbortError', message: 'the computation was cancelled' });
}

let shared: Bridge | null = null;

/// The page's one bridge (every widget shares one core instance on the page and one worker).
export function sharedBridge(): Bridge {
  watchPolicy();
  shared ??= new Bridge();
  return shared;
}
