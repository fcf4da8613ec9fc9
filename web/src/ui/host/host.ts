/// Mounts a widget definition into a frame with its notes and error areas.
import { element } from '../dom';
import type { ShareTarget } from '../share';
import { noteSentence, parseState, serializeState, type Schema } from '../state';
import { FigureHost } from './figure-host';
import { toolbar } from './toolbar';
import type { ExportTable, WidgetDefinition } from './widget';

let instances = 0;

export interface MountOptions {
  embedded: boolean;
  /// The title is the document's <h1> (a widget shown alone on its page).
  heading?: boolean;
  /// Links, embed code and address-bar reflection; without it the share buttons are left out.
  share?: ShareTarget;
  /// Called after every state change.
  onStateChange?: (state: Record<string, unknown>) => void;
  /// Names in `params` that belong to the page, not the figure (embed.html's `widget`, `theme`).
  pageParams?: readonly string[];
  /// Lines on the page's own parameters that had no effect (a theme that is none), shown with the
  /// figure's.
  pageNotes?: readonly string[];
}

export interface MountedFrame {
  readonly frame: HTMLElement;
  /// The figure's state now.
  readonly state: Record<string, unknown>;
  destroy(): void;
}

/// A note line appended to `box`; returns what removes it.
function noteIn(box: HTMLElement, message: string): () => void {
  const item = element('p', 'kl-widget__note');
  item.textContent = message;
  box.append(item);
  return () => item.remove();
}

/// Whether a read-out line has nothing to say yet: each of its numbers (its innermost elements other
/// than line breaks) still blank, as `pending` leaves it while the number is computed.
function blankLine(line: Element): boolean {
  const numbers = [...line.querySelectorAll(':not(br)')].filter((number) => number.childElementCount === 0);
  return numbers.length > 0 && numbers.every((number) => !/\S/.test(number.textContent ?? ''));
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
    label.textContent = `${definition.figure}: `;
    header.append(label);
  }
  header.append(definition.title);
  if (definition.caption) {
    // The chapter's whole caption: its title is the first sentence.
    const caption = element('span', 'kl-widget__caption');
    caption.textContent = ` ${definition.caption}`;
    header.append('.', caption);
  }
  if (options.heading) {
    const heading = element('h1', 'kl-widget__heading');
    heading.append(...header.childNodes);
    header.append(heading);
  }

  // The notes are not live: the figure speaks only from its announcer (a note present on load is
  // read with the figure; a restart is said there).
  const notes = element('div', 'kl-widget__notes');
  const error = element('p', 'kl-widget__error');
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const root = element('div', 'kl-widget__body');
  // The loading note lies over the top of the figure instead of pushing it down: a note that
  // comes and goes while the core loads would move the whole figure twice (a layout shift).
  const loading = element('div', 'kl-widget__loading kl-no-print');
  /// The figure's one live region: its read-out sentence after the reader's input, a long run's
  /// start and end (see FigureHost.announce). Polite and atomic: the whole sentence is read.
  const announcer = element('p', 'kl-visually-hidden');
  announcer.setAttribute('role', 'status');
  announcer.setAttribute('aria-live', 'polite');
  announcer.setAttribute('aria-atomic', 'true');
  announcer.dataset.testid = 'announcer';
  /// The notes over the figure, one below the other.
  const overlay = element('div', 'kl-widget__overlay');
  loading.append(overlay);
  // While a part of the core could not be loaded, read-out lines whose numbers never arrived are
  // left out ("Step : h = , risk ." would be shown and read aloud), until Retry or a later drawing
  // that fills them.
  let unloaded = false;
  const markBlankLines = (): void => {
    for (const line of root.querySelectorAll('.kl-readout')) line.classList.toggle('kl-readout--blank', unloaded && blankLine(line));
  };
  // (Every other time the marks are already clear: each way out of `unloaded` clears them.)
  frame.addEventListener('kernel-lens:drawn', () => {
    if (unloaded) markBlankLines();
  });

  const exports: ExportTable[] = [];
  const parsed = parseState(definition.params, params, options.pageParams);
  const tools = toolbar(definition, frame, exports, () => serializeState(definition.params, host.state), options.share);
  frame.append(header, notes, loading, root, error, announcer, tools.element);
  frame.addEventListener('keydown', keepKeys);
  container.append(frame);

  const host = new FigureHost<S>(
    {
      id,
      frame,
      root,
      embedded: options.embedded,
      note: (message) => noteIn(notes, message),
      waitingNote: (message) => noteIn(overlay, message),
      showError(message, retry) {
        error.textContent = message;
        if (retry) {
          const again = document.createElement('button');
          again.type = 'button';
          again.className = 'kl-button kl-widget__retry';
          again.textContent = 'Retry';
          again.addEventListener('click', retry);
          error.append(' ', again);
        }
        // A part of the core that could not be loaded hides the figure's progress notes ("Waiting
        // for…", "Computing…") until it tries again: they would contradict the error.
        overlay.hidden = unloaded = Boolean(retry);
        markBlankLines();
        error.hidden = false;
        frame.classList.add('kl-widget--error');
      },
      resumeProgress() {
        overlay.hidden = unloaded = false;
        markBlankLines();
      },
      hideError() {
        // A focused Retry goes with the error: focus moves to the figure's first control.
        const scope = frame.getRootNode() as Document | ShadowRoot;
        if (scope.activeElement && error.contains(scope.activeElement)) {
          frame.querySelector<HTMLElement>('.kl-widget__body :is(input, select, textarea, button, [tabindex="0"])')?.focus({ preventScroll: true });
        }
        error.hidden = true;
        error.textContent = '';
        overlay.hidden = unloaded = false;
        markBlankLines();
        frame.classList.remove('kl-widget--error');
      },
      provideExport(table) {
        exports.push(table);
        return () => {
          const index = exports.indexOf(table);
          if (index >= 0) exports.splice(index, 1);
        };
      },
      stateChanged(state) {
        tools.stateChanged();
        options.onStateChange?.(state);
      },
      announcer,
    },
    parsed.state,
  );

  if (parsed.rejected.length > 0) {
    host.note(noteSentence('Invalid parameters fell back to their defaults', parsed.rejected));
  }
  const ignored = [...(options.pageNotes ?? []), ...parsed.ignored];
  if (ignored.length > 0) {
    const message = noteSentence('Parameters with no effect', ignored);
    host.note(message);
    // Once per figure, for the author reading the console rather than the page.
    console.warn(`Kernel Lens (${definition.name}): ${message}`);
  }
  const mounted = definition.mount(host);
  host.start();
  let removeRestartNote = (): void => undefined;
  const stopRestartNotes = host.bridge.onRestart((reason) => {
    removeRestartNote();
    const message = `The core stopped (${reason}) and was restarted; this figure keeps its state.`;
    removeRestartNote = host.note(message);
    host.say(message);
  });
  // A slow download of the core says so, instead of read-outs that stay empty.
  let removeLoadingNote = (): void => undefined;
  const stopLoadingNotes = host.bridge.onLoading((what) => {
    removeLoadingNote();
    if (what) removeLoadingNote = noteIn(overlay, `Loading ${what}…`);
  });
  return {
    frame,
    get state() {
      return host.state as Record<string, unknown>;
    },
    destroy() {
      stopLoadingNotes();
      removeLoadingNote();
      stopRestartNotes();
      tools.destroy();
      mounted?.destroy?.();
      host.destroy();
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

