/// The page side of the worker: one shared worker (and one wasm instance) per page.
/// `channel(key)` hands out latest-wins requesters: one request in flight per channel and at
/// most one pending, which a newer request replaces, so the newest state always wins.
/// On a cross-origin isolated page, quick calls are answered through the mailbox within the
/// task that asked (see mailbox.ts).
import { createMailbox, mailboxAvailable, take, waitFor } from './mailbox';
import { markTiming } from './timing';
import { createCoreWorker } from './worker-factory';
import type { CallRequest, CallResponse, CoreCall, CoreResults, ErrorPayload, MailboxRequest, WorkerMessage } from './protocol';

/// When the page waits for an answer in the mailbox.
export interface MailboxTiming {
  /// A call list the worker answered within this many milliseconds last time is waited for.
  quickMs: number;
  /// The longest the page waits for an answer in the mailbox before it lets the message bring it.
  waitMs: number;
  /// The most calls of the same functions that go by message after waits ran out: a single miss
  /// (a busy moment) skips none, two in a row skip one, and each further miss in a row doubles
  /// that, up to this many; an answer caught in time starts over.
  cooldown: number;
}

const DEFAULT_TIMING: MailboxTiming = { quickMs: 2, waitMs: 6, cooldown: 8 };

/// The timing in force: the defaults, or what a script set as `globalThis.kernelLensMailboxTiming`
/// before the first computation (`{ waitMs: 0 }` turns the waits off; the browser tests wait for
/// every answer, so that they check the mailbox and not the machine's speed). Values that are not
/// non-negative numbers are ignored.
function mailboxTiming(): MailboxTiming {
  const override = (globalThis as { kernelLensMailboxTiming?: unknown }).kernelLensMailboxTiming;
  const timing = { ...DEFAULT_TIMING };
  if (typeof override !== 'object' || override === null) return timing;
  for (const name of Object.keys(timing) as (keyof MailboxTiming)[]) {
    const value = (override as Record<string, unknown>)[name];
    if (typeof value === 'number' && value >= 0) timing[name] = value;
  }
  return timing;
}

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
  /// Shared with the current worker when the page is cross-origin isolated.
  private mailbox: SharedArrayBuffer | null = null;
  /// The worker's time for each list of functions, last time it ran them (ms).
  private readonly lastElapsed = new Map<string, number>();
  /// How many more of these calls go by message only, after waits that ran out.
  private readonly cooldown = new Map<string, number>();
  /// Waits for these calls that ran out in a row.
  private readonly misses = new Map<string, number>();
  private readonly timing = mailboxTiming();

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
    const wait = this.worthWaiting(entry.calls);
    this.pending.set(id, entry);
    const request: CallRequest = { id, calls: entry.calls, wait };
    worker.postMessage(request);
    if (!wait || !this.mailbox) return;
    const name = key(entry.calls);
    if (waitFor(this.mailbox, id, performance.now() + this.timing.waitMs)) {
      this.misses.delete(name);
      this.settle(id, { id, inMailbox: true, elapsed: 0 });
    } else {
      // Too slow this time (a busy machine): the message brings it. Misses in a row send the next
      // few such calls by message, so a worker that stays slow does not cost a wait per input.
      const misses = (this.misses.get(name) ?? 0) + 1;
      this.misses.set(name, misses);
      if (misses >= 2) this.cooldown.set(name, Math.min(this.timing.cooldown, 2 ** (misses - 2)));
    }
  }

  /// Whether to wait for the answer in the mailbox: the page has one, the worker is idle (so the
  /// answer is not queued behind other work) and answered these calls quickly last time.
  private worthWaiting(calls: readonly CoreCall[]): boolean {
    if (!this.mailbox || !this.ready || this.pending.size > 0 || this.timing.waitMs === 0) return false;
    const name = key(calls);
    const skip = this.cooldown.get(name) ?? 0;
    if (skip > 0) {
      this.cooldown.set(name, skip - 1);
      return false;
    }
    return (this.lastElapsed.get(name) ?? Number.POSITIVE_INFINITY) <= this.timing.quickMs;
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
    // A new mailbox for every worker: a dead worker may have left its own half-written.
    this.mailbox = mailboxAvailable() ? createMailbox() : null;
    if (this.mailbox) {
      const request: MailboxRequest = { id: -1, mailbox: this.mailbox };
      worker.postMessage(request);
    }
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
    this.settle(message.id, message);
  }

  private settle(id: number, response: CallResponse): void {
    const pending = this.pending.get(id);
    // Already answered: through the mailbox, while the page waited.
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
    let answer: { results: unknown[]; elapsed: number } = response as { results: unknown[]; elapsed: number };
    if ('inMailbox' in response) {
      try {
        if (!this.mailbox) throw new Error('an answer came through a mailbox the page does not have');
        answer = take(this.mailbox, id) as typeof answer;
      } catch (error) {
        pending.reject(new CoreError({ name: 'Error', message: error instanceof Error ? error.message : String(error) }));
        return;
      }
    }
    this.lastElapsed.set(key(pending.calls), answer.elapsed);
    pending.resolve(answer.results);
  }
}

/// The functions of a call list, as the key of their timing.
function key(calls: readonly CoreCall[]): string {
  return calls.map((c) => c.fn).join(' ');
}

let shared: Bridge | null = null;

/// The page's one bridge (several widgets share one worker and one wasm instance).
export function sharedBridge(): Bridge {
  shared ??= new Bridge();
  return shared;
}
