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

/// Attributes of the element itself, never widget parameters.
const OWN_ATTRIBUTES = new Set(['widget', 'theme', 'font', 'paper', 'id', 'class', 'style', 'title', 'hidden', 'lang', 'dir', 'slot']);

/// The widget's parameters from the element's attributes (attribute names are lower case in HTML).
function parameters(element: HTMLElement, schemaKeys: readonly string[]): URLSearchParams {
  const params = new URLSearchParams();
  for (const { name, value } of Array.from(element.attributes)) {
    if (OWN_ATTRIBUTES.has(name) || name.startsWith('data-') || name.startsWith('aria-')) continue;
    const key = schemaKeys.find((candidate) => candidate.toLowerCase() === name.toLowerCase()) ?? name;
    params.set(key, value);
  }
  return params;
}

/// Starts fetching a widget's code (figures mount one at a time, their code arrives in parallel).
export function preloadWidget(name: string | null): void {
  if (name) void loadWidget(name).catch(() => null);
}

export interface FigureHandle {
  /// Re-reads the attributes: a theme or font change restyles, any other change re-mounts.
  update(): Promise<void>;
  destroy(): void;
}

export async function mountFigure(
  element: HTMLElement,
  container: HTMLElement,
  siteRoot: URL,
  styled: Promise<void>,
): Promise<FigureHandle> {
  watchPrintLayout();
  let mounted: MountedFrame | null = null;
  let generation = 0;
  let theme: { mode: ThemeMode; stop: () => void } | null = null;
  let shown = '';

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
    const params = Array.from(element.attributes)
      .filter(({ name: attribute }) => attribute !== 'theme' && attribute !== 'font' && attribute !== 'paper' && !attribute.startsWith('data-kl-'))
      .map(({ name: attribute, value }) => `${attribute}=${value}`)
      .join('\n');
    if (params === shown && (mounted || generation > 0)) return;
    shown = params;
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
    mounted = mountWidget(widget, container, parameters(element, keys), { embedded: true, share });
  };

  await render();
  return {
    update: render,
    destroy() {
      generation++;
      theme?.stop();
      mounted?.destroy();
      mounted = null;
    },
  };
}
