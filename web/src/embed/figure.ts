/// The heavy half of <kernel-lens-figure>, loaded by the element (./element.ts) when the first
/// figure nears the viewport: mounts the widget named by `widget` into the element's shadow root,
/// with the other attributes as its parameters (matched without regard to case, so `keyseed` sets
/// `keySeed`). Every figure on a page shares one worker and one wasm instance.
import { applyTheme, setThemeSource, themeMode, type ThemeMode } from '../theme/theme';
import { mountWidget, type MountedFrame } from '../ui/host/host';
import { nextTask, prepareMath } from '../ui/math-text';
import { loadWidget, showUnknownWidget } from '../widgets/registry';
import { elementCode, embedAddress, iframeCode, shareUnavailable, type ShareTarget } from '../ui/share';
import { watchPrintLayout } from '../charts/print';
import { serializeState, themeNote } from '../ui/state';

/// Attributes of the element itself, never widget parameters.
const OWN_ATTRIBUTES = new Set(['widget', 'theme', 'font', 'paper', 'id', 'class', 'style', 'title', 'hidden', 'lang', 'dir', 'slot']);

/// The attributes that are widget parameters, by attribute name: not the element's own, and not
/// what a host or a framework puts on any element (`data-*`, `aria-*`, Vue's `data-v-…`).
function parameterAttributes(element: HTMLElement): Map<string, string> {
  const found = new Map<string, string>();
  for (const { name, value } of Array.from(element.attributes)) {
    if (OWN_ATTRIBUTES.has(name) || name.startsWith('data-') || name.startsWith('aria-')) continue;
    found.set(name, value);
  }
  return found;
}

/// The schema's name for an attribute (attribute names are lower case in HTML), or the attribute's
/// own name when no parameter has it (the widget then notes it as not applied).
function schemaName(attribute: string, schemaKeys: readonly string[]): string {
  return schemaKeys.find((candidate) => candidate.toLowerCase() === attribute.toLowerCase()) ?? attribute;
}

/// What a reader has made of a figure: its widget, the parameter attributes it was mounted from,
/// and its state then. An element keeps it across a removal, so a figure put back (a framework's
/// keep-alive, a slide re-entered) shows the reader's work, not its attributes' defaults.
export interface ReaderState {
  widget: string;
  attributes: Map<string, string>;
  state: URLSearchParams;
}

/// The widget's parameters: the attributes, or, when the reader has worked on the same widget, the
/// reader's state with only the attributes changed since then applied over it (an attribute removed
/// since then takes its parameter back to its default).
function parameters(attributes: Map<string, string>, schemaKeys: readonly string[], reader: ReaderState | null): URLSearchParams {
  const params = new URLSearchParams(reader?.state);
  for (const [name, value] of attributes) {
    const key = schemaName(name, schemaKeys);
    const known = key !== name || schemaKeys.includes(name);
    // Unknown names are passed on every time, so their "not applied" note stays.
    if (!reader || reader.attributes.get(name) !== value || !known) params.set(key, value);
  }
  if (reader) {
    for (const name of reader.attributes.keys()) {
      if (!attributes.has(name)) params.delete(schemaName(name, schemaKeys));
    }
  }
  return params;
}

/// Starts fetching a widget's code (figures mount one at a time, their code arrives in parallel).
export function preloadWidget(name: string | null): void {
  if (name) void loadWidget(name).catch(() => null);
}

export interface FigureHandle {
  /// Re-reads the attributes: a theme or font change restyles; a change of the widget or of one of
  /// its parameters re-mounts, keeping the reader's other settings; anything else (class, style,
  /// hidden, id, aria-*, data-*) leaves the figure as it is.
  update(): Promise<void>;
  /// Unmounts, and returns what the reader had made of the figure (for a later mount).
  destroy(): ReaderState | null;
}

export async function mountFigure(
  element: HTMLElement,
  container: HTMLElement,
  siteRoot: URL,
  styled: Promise<void>,
  kept: ReaderState | null = null,
): Promise<FigureHandle> {
  watchPrintLayout();
  let mounted: MountedFrame | null = null;
  /// The mounted widget's name, parameter attributes and schema.
  let shownWith: { widget: string; attributes: Map<string, string>; schema: Record<string, unknown> } | null = null;
  let generation = 0;
  let theme: { mode: ThemeMode; stop: () => void } | null = null;
  let shown = '';

  /// The reader's state now (or what was kept from an earlier mount, until this one mounts).
  const readerNow = (): ReaderState | null => {
    if (!mounted || !shownWith) return kept;
    const schema = shownWith.schema as Parameters<typeof serializeState>[0];
    return { widget: shownWith.widget, attributes: shownWith.attributes, state: serializeState(schema, mounted.state as never) };
  };

  const style = (): void => {
    const mode = themeMode(element.getAttribute('theme'));
    if (theme?.mode !== mode) {
      theme?.stop();
      // The element is the theme root, so an author's --kl-* colours on it win in either theme.
      theme = { mode, stop: applyTheme(element, mode) };
    }
    // Written only when it changes: the element's attribute observer sees every write.
    const font = element.getAttribute('font') ?? undefined;
    if (element.dataset.klFont === font) return;
    if (font) element.dataset.klFont = font;
    else delete element.dataset.klFont;
  };

  const render = async (): Promise<void> => {
    style();
    const name = element.getAttribute('widget') ?? '';
    const attributes = parameterAttributes(element);
    const identity = [name, ...Array.from(attributes, ([attribute, value]) => `${attribute}=${value}`)].join('\n');
    if (identity === shown && (mounted || generation > 0)) return;
    shown = identity;
    const reader = readerNow();
    const current = ++generation;
    const [widget] = await Promise.all([loadWidget(name, container).catch(() => null), styled]);
    if (widget?.math) await prepareMath(container);
    // The widget's code was evaluated in the task that resolved its import: it mounts in a task
    // of its own.
    await nextTask();
    if (current !== generation) return;
    setThemeSource(container);
    mounted?.destroy();
    mounted = null;
    shownWith = null;
    kept = null;
    container.replaceChildren();
    if (!widget) {
      showUnknownWidget(container, name);
      return;
    }
    const keys = Object.keys(widget.params);
    const online = /^https?:$/.test(siteRoot.protocol);
    const share: ShareTarget = online
      ? {
          link: (state) => embedAddress(siteRoot, name, state),
          embedCodes: (state, title) => {
            const loader = new URL('kernel-lens.js', siteRoot).href;
            const height = container.getBoundingClientRect().height;
            return [
              { label: 'Custom element', code: elementCode(loader, name, state) },
              { label: 'iframe', code: iframeCode(embedAddress(siteRoot, name, state), title, height, loader) },
            ];
          },
        }
      : { unavailable: shareUnavailable };
    const params = parameters(attributes, keys, reader?.widget === name ? reader : null);
    const theme = themeNote(element.getAttribute('theme'));
    mounted = mountWidget(widget, container, params, { embedded: true, share, pageNotes: theme ? [theme] : [] });
    shownWith = { widget: name, attributes, schema: widget.params };
  };

  await render();
  return {
    update: render,
    destroy() {
      const reader = readerNow();
      generation++;
      theme?.stop();
      mounted?.destroy();
      mounted = null;
      shownWith = null;
      return reader;
    },
  };
}
