/// The page side of the worker: one shared worker (and one wasm instance) per page.
/// `channel(key)` hands out latest-wins requesters: one request in flight per channel and at
/// most one pending, which a newer request replaces, so the newest state always wins.
import { markTiming } from './timing';
import { createCoreWorker } from './worker-factory';
import type { CallRequest, CoreCall, CoreResults, ErrorPayload, WorkerMessage } from './protocol';

/// An error raised by the core (or the worker), rebuilt with the core's name and message.
export class CoreError extends Error {
  constructor(payload: ErrorPayload) {
    super(payload.message);
    this.name = payload.name;
  }
}

interface Pending {
  resolve(results: unknown[]): void;
  reject(error: Error): void;
}

/// A request in the worker: its calls are kept so a restarted worker can run them again.
interface Outstanding extends Pending {
  calls: readonly CoreCall[];
  retried: boolean;
}

/// Latest-wins requester. A superseded request resolves to `null` instead of results.
export class Channel {
  private inFlight = false;
  private queued: { calls: readonly CoreCall[]; issuedAt: number; settle: Pending; drop(): void } | null =
    null;

  constructor(private readonly bridge: Bridge) {}

  request<const C extends readonly CoreCall[]>(calls: C): Promise<CoreResults<C> | null> {
    const issuedAt = performance.now();
    return new Promise<CoreResults<C> | null>((resolve, reject) => {
      const settle: Pending = {
        resolve: (results) => resolve(results as CoreResults<C>),
        reject,
      };
      const entry = { calls, issuedAt, settle, drop: () => resolve(null) };
      if (this.inFlight) {
        this.queued?.drop();
        this.queued = entry;
      } else {
        this.send(entry);
      }
    });
  }

  private send(entry: { calls: readonly CoreCall[]; issuedAt: number; settle: Pending }): void {
    this.inFlight = true;
    const next = (): void => {
      this.inFlight = false;
      const queued = this.queued;
      this.queued = null;
      if (queued) this.send(queued);
    };
    this.bridge.run(entry.calls).then(
      (results) => {
        this.bridge.lastDeliveredIssuedAt = Math.max(this.bridge.lastDeliveredIssuedAt, entry.issuedAt);
        markTiming('kernel-lens:result', entry.issuedAt);
        entry.settle.resolve(results);
        next();
      },
      (error: Error) => {
        entry.settle.reject(error);
        next();
      },
    );
  }
}

export class Bridge {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Outstanding>();
  private readonly restartListeners = new Set<(reason: string) => void>();
  private ready = false;
  private readonly channels = new Map<string, Channel>();
  private functions: Promise<Set<string>> | null = null;
  private resolveFunctions: ((names: Set<string>) => void) | null = null;
  /// `performance.now()` at which the newest delivered result was requested (for latency figures).
  lastDeliveredIssuedAt = 0;

  /// The latest-wins requester for `key` (one per widget computation).
  channel(key: string): Channel {
    let channel = this.channels.get(key);
    if (!channel) {
      channel = new Channel(this);
      this.channels.set(key, channel);
    }
    return channel;
  }

  /// Runs the calls in the worker; every request is answered (no dropping at this level).
  run<const C extends readonly CoreCall[]>(calls: C): Promise<CoreResults<C>> {
    return new Promise<CoreResults<C>>((resolve, reject) => {
      this.post({ calls, retried: false, resolve: (results) => resolve(results as CoreResults<C>), reject });
    });
  }

  /// Calls `listener(reason)` whenever a dead worker was replaced; returns the unsubscriber.
  onRestart(listener: (reason: string) => void): () => void {
    this.restartListeners.add(listener);
    return () => this.restartListeners.delete(listener);
  }

  private post(entry: Outstanding): void {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    this.pending.set(id, entry);
    const request: CallRequest = { id, calls: entry.calls };
    worker.postMessage(request);
  }

  /// The worker (or its wasm instance) died: start a new one, run the outstanding requests once
  /// more (the one that was running when it died, `culprit`, is answered with an error instead)
  /// and tell the listeners.
  private recover(reason: string, culprit?: Outstanding): void {
    const outstanding = [...this.pending.values()];
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
    this.ready = false;
    const failed = new CoreError({
      name: 'Error',
      message: `the core stopped while computing this (${reason}); it was restarted`,
    });
    culprit?.reject(failed);
    for (const entry of outstanding) {
      if (entry.retried) entry.reject(failed);
      else this.post({ ...entry, retried: true });
    }
    this.ensureWorker();
    for (const listener of this.restartListeners) listener(reason);
  }

  /// The names of the functions the loaded core exports.
  available(): Promise<Set<string>> {
    this.ensureWorker();
    return this.functions as Promise<Set<string>>;
  }

  /// Stops the worker; every outstanding request rejects. The next request starts a new worker.
  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
    this.ready = false;
    this.functions = null;
    const error = new CoreError({ name: 'AbortError', message: 'the computation was cancelled' });
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }

  /// Cancels whatever runs and starts a fresh worker.
  restart(): void {
    this.terminate();
    this.ensureWorker();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = createCoreWorker();
    this.functions = new Promise((resolve) => {
      this.resolveFunctions = resolve;
    });
    worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => this.receive(event.data));
    worker.addEventListener('error', (event) => {
      if (this.ready) {
        event.preventDefault();
        this.recover(event.message || 'the core worker failed');
        return;
      }
      const error = new CoreError({ name: 'Error', message: event.message || 'the core worker failed to load' });
      this.resolveFunctions?.(new Set());
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }

  private receive(message: WorkerMessage): void {
    if ('ready' in message) {
      this.ready = message.error === undefined;
      this.resolveFunctions?.(new Set(message.functions));
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    // A wasm trap or abort leaves the module unusable: replace the worker.
    if ('error' in message && message.error.name === 'RuntimeError') this.recover(message.error.message, pending);
    else if ('error' in message) pending.reject(new CoreError(message.error));
    else pending.resolve(message.results);
  }
}

let shared: Bridge | null = null;

/// The page's one bridge (several widgets share one worker and one wasm instance).
export function sharedBridge(): Bridge {
  shared ??= new Bridge();
  return shared;
}
