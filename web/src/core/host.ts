/// Mounts a widget definition into a frame with its notes and error areas.
import { sharedBridge } from './bridge';
import type { Channel } from './bridge';
import type { CsvRows } from './export';
import { copyText, type ShareTarget } from './share';
import { parseState, serializeState, type Schema, type StateOf } from './state';
import type { ExportTable, MountedWidget, WidgetDefinition, WidgetHost } from './widget';

let instances = 0;

export interface MountOptions {
  embedded: boolean;
  /// The title is the document's <h1> (a widget shown alone on its page).
  heading?: boolean;
  /// Links, embed code and address-bar reflection; without it the share buttons are left out.
  share?: ShareTarget;
  /// Called after every state change.
  onStateChange?: (state: Record<string, unknown>) => void;
}

export interface MountedFrame extends MountedWidget {
  readonly frame: HTMLElement;
  readonly host: WidgetHost;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

/// A note line appended to `box`; returns what removes it.
function noteIn(box: HTMLElement, message: string): () => void {
  const item = element('p', 'kl-widget__note');
  item.textContent = message;
  box.append(item);
  return () => item.remove();
}

/// Builds `<figure class="kl-widget">` in `container`, parses `params` against the widget's
/// schema (rejected parameters become a visible note) and mounts the widget.
export function mountWidget<S extends Schema>(
  definition: WidgetDefinition<S>,
  container: HTMLElement,
  params: URLSearchParams,
  options: MountOptions,
): MountedFrame {
  const id = `kl-${definition.name}-${++instances}`;
  const frame = element('figure', 'kl-widget');
  frame.dataset.widget = definition.name;
  frame.id = id;
  frame.setAttribute('aria-labelledby', `${id}-title`);

  const header = element('figcaption', 'kl-widget__title');
  header.id = `${id}-title`;
  if (definition.figure) {
    const label = element('span', 'kl-widget__figure');
    label.textContent = `${definition.figure}. `;
    header.append(label);
  }
  header.append(definition.title);
  if (options.heading) {
    const heading = element('h1', 'kl-widget__heading');
    heading.append(...header.childNodes);
    header.append(heading);
  }

  const notes = element('div', 'kl-widget__notes');
  notes.setAttribute('role', 'status');
  notes.setAttribute('aria-live', 'polite');
  const error = element('p', 'kl-widget__error');
  /// What the error shown came from (see WidgetHost.showError).
  let errorSource: string | undefined;
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const root = element('div', 'kl-widget__body');
  // The loading note lies over the top of the figure instead of pushing it down: a note that
  // comes and goes while the core loads would move the whole figure twice (a layout shift).
  const loading = element('div', 'kl-widget__loading kl-no-print');
  loading.setAttribute('role', 'status');
  loading.setAttribute('aria-live', 'polite');
  /// The notes over the figure, one below the other.
  const overlay = element('div', 'kl-widget__overlay');
  loading.append(overlay);

  const exports: ExportTable[] = [];
  const tools = toolbar(definition, frame, exports, () => serializeState(definition.params, state), options.share);
  frame.append(header, notes, loading, root, error, tools.element);
  frame.addEventListener('keydown', keepKeys);
  container.append(frame);

  const parsed = parseState(definition.params, params);
  let state: StateOf<S> = parsed.state;
  const bridge = sharedBridge();

  const host: WidgetHost<S> = {
    root,
    embedded: options.embedded,
    bridge,
    channel: (key: string, depth?: number): Channel => bridge.channel(`${id}/${key}`, depth),
    note: (message) => noteIn(notes, message),
    waitingNote: (message) => noteIn(overlay, message),
    showError(reason, source) {
      const message = reason instanceof Error ? reason.message : String(reason);
      error.textContent = message;
      error.hidden = false;
      errorSource = source;
      frame.classList.add('kl-widget--error');
    },
    clearError(source) {
      if (error.hidden || (source !== undefined && source !== errorSource)) return;
      error.hidden = true;
      error.textContent = '';
      frame.classList.remove('kl-widget--error');
    },
    get state() {
      return state;
    },
    setState(partial) {
      state = { ...state, ...partial };
      tools.stateChanged();
      options.onStateChange?.(state as Record<string, unknown>);
    },
    provideExport(table) {
      exports.push(table);
      return () => {
        const index = exports.indexOf(table);
        if (index >= 0) exports.splice(index, 1);
      };
    },
  };

  if (parsed.rejected.length > 0) {
    host.note(`Invalid parameters fell back to their defaults: ${parsed.rejected.join('; ')}.`);
  }
  const mounted = definition.mount(host, state);
  let removeRestartNote = (): void => undefined;
  const stopRestartNotes = bridge.onRestart((reason) => {
    removeRestartNote();
    removeRestartNote = host.note(`The core stopped (${reason}) and was restarted; this figure keeps its state.`);
  });
  // A slow download of the core says so, instead of read-outs that stay empty.
  let removeLoadingNote = (): void => undefined;
  const stopLoadingNotes = bridge.onLoading((what) => {
    removeLoadingNote();
    if (what) removeLoadingNote = noteIn(overlay, `Loading ${what}…`);
  });
  return {
    frame,
    host: host as unknown as WidgetHost,
    destroy() {
      stopLoadingNotes();
      removeLoadingNote();
      stopRestartNotes();
      tools.destroy();
      mounted.destroy();
      frame.remove();
    },
  };
}

/// Keys a focused control uses stay inside the figure: a host page that listens on the document
/// (a slide deck turning slides on the arrows or Space) does not see them.
const CONTROL_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);
const ACTIVATION_KEYS = new Set([' ', 'Spacebar', 'Enter']);
const TEXT_INPUT = /^(text|search|number|email|url|tel|password)$/;

