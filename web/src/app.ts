/// The two ways the site shows widgets: the full page (every widget in chapter order, each mounted
/// as it nears the viewport, state in `<widget>.<param>` query entries) and one widget alone (`?widget=<name>&<param>=…`, for iframes
/// and the standalone file). Both reflect each widget's state into the address as it changes.
import { setSubheadingLevel } from './core/headings';
import { mountWidget } from './core/host';
import { nextTask, typeset } from './core/math-text';
import { loadAllWidgets, loadWidget, showUnknownWidget } from './core/registry';
import { embedAddress, pageAddress, pageParams, reportHeight, widgetAddress, type ShareTarget } from './core/share';

const replaceAddress = (address: string): void => {
  if (address !== location.href) history.replaceState(history.state, '', address);
};

/// Where "Copy embed code" points: embed.html beside the page, or the standalone file itself.
function embedUrl(widget: string, params: URLSearchParams, schemaKeys: readonly string[]): string {
  if (import.meta.env.MODE === 'standalone') return widgetAddress(widget, params, schemaKeys, location.href.split('#')[0]);
  return embedAddress(new URL('.', location.href), widget, params);
}

/// How far below (and above) the viewport a figure starts: it is typeset and mounted before the
/// reader reaches it, and the figures far down cost nothing at load (Distill's d-figure idea).
const MOUNT_MARGIN = '800px 0px';

export async function showPage(): Promise<void> {
  const page = document.getElementById('kl-page');
  const container = document.getElementById('kl-widgets');
  if (!page || !container) return;
  const widgets = await loadAllWidgets(container);
  const search = new URLSearchParams(location.search);
  const pending = new Map<Element, () => Promise<void>>();
  /// Figures that came near the viewport, mounted one per task so the page keeps responding.
  const queue: (() => Promise<void>)[] = [];
  let draining = false;
  const drain = async (): Promise<void> => {
    if (draining) return;
    draining = true;
    for (let show = queue.shift(); show; show = queue.shift()) {
      await show();
      await nextTask();
    }
    draining = false;
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const show = entry.isIntersecting ? pending.get(entry.target) : undefined;
        if (!show) continue;
        pending.delete(entry.target);
        observer.unobserve(entry.target);
        queue.push(show);
      }
      void drain();
    },
    { rootMargin: MOUNT_MARGIN },
  );
  for (const widget of widgets) {
    const section = document.createElement('section');
    section.className = 'kl-section kl-section--waiting';
    section.id = `section-${widget.name}`;
    container.append(section);
    const keys = Object.keys(widget.params);
    const share: ShareTarget = {
      link: (params) => `${pageAddress(widget.name, params).split('#')[0]}#${section.id}`,
      embedUrl: (params) => embedUrl(widget.name, params, keys),
      reflect: (params) => replaceAddress(pageAddress(widget.name, params)),
    };
    pending.set(section, async () => {
      if (widget.prose) {
        const prose = document.createElement('div');
        prose.className = 'kl-prose';
        prose.innerHTML = widget.prose;
        // Typeset before it enters the page: formulas replacing their TeX would shift the layout.
        await typeset(prose);
        section.append(prose);
      }
      mountWidget(widget, section, pageParams(widget.name, search), { embedded: false, share });
      section.classList.remove('kl-section--waiting');
    });
    observer.observe(section);
  }
  container.removeAttribute('aria-busy');
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  for (const part of Array.from(page.children)) {
    if (part !== container && part instanceof HTMLElement) await typeset(part);
  }
}

/// Shows the widget named by `?widget=` alone in `container` (the whole body when absent).
export async function showEmbed(container?: HTMLElement | null): Promise<void> {
  let target = container;
  if (!target) {
    target = document.createElement('main');
    target.id = 'kl-embed';
    document.body.className = 'kl-embed';
    document.body.replaceChildren(target);
  }
  const params = new URLSearchParams(location.search);
  const name = params.get('widget') ?? '';
  const widget = await loadWidget(name, target);
  if (!widget) {
    showUnknownWidget(target, name);
    return;
  }
  document.title = `${widget.figure ? `${widget.figure}: ` : ''}${widget.title} — Kernel Lens`;
  const keys = Object.keys(widget.params);
  const share: ShareTarget = {
    link: (state) => widgetAddress(name, state, keys),
    embedUrl: (state) => embedUrl(name, state, keys),
    reflect: (state) => replaceAddress(widgetAddress(name, state, keys)),
  };
  setSubheadingLevel(2);
  const mounted = mountWidget(widget, target, params, { embedded: true, heading: true, share });
  reportHeight(name, mounted.frame);
}
