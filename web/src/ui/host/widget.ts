/// The widget contract. A widget is one folder `web/src/widgets/<name>/` whose `index.ts`
/// default-exports `defineWidget({...})`; the page and embed.html discover it by itself.
///
/// A widget declares; the host does the rest. The widget states its parameters (`params`), what it
/// asks the core for a state (`host.compute`), and how it draws the answer. The host owns the one
/// state, staleness (a superseded answer is never drawn), errors, theme changes, disposal, long
/// jobs with progress and a Cancel that stops the work, and the "drawn" signal.
import type { AnyChart } from '../../charts/adapter';
import type { CoreCall, CoreResults } from '../../engine';
import type { Palette } from '../../theme/theme';
import type { CsvRows } from '../download';
import type { Schema, StateOf } from '../state';

/// What a mounted widget gets from the page around it.
export interface WidgetHost<S extends Schema = Schema> {
  /// The element the widget draws into (empty at mount).
  readonly root: HTMLElement;
  /// True inside embed.html (no page chrome around the widget).
  readonly embedded: boolean;
  /// The figure's one state: its parameters as the reader set them.
  readonly state: StateOf<S>;
  /// Changes part of the state. The share link follows, and every computation that reads a key
  /// whose value changed asks the core again (see `compute`).
  update(partial: Partial<StateOf<S>>): void;
  /// Declares a computation; the host runs it once the widget is mounted and again whenever a key
  /// it reads changes. Returns its handle.
  compute<const C extends readonly CoreCall[]>(spec: ComputeSpec<S, C>): Computation;
  /// Asks the core once (data the figure loads at start, a step of a job): not latest-wins, the
  /// answer always arrives. A refusal rejects; with `signal`, an abort stops the call, in the
  /// worker too, and rejects with an `AbortError`.
  run<const C extends readonly CoreCall[]>(calls: C, signal?: AbortSignal): Promise<CoreResults<C>>;
  /// A long job (see JobSpec): its progress line, ready to place in the figure.
  job(spec: JobSpec): Job;
  /// Destroyed with the figure (a chart, a ResizeObserver, anything with `destroy()` or
  /// `disconnect()`); a chart also counts in the figure's drawn signal. Returns `thing`.
  own<T extends Disposable>(thing: T): T;
  /// The figure's palette now (its theme's colours); read it when drawing.
  readonly colors: Palette;
  /// Calls `listener` with the new palette whenever the figure's theme changes, until it goes.
  onTheme(listener: (colors: Palette) => void): void;
  /// `target.addEventListener(type, listener)` until the figure goes.
  listen<K extends keyof HTMLElementEventMap>(target: EventTarget, type: K, listener: (event: HTMLElementEventMap[K]) => void, options?: AddEventListenerOptions): void;
  /// Adds a visible note (e.g. a rejected parameter); returns its remover.
  note(message: string): () => void;
  /// Adds a note that goes again soon (data not yet available): it lies over the figure's top
  /// edge, with the core's loading note, so its going moves nothing; returns its remover.
  waitingNote(message: string): () => void;
  /// Shows an error under the figure; the widget keeps its last good drawing. `source` names what
  /// the error came from (a field's refusal, one computation), so that another source's success
  /// does not wipe it.
  showError(error: unknown, source?: string): void;
  /// Hides the error; with `source`, only an error shown from that source.
  clearError(source?: string): void;
  /// Offers the numbers behind the figure as a CSV download ("<widget>-<name>.csv"); `csv()` is
  /// called at download time and returns (or promises) a header row then data rows of the core's
  /// own numbers (no rounding). Returns the remover.
  provideExport(table: ExportTable): () => void;
  /// The same for a table made from `source()` (the figure's last answer): nothing to download
  /// while it is null.
  provideExport<T>(name: string, source: () => T | null | undefined, rows: (value: T) => CsvRows): () => void;
  /// Declares the figure's read-out as one sentence naming what changed ("Prediction at q = 3.55,
  /// h = 0.600: 2.7239"). The host reads it once the figure has drawn what the reader's input
  /// caused and says it in the figure's one polite live region, once the input has settled
  /// (ANNOUNCE_DELAY_MS after the last change, the newest only): never on load, never when it is
  /// the sentence said last. An empty sentence says nothing. Without it, the figure's
  /// `.kl-readout` lines are the sentence.
  announce(sentence: () => string): void;
  /// Says `text` in the figure's live region at once (a long run's start, pause, end); a sentence
  /// still waiting for the input to settle is dropped. Nothing is said before the first drawing.
  say(text: string): void;
}

/// Something the figure disposes of when it goes.
export type Disposable = { destroy(): void } | { disconnect(): void } | AnyChart;