function keepKeys(event: KeyboardEvent): void {
  const target = event.composedPath()[0];
  if (!(target instanceof HTMLElement)) return;
  const control = target.closest('input, select, textarea, button, summary, [role="slider"], [role="button"], [tabindex]');
  if (!control) return;
  const typing = control instanceof HTMLTextAreaElement || (control instanceof HTMLInputElement && TEXT_INPUT.test(control.type));
  if (CONTROL_KEYS.has(event.key) || ACTIVATION_KEYS.has(event.key) || (typing && event.key.length === 1)) event.stopPropagation();
}

/// The figure's share and download row: "Copy link", "Copy embed code", and a disclosure listing
/// a PNG download per chart canvas and a CSV download per provided table (built when opened).
function toolbar(
  definition: Pick<WidgetDefinition, 'name' | 'title' | 'figure'>,
  frame: HTMLElement,
  exports: readonly ExportTable[],
  params: () => URLSearchParams,
  share: ShareTarget | undefined,
): { element: HTMLElement; stateChanged(): void; destroy(): void } {
  const element = document.createElement('div');
  element.className = 'kl-share kl-no-print';
  const status = document.createElement('span');
  status.className = 'kl-share__status';
  status.setAttribute('role', 'status');
  let clearStatus: ReturnType<typeof setTimeout> | undefined;
  const say = (message: string): void => {
    status.textContent = message;
    clearTimeout(clearStatus);
    clearStatus = setTimeout(() => (status.textContent = ''), 4000);
  };
  const action = (label: string, run: () => Promise<void> | void): HTMLButtonElement => {
    const node = document.createElement('button');
    node.type = 'button';
    node.className = 'kl-button kl-button--small';
    node.textContent = label;
    node.addEventListener('click', () => {
      Promise.resolve(run()).catch((reason: unknown) => say(reason instanceof Error ? reason.message : String(reason)));
    });
    return node;
  };
  const title = `Kernel Lens: ${definition.figure ? `${definition.figure}, ` : ''}${definition.title}`;

  const links: HTMLElement[] = [];
  if (share?.link) {
    const link = share.link;
    links.push(
      action('Copy link', async () => {
        const copied = await copyText(link(params()));
        say(copied ? 'Link copied.' : 'Copying was refused; the link is in the address bar.');
      }),
    );
  }
  if (share?.embedCodes) {
    const codes = share.embedCodes;
    links.push(
      menu('kl-share__embed', 'Copy embed code', () =>
        codes(params(), title).map(({ label, code }) =>
          action(label, async () => {
            say((await copyText(code)) ? `${label} code copied.` : 'Copying was refused by the browser.');
          }),
        ),
      ),
    );
  }
  element.append(...links);
  if (share?.unavailable) {
    const why = document.createElement('p');
    why.className = 'kl-share__why';
    why.textContent = share.unavailable;
    element.append(why);
  }

  const downloads = menu('kl-share__downloads', 'Download', () => {
    const canvases = [...frame.querySelectorAll<HTMLCanvasElement>('.kl-widget__body canvas[role="img"]')];
    const buttons = canvases.map((canvas, i) => {
      const name = canvas.dataset.exportName ?? `chart ${i + 1}`;
      const node = action(`${name} (PNG)`, async () => {
        const { downloadPng } = await import('./export');
        await downloadPng(canvas, fileName(definition.name, name, 'png'));
      });
      node.title = canvas.getAttribute('aria-label') ?? name;
      return node;
    });
    for (const table of exports) {
      buttons.push(
        action(`${table.name} (CSV)`, async () => {
          const rows: CsvRows = await table.csv();
          if (rows.length === 0) throw new Error('nothing to export yet: the figure is still computing');
          const { downloadCsv } = await import('./export');
          downloadCsv(rows, fileName(definition.name, table.name, 'csv'));
        }),
      );
    }
    return buttons;
  });
  element.append(downloads, status);

  let reflectTimer: ReturnType<typeof setTimeout> | undefined;
  return {
    element,
    stateChanged() {
      if (!share?.reflect) return;
      clearTimeout(reflectTimer);
      reflectTimer = setTimeout(() => share.reflect?.(params()), 250);
    },
    destroy() {
      clearTimeout(reflectTimer);
      clearTimeout(clearStatus);
    },
  };
}

function fileName(widget: string, name: string, extension: string): string {
  return `${widget}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}.${extension}`;
}

/// A disclosure menu (`<details>`) whose items are built each time it opens (from the state then).
function menu(className: string, title: string, items: () => HTMLElement[]): HTMLDetailsElement {
  const details = document.createElement('details');
  details.className = className;
  const summary = document.createElement('summary');
  summary.textContent = title;
  const list = document.createElement('div');
  list.className = 'kl-share__list';
  details.append(summary, list);
  details.addEventListener('toggle', () => {
    if (details.open) list.replaceChildren(...items());
  });
  return details;
}
