/// The one owner of a mounted figure's lifecycle (the `WidgetHost` a widget is given): its state,
/// its computations and their staleness, its errors, theme subscriptions, disposal, long jobs and
/// the "drawn" signal.
///
/// The drawn signal: while a computation, a `run` or a job is under way the figure has the
/// attribute `data-kl-busy`; once none is and every chart it owns shows what it was given, the
/// figure's `data-kl-drawn` counts up by one and it dispatches `kernel-lens:drawn` (bubbling,
/// composed: a page hears it through `<kernel-lens-figure>`'s shadow root). Tests and exporters
/// await that instead of a number of milliseconds.
import { chartSettled, explorable, isChart, onChartsDrew, scheduleFrame, type AnyChart } from '../../charts';
import { isRefusal, sharedBridge, type Bridge, type Channel, type CoreCall, type CoreResults } from '../../engine';
import { onThemeChange, palette, type Palette } from '../../theme/theme';
import type { CsvRows } from '../download';
import type { Schema, StateOf } from '../state';
import { createJob } from './job';
import type { Computation, ComputeSpec, Disposable, ExportTable, Job, JobSpec, WidgetHost } from './widget';

/// The parts of the figure's frame the host writes into.
export interface FigureParts {
  readonly id: string;
  readonly frame: HTMLElement;
  readonly root: HTMLElement;
  readonly embedded: boolean;
  note(message: string): () => void;
  waitingNote(message: string): () => void;
  /// Shows `message`; with `retry`, a Retry button beside it that calls it, and the waiting notes
  /// hidden until `resumeProgress` or `hideError` (the figure waits for Retry, not for work).
  showError(message: string, retry?: () => void): void;
  hideError(): void;
  resumeProgress(): void;
  provideExport(table: ExportTable): () => void;
  stateChanged(state: Record<string, unknown>): void;
  /// The figure's one polite, atomic live region: the only place the figure speaks from.
  announcer: HTMLElement;
}

/// How long the reader's input must have rested before its read-out sentence is said: a held key
/// or a drag says only where it stopped.
export const ANNOUNCE_DELAY_MS = 400;

/// The figure's read-out lines as one sentence (for a widget that declares none).
function readoutSentence(root: HTMLElement): string {
  return Array.from(root.querySelectorAll<HTMLElement>('.kl-readout'), (line) => line.innerText.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' ');
}

/// A declared computation: the state keys it reads (all when undefined), and what asks the core.
interface Declared<S extends Schema> {
  reads: readonly (keyof S)[] | undefined;
  ask(): void;
  /// Removes the busy note of its latest request (or cancels the note's timer).
  stopNote(): void;
}

/// A computation's busy note shows once its answer has taken this long.
const BUSY_NOTE_MS = 400;

/// Two state values are the same: equal numbers, strings, booleans, or lists of equal numbers.
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
  return Object.is(a, b);
}

function dispose(thing: Disposable): void {
  if ('destroy' in thing) thing.destroy();
  else thing.disconnect();
}