/// A computation of a widget: the calls it asks the core for a state, and how it draws the answer.
export interface ComputeSpec<S extends Schema, C extends readonly CoreCall[]> {
  /// Names the computation (its latest-wins channel and the source of its errors).
  key: string;
  /// The state keys it reads: it runs again when one of them changes. All keys when left out;
  /// `[]` for one that runs only at start and on `refresh()`.
  reads?: readonly (keyof S)[];
  /// The calls for `state`, or null when there is nothing to ask yet (data still loading).
  ask(state: StateOf<S>): C | null;
  /// Draws the answer; `state` is the state it was asked for. Never called for a superseded answer.
  draw(results: CoreResults<C>, state: StateOf<S>): void;
  /// Besides the error shown under the figure, what the widget does on a refusal (restore a field).
  refused?(error: Error, state: StateOf<S>): void;
  /// What the figure says while this answer is awaited (asked right after `ask`; null: nothing).
  /// Shown only if the answer outlasts a glance, and gone once the request settles however it
  /// settles (drawn, refused, superseded, or failed for want of a part of the core).
  busyNote?(state: StateOf<S>): string | null;
  /// Requests in flight at once (1): 2 keeps the worker busy on a drag of heavy calls.
  depth?: number;
}

export interface Computation {
  /// Asks again with the current state (data it needs arrived, a setting outside the state changed).
  refresh(): void;
}

/// A long job: steps run one after another (each in the worker when heavy), with a progress bar,
/// a status line, Run and Cancel. Cancel stops the step running in the worker at once; starting
/// the job again cancels the run before. Focus moves from a button that disables itself to the other.
export interface JobSpec {
  /// What the job is, for the progress bar's name and the status ("Monte Carlo audit").
  name: string;
  /// The Run button's text.
  runLabel: string;
  /// The status line's `data-testid`, where tests read it.
  statusTestId?: string;
  /// The job itself. `step(calls)` runs calls and rejects with an AbortError once cancelled;
  /// `progress(done, total, text)` moves the bar and says `text` in the status line. Resolves to
  /// the status line's final text.
  work(context: JobContext): Promise<string>;
  /// What the status says when a run is cancelled, from the progress so far.
  cancelled(done: number, total: number): string;
  /// What the status says when a step is refused, from the progress so far (the error itself is
  /// shown under the figure).
  stopped(done: number, total: number): string;
  /// What is said after the final status when a run ends (its result, e.g. the grid minimum).
  summary?(): string;
}

export interface JobContext {
  step<const C extends readonly CoreCall[]>(calls: C): Promise<CoreResults<C>>;
  progress(done: number, total: number, text: string): void;
  readonly signal: AbortSignal;
}

export interface Job {
  /// The progress line: bar, status, Run and Cancel.
  readonly element: HTMLElement;
  readonly running: boolean;
  start(): void;
  cancel(): void;
}

/// One downloadable table of a widget.
export interface ExportTable {
  /// File-name part and button text, e.g. "weights", "attention matrix".
  name: string;
  csv(): CsvRows | Promise<CsvRows>;
}

/// What `mount` returns: anything the widget set up that the host does not own (most return
/// nothing).
export interface MountedWidget {
  destroy?(): void;
}

/// The first `order` of the figures beyond the chapter (after its exercises, 13.x: 13.n is exercise n).
export const BEYOND_THE_CHAPTER = 14;

export interface WidgetDefinition<S extends Schema = Schema> {
  /// The embed name (`embed.html?widget=<name>`), equal to the folder name.
  name: string;
  title: string;
  /// Position in the chapter, unique: the section number, with decimals for later places in the
  /// section (12.5, 12.51…); the full page puts the figure in that section of index.html. 13.n is
  /// exercise n. From BEYOND_THE_CHAPTER on, a figure goes beyond the chapter: the full page shows
  /// it after the chapter's exercises.
  order: number;
  /// The chapter's figure label, e.g. "Figure 12.1".
  figure?: string;
  /// The rest of the chapter's caption after its title (the title is its first sentence), shown in
  /// full under the label and title.
  caption?: string;
  /// URL parameters (embed contract) and their defaults.
  params: S;
  /// Prose shown before the widget on the full page: HTML with $…$ / $$…$$ TeX, kept in the
  /// widget folder's prose.html (TeX with single backslashes) and imported with `?raw`.
  prose?: string;
  /// The figure typesets TeX of its own (a table of notation, an exercise's answer): KaTeX and its
  /// stylesheet load before it mounts, so its formulas are set in the frame it first shows
  /// (typesetting after KaTeX arrived would change their size on screen: a layout shift).
  math?: boolean;
  /// Builds the figure in `host.root`, declares its computations and owns its charts. The state is
  /// `host.state`.
  mount(host: WidgetHost<S>): MountedWidget | void;
}

/// A widget from its description (name, meta, params, prose) and its `mount`, with the schema's
/// types kept for `mount`.
export function defineWidget<S extends Schema>(
  definition: Omit<WidgetDefinition<S>, 'mount'>,
  mount: WidgetDefinition<S>['mount'],
): WidgetDefinition<S> {
  return { ...definition, mount };
}
