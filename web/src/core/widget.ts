/// The widget contract. A widget is one folder `web/src/widgets/<name>/` whose `index.ts`
/// default-exports `defineWidget({...})`; the page and embed.html discover it by itself.
import type { Bridge, Channel } from './bridge';
import type { CsvRows } from './export';
import type { Schema, StateOf } from './state';

/// What a mounted widget gets from the page around it.
export interface WidgetHost<S extends Schema = Schema> {
  /// The element the widget draws into (empty at mount).
  readonly root: HTMLElement;
  /// True inside embed.html (no page chrome around the widget).
  readonly embedded: boolean;
  /// The page's shared worker bridge.
  readonly bridge: Bridge;
  /// A latest-wins requester private to this widget instance, `depth` requests in flight (1).
  channel(key: string, depth?: number): Channel;
  /// Adds a visible note (e.g. a rejected parameter); returns its remover.
  note(message: string): () => void;
  /// Adds a note that goes again soon (data not yet available): it lies over the figure's top
  /// edge, with the core's loading note, so its going moves nothing; returns its remover.
  waitingNote(message: string): () => void;
  /// Shows an error from the core inline; the widget keeps its last good drawing. `source` names
  /// what the error came from (a field's refusal, one computation), so that another computation's
  /// success does not wipe it.
  showError(error: unknown, source?: string): void;
  /// Hides the error; with `source`, only an error shown from that source.
  clearError(source?: string): void;
  /// The current state; widgets report every change through setState.
  readonly state: StateOf<S>;
  setState(partial: Partial<StateOf<S>>): void;
  /// Offers the numbers behind the figure as a CSV download ("<widget>-<name>.csv"); `csv()` is
  /// called at download time and returns (or promises) a header row then data rows of the core's
  /// own numbers (no rounding). Returns the remover.
  provideExport(table: ExportTable): () => void;
}

/// One downloadable table of a widget.
export interface ExportTable {
  /// File-name part and button text, e.g. "weights", "attention matrix".
  name: string;
  csv(): CsvRows | Promise<CsvRows>;
}

export interface MountedWidget {
  destroy(): void;
}

/// The first `order` of the figures beyond the chapter (after its exercises, 13.x: 13.n is exercise n).
export const BEYOND_THE_CHAPTER = 14;

export interface WidgetDefinition<S extends Schema = Schema> {
  /// The embed name (`embed.html?widget=<name>`), equal to the folder name.
  name: string;
  title: string;
  /// Position in the chapter, unique: the section number, with decimals for later places in the
  /// section (12.4, 12.41…); the full page puts the figure in that section of index.html. 13.n is
  /// exercise n. From BEYOND_THE_CHAPTER on, a figure goes beyond the chapter: the full page shows
  /// it after the chapter's exercises.
  order: number;
  /// The chapter's figure label, e.g. "Figure 12.1".
  figure?: string;
  /// URL parameters (embed contract) and their defaults.
  params: S;
  /// Prose shown before the widget on the full page: HTML with $…$ / $$…$$ TeX, kept in the
  /// widget folder's prose.html (TeX with single backslashes) and imported with `?raw`.
  prose?: string;
  /// The figure typesets TeX of its own (a table of notation, an exercise's answer): KaTeX and its
  /// stylesheet load before it mounts, so its formulas are set in the frame it first shows
  /// (typesetting after KaTeX arrived would change their size on screen: a layout shift).
  math?: boolean;
  mount(host: WidgetHost<S>, state: StateOf<S>): MountedWidget;
}

/// Identity helper that keeps the schema's types for `mount`.
export function defineWidget<S extends Schema>(definition: WidgetDefinition<S>): WidgetDefinition<S> {
  return definition;
}