export class FigureHost<S extends Schema> implements WidgetHost<S> {
  readonly root: HTMLElement;
  readonly embedded: boolean;
  readonly bridge: Bridge = sharedBridge();
  private current: StateOf<S>;
  private readonly computations: Declared<S>[] = [];
  private readonly owned: Disposable[] = [];
  private readonly charts: AnyChart[] = [];
  /// Each owned chart's summary renewal (its explorer, charts/explore.ts): run at every drawn signal.
  private readonly summaries: Array<() => void> = [];
  private readonly cleanups: Array<() => void> = [];
  private errorSource: string | undefined;
  private errorShown = false;
  /// What to do again after a part of the core could not be loaded: run by Retry or the next input.
  private retries: Array<() => void> = [];
  private busyCount = 0;
  private drawnCount = 0;
  private settleQueued = false;
  private stopWaitingForCharts: (() => void) | null = null;
  private mounted = false;
  private destroyed = false;
  /// The declared read-out sentence; the sentence said last (or drawn first, which is not said);
  /// whether the reader's input changed the state since the last drawing; the pending saying.
  private sentence: () => string = () => readoutSentence(this.root);
  private spoken: string | null = null;
  private inputPending = false;
  private announceTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly parts: FigureParts,
    state: StateOf<S>,
  ) {
    this.root = parts.root;
    this.embedded = parts.embedded;
    this.current = state;
  }

  get state(): StateOf<S> {
    return this.current;
  }

  get colors(): Palette {
    return palette(this.parts.frame);
  }

  update(partial: Partial<StateOf<S>>): void {
    const changed = new Set<keyof S>();
    for (const key of Object.keys(partial) as (keyof S)[]) {
      if (!same(this.current[key], partial[key])) changed.add(key);
    }
    this.current = { ...this.current, ...partial };
    this.parts.stateChanged(this.current as Record<string, unknown>);
    if (!this.mounted || changed.size === 0) return;
    this.retry();
    if (this.drawnCount > 0) {
      this.inputPending = true;
      clearTimeout(this.announceTimer);
      this.announceTimer = undefined;
      this.parts.frame.toggleAttribute('data-kl-announcing', true);
    }
    for (const declared of this.computations) {
      if (!declared.reads || declared.reads.some((key) => changed.has(key))) declared.ask();
    }
    // A change no computation reads (a section opened, a row highlighted) is drawn at once.
    this.queueSettle();
  }

  compute<const C extends readonly CoreCall[]>(spec: ComputeSpec<S, C>): Computation {
    const channel = this.bridge.channel(`${this.parts.id}/${spec.key}`, spec.depth);
    const declared: Declared<S> = { reads: spec.reads, ask: () => this.ask(spec, channel, declared), stopNote: () => undefined };
    this.computations.push(declared);
    if (this.mounted) declared.ask();
    return { refresh: () => declared.ask() };
  }

  /// Runs `calls` once; when a part of the core could not be loaded, says so with a Retry and tries
  /// again on Retry or the next input (the promise settles with the attempt that does).
  run<const C extends readonly CoreCall[]>(calls: C, signal?: AbortSignal): Promise<CoreResults<C>> {
    return new Promise((resolve, reject) => {
      const attempt = (): void => {
        this.track(this.bridge.run(calls, signal)).then(
          (results) => {
            // Another run that failed still waits for its Retry: its error and button stay.
            if (this.retries.length === 0) this.clearError('run');
            resolve(results);
          },
          (error: unknown) => {
            if (this.destroyed || signal?.aborted || isRefusal(error)) reject(error);
            else this.failedToLoad(error, 'run', attempt);
          },
        );
      };
      attempt();
    });
  }

  /// Runs again what failed for want of a part of the core (Retry, or any change of the state).
  retry(): void {
    if (this.retries.length === 0) return;
    this.parts.resumeProgress();
    for (const again of this.retries.splice(0)) again();
  }

  job(spec: JobSpec): Job {
    return createJob(spec, {
      run: (calls, signal) => this.bridge.run(calls, signal),
      track: (work) => void this.track(work),
      showError: (error, retry) => (retry ? this.failedToLoad(error, `job:${spec.name}`, retry) : this.showError(error, `job:${spec.name}`)),
      clearError: () => this.clearError(`job:${spec.name}`),
      say: (text) => this.say(text),
      own: (stop) => this.cleanups.push(stop),
    });
  }

  own<T extends Disposable>(thing: T): T {
    this.owned.push(thing);
    if (isChart(thing)) {
      this.charts.push(thing);
      this.summaries.push(explorable(thing, () => scheduleFrame(thing, () => undefined)));
    } else if ('explore' in thing && typeof thing.explore === 'function') {
      // A heat map (charts/heatmap.ts): read cell by cell.
      this.summaries.push((thing.explore as () => () => void).call(thing));
    }
    return thing;
  }

  onTheme(listener: (colors: Palette) => void): void {
    this.cleanups.push(onThemeChange(listener, this.parts.frame));
  }

  listen<K extends keyof HTMLElementEventMap>(
    target: EventTarget,
    type: K,
    listener: (event: HTMLElementEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ): void {
    const handler = listener as EventListener;
    target.addEventListener(type, handler, options);
    this.cleanups.push(() => target.removeEventListener(type, handler, options));
  }

  note(message: string): () => void {
    return this.parts.note(message);
  }

  announce(sentence: () => string): void {
    this.sentence = sentence;
  }

  say(text: string): void {
    if (this.destroyed || this.drawnCount === 0) return;
    clearTimeout(this.announceTimer);
    this.announceTimer = undefined;
    this.inputPending = false;
    this.parts.frame.toggleAttribute('data-kl-announcing', false);
    this.speak(text);
  }

  /// Writes `text` into the live region; the same text again is made to differ by a no-break space
  /// (an unchanged region is not read again).
  private speak(text: string): void {
    const region = this.parts.announcer;
    region.textContent = region.textContent === text ? `${text}\u00a0` : text;
  }

  /// After a drawing caused by the reader's input: says the sentence once the input has rested.
  private queueAnnouncement(): void {
    if (this.drawnCount === 1) {
      // The first drawing is what the figure shows on load: its sentence is the baseline, not said.
      this.spoken = this.readSentence();
      if (!this.inputPending) return;
    }
    if (!this.inputPending) return;
    this.inputPending = false;
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(() => {
      this.announceTimer = undefined;
      if (this.destroyed) return;
      this.parts.frame.toggleAttribute('data-kl-announcing', false);
      const text = this.readSentence();
      if (!text || text === this.spoken) return;
      this.spoken = text;
      this.speak(text);
    }, ANNOUNCE_DELAY_MS);
  }

  private readSentence(): string {
    try {
      return this.sentence().replace(/\s+/g, ' ').trim();
    } catch {
      return '';
    }
  }

  waitingNote(message: string): () => void {
    return this.parts.waitingNote(message);
  }

  showError(reason: unknown, source?: string): void {
    if (this.destroyed) return;
    this.parts.showError(reason instanceof Error ? reason.message : String(reason));
    this.errorShown = true;
    this.errorSource = source;
  }

  /// A part of the core could not be loaded for `source`: the reason, with a Retry that runs
  /// `again` (and whatever else failed so).
  private failedToLoad(reason: unknown, source: string, again: () => void): void {
    if (this.destroyed) return;
    if (!this.retries.includes(again)) this.retries.push(again);
    this.parts.showError(reason instanceof Error ? reason.message : String(reason), () => this.retry());
    this.errorShown = true;
    this.errorSource = source;
  }

  clearError(source?: string): void {
    if (!this.errorShown || (source !== undefined && source !== this.errorSource)) return;
    this.errorShown = false;
    this.errorSource = undefined;
    this.parts.hideError();
  }

  provideExport(table: ExportTable): () => void;
  provideExport<T>(name: string, source: () => T | null | undefined, rows: (value: T) => CsvRows): () => void;
  provideExport<T>(table: ExportTable | string, source?: () => T | null | undefined, rows?: (value: T) => CsvRows): () => void {
    if (typeof table !== 'string') return this.parts.provideExport(table);
    return this.parts.provideExport({
      name: table,
      csv: () => {
        const value = source?.();
        return value === null || value === undefined || !rows ? [] : rows(value);
      },
    });
  }

  /// Runs every declared computation once the widget's `mount` returned, and signals the first
  /// drawing once they are drawn.
  start(): void {
    this.mounted = true;
    // The charts' boxes are in the figure now: their data tables are placed in the same task.
    for (const refresh of this.summaries) refresh();
    for (const declared of this.computations) declared.ask();
    this.queueSettle();
  }

  destroy(): void {
    this.destroyed = true;
    clearTimeout(this.announceTimer);
    this.stopWaitingForCharts?.();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    for (const declared of this.computations) declared.stopNote();
    for (const thing of this.owned.splice(0).reverse()) dispose(thing);
  }

  /// Asks the core for `spec` at the current state on its channel; a superseded answer is dropped.
  private ask<const C extends readonly CoreCall[]>(spec: ComputeSpec<S, C>, channel: Channel, declared: Declared<S>): void {
    const again = declared.ask;
    if (this.destroyed || !this.mounted) return;
    const state = this.current;
    let calls: C | null;
    try {
      calls = spec.ask(state);
    } catch (error) {
      this.showError(error, spec.key);
      return;
    }
    if (!calls) return;
    const settled = this.busyNote(declared, spec.busyNote?.(state) ?? null);
    void this.track(channel.request(calls)).then(
      (results) => {
        settled();
        if (!results || this.destroyed) return;
        this.clearError(spec.key);
        try {
          spec.draw(results, state);
        } catch (error) {
          this.showError(error, spec.key);
        }
      },
      (error: unknown) => {
        settled();
        if (this.destroyed) return;
        if (!isRefusal(error)) {
          this.failedToLoad(error, spec.key, again);
          return;
        }
        this.showError(error, spec.key);
        spec.refused?.(error instanceof Error ? error : new Error(String(error)), state);
      },
    );
  }

  /// Shows `message` as the computation's busy note once its request has taken BUSY_NOTE_MS (a
  /// newer request's note replaces it); returns what the request calls when it settles, which
  /// removes the note unless a newer request has replaced it.
  private busyNote(declared: Declared<S>, message: string | null): () => void {
    declared.stopNote();
    if (!message) return () => undefined;
    let remove: (() => void) | null = null;
    const timer = setTimeout(() => {
      if (!this.destroyed) remove = this.waitingNote(message);
    }, BUSY_NOTE_MS);
    const stop = (): void => {
      clearTimeout(timer);
      remove?.();
      remove = null;
    };
    declared.stopNote = stop;
    return () => {
      if (declared.stopNote !== stop) return;
      stop();
      declared.stopNote = () => undefined;
    };
  }

  /// Counts `work` as under way until it settles; returns it.
  private track<T>(work: Promise<T>): Promise<T> {
    this.busyCount += 1;
    this.parts.frame.toggleAttribute('data-kl-busy', true);
    const done = (): void => {
      this.busyCount -= 1;
      if (this.busyCount === 0) this.queueSettle();
    };
    work.then(done, done);
    return work;
  }

  /// Checks for the drawn signal in a task of its own: the answer's own handlers (which may start
  /// the next computation) run first.
  private queueSettle(): void {
    if (this.settleQueued || this.destroyed) return;
    this.settleQueued = true;
    setTimeout(() => {
      this.settleQueued = false;
      this.settle();
    }, 0);
  }

  private settle(): void {
    if (this.destroyed || this.busyCount > 0) return;
    this.parts.frame.toggleAttribute('data-kl-busy', false);
    if (!this.charts.every(chartSettled)) {
      if (!this.stopWaitingForCharts) {
        this.stopWaitingForCharts = onChartsDrew(() => {
          if (!this.charts.every(chartSettled)) return;
          this.stopWaitingForCharts?.();
          this.stopWaitingForCharts = null;
          this.settle();
        });
      }
      return;
    }
    for (const refresh of this.summaries) refresh();
    this.drawnCount += 1;
    const frame = this.parts.frame;
    frame.dataset.klDrawn = String(this.drawnCount);
    this.queueAnnouncement();
    frame.dispatchEvent(new CustomEvent('kernel-lens:drawn', { bubbles: true, composed: true, detail: { count: this.drawnCount } }));
  }
}
